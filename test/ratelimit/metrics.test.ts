import { describe, expect, it } from 'vitest';
import { metrics, MetricsRegistry, PROMETHEUS_CONTENT_TYPE } from '../../gateway/metrics.ts';

describe('the metrics registry', () => {
  it('renders counters, gauges and histograms in the Prometheus text format 0.0.4', async () => {
    const registry = new MetricsRegistry();
    const requests = registry.counter('http_requests_total', 'HTTP requests by route and status.', ['route', 'status']);
    registry.gauge('crm_ratelimit_degraded', '1 while degraded.').set(1);
    requests.inc({ route: '/v1/records/list', status: '200' });
    requests.inc({ route: '/v1/records/list', status: '200' }, 2);
    requests.inc({ route: '/mcp/', status: '429' });
    registry.histogram('latency_seconds', 'Latency.', ['style'], [0.1, 1]).observe({ style: 'rest' }, 0.5);
    const text = await registry.render();
    expect(text).toContain('# TYPE http_requests_total counter\nhttp_requests_total{route="/v1/records/list",status="200"} 3\nhttp_requests_total{route="/mcp/",status="429"} 1\n');
    expect(text).toContain('# TYPE crm_ratelimit_degraded gauge\ncrm_ratelimit_degraded 1\n');
    expect(text).toContain('latency_seconds_bucket{le="0.1",style="rest"} 0\nlatency_seconds_bucket{le="1",style="rest"} 1\n');
    expect(PROMETHEUS_CONTENT_TYPE).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('shows an unlabelled metric as 0 before its first change', async () => {
    const registry = new MetricsRegistry();
    registry.counter('crm_ratelimit_redis_errors_total', 'Errors.');
    expect(await registry.render()).toContain('\ncrm_ratelimit_redis_errors_total 0\n');
  });

  it('moves gauges both ways and reads series back', async () => {
    const registry = new MetricsRegistry();
    const gauge = registry.gauge('in_flight', 'Requests in flight.', ['other']);
    gauge.inc();
    gauge.inc(3);
    gauge.dec();
    expect(await registry.value('in_flight')).toBe(3);
    expect(await registry.value('in_flight', { other: 'x' })).toBe(0);
    expect(await registry.value('never_registered')).toBe(0);
  });

  it('returns the same metric for the same name and refuses a clash of kinds or a bad name', () => {
    const registry = new MetricsRegistry();
    expect(registry.counter('c_total', 'C.')).toBe(registry.counter('c_total', 'C.'));
    expect(() => registry.gauge('c_total', 'C.')).toThrow(/already registered as a counter/);
    expect(() => registry.counter('bad-name', 'B.')).toThrow(/invalid metric name/i);
    expect(() => registry.counter('c_total', 'C.').inc(-1)).toThrow();
  });

  it('offers one process-wide registry that includes the process metrics', async () => {
    expect(metrics).toBeInstanceOf(MetricsRegistry);
    expect(await metrics.render()).toMatch(/^process_resident_memory_bytes \d+/m);
  });
});
