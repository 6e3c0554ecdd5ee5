import { describe, expect, it } from 'vitest';
import { metrics, MetricsRegistry, PROMETHEUS_CONTENT_TYPE } from '../../gateway/metrics.ts';

describe('the metrics registry', () => {
  it('renders counters and gauges in the Prometheus text format 0.0.4', () => {
    const registry = new MetricsRegistry();
    const requests = registry.counter('http_requests_total', 'HTTP requests by route and status.');
    registry.gauge('crm_ratelimit_degraded', '1 while degraded.').set(1);
    requests.inc({ route: '/v1/records/list', status: '200' });
    requests.inc({ status: '200', route: '/v1/records/list' }, 2);
    requests.inc({ route: '/mcp/', status: '429' });
    expect(registry.render()).toBe(
      [
        '# HELP http_requests_total HTTP requests by route and status.',
        '# TYPE http_requests_total counter',
        'http_requests_total{route="/v1/records/list",status="200"} 3',
        'http_requests_total{route="/mcp/",status="429"} 1',
        '# HELP crm_ratelimit_degraded 1 while degraded.',
        '# TYPE crm_ratelimit_degraded gauge',
        'crm_ratelimit_degraded 1',
        '',
      ].join('\n'),
    );
    expect(PROMETHEUS_CONTENT_TYPE).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('shows an unlabelled metric as 0 before its first change', () => {
    const registry = new MetricsRegistry();
    registry.counter('crm_ratelimit_redis_errors_total', 'Errors.');
    expect(registry.render()).toContain('\ncrm_ratelimit_redis_errors_total 0\n');
  });

  it('escapes help text and label values', () => {
    const registry = new MetricsRegistry();
    registry.gauge('g', 'a \\ b\nc').set(-1.5, { path: 'say "hi"\\\n' });
    expect(registry.render()).toBe('# HELP g a \\\\ b\\nc\n# TYPE g gauge\ng{path="say \\"hi\\"\\\\\\n"} -1.5\n');
  });

  it('moves gauges both ways and reads series back', () => {
    const gauge = new MetricsRegistry().gauge('in_flight', 'Requests in flight.');
    gauge.inc();
    gauge.inc({}, 3);
    gauge.dec();
    expect(gauge.get()).toBe(3);
    expect(gauge.get({ other: 'x' })).toBe(0);
  });

  it('returns the same metric for the same name and refuses a clash of types or a bad name', () => {
    const registry = new MetricsRegistry();
    expect(registry.counter('c_total', 'C.')).toBe(registry.counter('c_total', 'C.'));
    expect(() => registry.gauge('c_total', 'C.')).toThrow(/already registered as a counter/);
    expect(() => registry.counter('bad-name', 'B.')).toThrow(/invalid metric name/);
    expect(() => registry.counter('c_total', 'C.').inc({ __reserved: 'x' })).toThrow(/invalid label name/);
    expect(() => registry.counter('c_total', 'C.').inc({}, -1)).toThrow(/cannot be increased by -1/);
  });

  it('offers one process-wide registry', () => {
    expect(metrics).toBeInstanceOf(MetricsRegistry);
  });
});
