import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The Prometheus registry behind `/metrics`, on prom-client: counters, gauges and histograms
 * declared once by name (asking again for a name returns the same metric), rendered in the text
 * exposition format 0.0.4.
 */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

type AnyMetric = Counter<string> | Gauge<string> | Histogram<string>;
type Kind = 'counter' | 'gauge' | 'histogram';

export type { Counter, Gauge, Histogram };

export class MetricsRegistry {
  readonly registry = new Registry();
  private readonly kinds = new Map<string, Kind>();

  /** With `processMetrics`, also the process's CPU, memory, event-loop lag and GC (prom-client defaults). */
  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** The counter of that name, created on first use; a name taken by another kind is an error. */
  counter(name: string, help: string, labelNames: readonly string[] = []): Counter<string> {
    return this.register(name, 'counter', () => new Counter({ name, help, labelNames, registers: [this.registry] })) as Counter<string>;
  }

  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge<string> {
    return this.register(name, 'gauge', () => new Gauge({ name, help, labelNames, registers: [this.registry] })) as Gauge<string>;
  }

  histogram(name: string, help: string, labelNames: readonly string[], buckets: number[]): Histogram<string> {
    return this.register(name, 'histogram', () => new Histogram({ name, help, labelNames, buckets, registers: [this.registry] })) as Histogram<string>;
  }

  /** The current value of one counter or gauge series; 0 when it was never touched. */
  async value(name: string, labels: Record<string, string> = {}): Promise<number> {
    const metric = this.registry.getSingleMetric(name);
    if (!metric) return 0;
    const { values } = await metric.get();
    const wanted = Object.entries(labels);
    const hit = values.find((v) => {
      const have = Object.entries(v.labels);
      return have.length === wanted.length && wanted.every(([k, x]) => v.labels[k] === x);
    });
    return hit?.value ?? 0;
  }

  /** Every metric in the text exposition format 0.0.4. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  private register(name: string, kind: Kind, make: () => AnyMetric): AnyMetric {
    const existing = this.kinds.get(name);
    if (existing) {
      if (existing !== kind) throw new Error(`metric ${name} is already registered as a ${existing}`);
      return this.registry.getSingleMetric(name) as AnyMetric;
    }
    const metric = make();
    this.kinds.set(name, kind);
    return metric;
  }
}

/** The process-wide registry the gateway serves at /metrics, with the process metrics. */
export const metrics = new MetricsRegistry({ processMetrics: true });
