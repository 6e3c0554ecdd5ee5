/**
 * A dependency-free Prometheus registry: counters and gauges with optional labels, rendered in
 * the text exposition format 0.0.4 (`# HELP` / `# TYPE` then one line per series). The gateway
 * serves `metrics.render()` at `/metrics` with `PROMETHEUS_CONTENT_TYPE`.
 */

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type Labels = Readonly<Record<string, string>>;
export type MetricType = 'counter' | 'gauge';

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

abstract class Metric {
  abstract readonly type: MetricType;
  /** Series value by their rendered label set (`{a="1",b="2"}`, or `` for no labels). */
  protected readonly series = new Map<string, number>();

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  /** The current value of one series; 0 when it was never touched. */
  get(labels: Labels = {}): number {
    return this.series.get(labelKey(labels)) ?? 0;
  }

  protected add(labels: Labels, by: number): void {
    const key = labelKey(labels);
    this.series.set(key, (this.series.get(key) ?? 0) + by);
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`];
    // An unlabelled metric shows 0 before its first change, so a scrape sees it exists.
    if (this.series.size === 0) lines.push(`${this.name} 0`);
    for (const [key, value] of this.series) lines.push(`${this.name}${key} ${formatValue(value)}`);
    return lines.join('\n');
  }
}

/** A value that only goes up (reset by a process restart); names end in `_total`. */
export class Counter extends Metric {
  readonly type = 'counter';

  inc(labels: Labels = {}, by = 1): void {
    if (!(by >= 0)) throw new RangeError(`counter ${this.name} cannot be increased by ${by}`);
    this.add(labels, by);
  }
}

/** A value that goes up and down (a state, a level). */
export class Gauge extends Metric {
  readonly type = 'gauge';

  set(value: number, labels: Labels = {}): void {
    this.series.set(labelKey(labels), value);
  }

  inc(labels: Labels = {}, by = 1): void {
    this.add(labels, by);
  }

  dec(labels: Labels = {}, by = 1): void {
    this.add(labels, -by);
  }
}

export class MetricsRegistry {
  private readonly metrics = new Map<string, Counter | Gauge>();

  /** The counter of that name, created on first use; a name taken by a gauge is an error. */
  counter(name: string, help: string): Counter {
    return this.register(name, 'counter', () => new Counter(name, help)) as Counter;
  }

  /** The gauge of that name, created on first use; a name taken by a counter is an error. */
  gauge(name: string, help: string): Gauge {
    return this.register(name, 'gauge', () => new Gauge(name, help)) as Gauge;
  }

  /** Every metric in registration order, in the text exposition format 0.0.4. */
  render(): string {
    const blocks = [...this.metrics.values()].map((m) => m.render());
    return blocks.length === 0 ? '' : `${blocks.join('\n')}\n`;
  }

  private register(name: string, type: MetricType, make: () => Counter | Gauge): Counter | Gauge {
    if (!METRIC_NAME.test(name)) throw new Error(`invalid metric name ${JSON.stringify(name)}`);
    const existing = this.metrics.get(name);
    if (existing) {
      if (existing.type !== type) throw new Error(`metric ${name} is already registered as a ${existing.type}`);
      return existing;
    }
    const metric = make();
    this.metrics.set(name, metric);
    return metric;
  }
}

/** The process-wide registry the gateway serves at /metrics. */
export const metrics = new MetricsRegistry();

function labelKey(labels: Labels): string {
  const names = Object.keys(labels).sort();
  if (names.length === 0) return '';
  for (const name of names) {
    if (!LABEL_NAME.test(name) || name.startsWith('__')) throw new Error(`invalid label name ${JSON.stringify(name)}`);
  }
  return `{${names.map((n) => `${n}="${escapeLabelValue(labels[n] ?? '')}"`).join(',')}}`;
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}
