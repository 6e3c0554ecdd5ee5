import type { FieldDef } from '../types.ts';
import { validationError } from '../errors.ts';
import { bucketRange, MAX_SERIES_POINTS } from './buckets.ts';
import type { AggregateRow, ChartType, GroupValue, Metric, TimeBucket } from './types.ts';

/** One row of a report answer: `group` only with a group_by, `bucket` only with a time_bucket. */
export interface ReportRow {
  group?: GroupValue;
  bucket?: string;
  value: number | null;
  count: number;
}

export interface Point {
  bucket: string;
  value: number | null;
  count: number;
}

/** What the rows and series are shaped from. */
export interface Shaping {
  chart: ChartType;
  metric: Metric;
  group: FieldDef | undefined;
  bucket: TimeBucket | null;
}

/**
 * A computed value without the binary floating-point noise of adding decimals (0.1 + 0.2 is
 * 0.30000000000000004): a fraction is given to 15 significant digits, what a double holds of a
 * decimal faithfully. Integers stay as they are, exact up to 2^53.
 */
export function tidyNumber(value: number): number {
  return Number.isInteger(value) || !Number.isFinite(value) ? value : Number(value.toPrecision(15));
}

/** The metric over no records: counts and sums are 0, an average, minimum or maximum has no value. */
export const emptyValue = (metric: Metric): number | null => (metric === 'count' || metric === 'sum' ? 0 : null);

/** Store values as the caller sees them: a checkbox group is a boolean. */
function groupValue(group: FieldDef | undefined, value: string | number | null): GroupValue {
  if (value === null) return null;
  return group?.type === 'checkbox' ? value === 1 : value;
}

/** Orders groups: a select's or status's options in their order, other values ascending; no value last, unknown options after known ones. */
function groupOrder(group: FieldDef | undefined): (a: GroupValue, b: GroupValue) => number {
  const options = group?.config.options ?? [];
  const rank = (v: GroupValue): number => (v === null ? 2 : options.includes(String(v)) ? 0 : 1);
  return (a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    if (ra !== rb) return ra - rb;
    if (ra === 0) return options.indexOf(String(a)) - options.indexOf(String(b));
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  };
}

/** Rows in order (bucket ascending, then group order), keys present only for what the report groups by. */
export function shapeRows(rows: readonly AggregateRow[], s: Shaping): ReportRow[] {
  const order = groupOrder(s.group);
  // Keys set one by one from an empty literal: spreading the optional ones in made each row an
  // object with a hidden class of its own (see actorOf in actor.ts).
  const shaped = rows.map((row): ReportRow => {
    const out = {} as ReportRow;
    if (s.group) out.group = groupValue(s.group, row.group);
    if (s.bucket && row.bucket !== null) out.bucket = row.bucket;
    out.value = row.value === null ? null : tidyNumber(row.value);
    out.count = row.count;
    return out;
  });
  shaped.sort((a, b) => ((a.bucket ?? '') < (b.bucket ?? '') ? -1 : (a.bucket ?? '') > (b.bucket ?? '') ? 1 : order(a.group ?? null, b.group ?? null)));
  if (shaped.length === 0 && !s.group && !s.bucket) return [{ value: emptyValue(s.metric), count: 0 }];
  return shaped;
}

/** The points of one series over every bucket of the range, empty buckets as value 0, count 0. */
function points(rows: readonly ReportRow[], range: readonly string[]): Point[] {
  const byBucket = new Map(rows.map((row) => [row.bucket!, row]));
  return range.map((bucket) => {
    const row = byBucket.get(bucket);
    return { bucket, value: row ? row.value : 0, count: row ? row.count : 0 };
  });
}

/** The distinct groups of the rows, in group order. */
function groupsOf(rows: readonly ReportRow[], group: FieldDef | undefined): GroupValue[] {
  return [...new Set(rows.map((row) => row.group ?? null))].sort(groupOrder(group));
}

/** A funnel: the stages of the stage field (stagesOf), each with its value and count. */
function funnel(rows: readonly ReportRow[], s: Shaping) {
  return stagesOf(s.group, (stage) => {
    const row = rows.find((r) => r.group === stage);
    return row ? { value: row.value, count: row.count } : undefined;
  }, { value: emptyValue(s.metric), count: 0 });
}

/**
 * The stages of a funnel or a pipeline: every option the stage field offers, in order (empty ones
 * as `empty`), then each retired option records still hold (`retired: true`), so the stages add
 * up to every record with a stage. Conversion runs along the offered stages (null for the last
 * and for an empty one); a retired stage has none. Each stage is built as one literal, so all of
 * them share a hidden class (see actorOf in actor.ts).
 */
export function stagesOf<V>(field: FieldDef | undefined, found: (stage: string) => { value: V; count: number } | undefined, empty: { value: V; count: number }) {
  const offered = (field?.config.options ?? []).map((stage) => ({ stage, at: found(stage) ?? empty }));
  const held = (field?.config.retired_options ?? []).flatMap((stage) => {
    const at = found(stage);
    return at && at.count > 0 ? [{ stage, at }] : [];
  });
  const stage = (s: { stage: string; at: { value: V; count: number } }, retired: boolean, next: number | null) =>
    ({ stage: s.stage, count: s.at.count, value: s.at.value, retired, conversion_to_next: next });
  return [
    ...offered.map((s, i) => stage(s, false, conversion(s.at.count, offered[i + 1]?.at.count))),
    ...held.map((s) => stage(s, true, null)),
  ];
}

/** Records in the next stage per record in this one; null for the last stage or an empty one. */
export function conversion(count: number, next: number | undefined): number | null {
  return next === undefined || count === 0 ? null : next / count;
}

/**
 * The series a chart draws, from rows already in order:
 * - number: `{value, count}`;
 * - funnel: `[{stage, value, count, conversion_to_next}]`, every stage in option order;
 * - line, area: `[{bucket, value, count}]` over every bucket from the first to the last with data
 *   (empty ones 0); with a group_by, and for stacked_bar, `[{group, points}]`, one such series per
 *   group over the same buckets;
 * - pie, donut: `[{label, value, share}]`, share of the total of the positive values (0 for a
 *   value of 0 or less, and when that total is 0);
 * - bar, table: the rows.
 */
export function shapeSeries(rows: readonly ReportRow[], s: Shaping): unknown {
  switch (s.chart) {
    case 'number':
      return { value: rows[0]?.value ?? emptyValue(s.metric), count: rows[0]?.count ?? 0 };
    case 'funnel':
      return funnel(rows, s);
    case 'pie':
    case 'donut': {
      // A slice cannot be negative: shares are of the positive values' total, and a group whose
      // value is negative (a sum of refunds) keeps its value with a share of 0, so the shares
      // stay between 0 and 1 and add up to 1.
      const slice = (row: ReportRow) => Math.max(0, row.value ?? 0);
      const total = rows.reduce((sum, row) => sum + slice(row), 0);
      return rows.map((row) => ({ label: row.group ?? null, value: row.value, share: total === 0 ? 0 : slice(row) / total }));
    }
    case 'line':
    case 'area':
    case 'stacked_bar': {
      const range = bucketRange(rows.map((row) => row.bucket!), s.bucket!);
      if (!s.group) return points(rows, range);
      const groups = groupsOf(rows, s.group);
      if (groups.length * range.length > MAX_SERIES_POINTS) {
        throw validationError('config.time_bucket',
          `config.time_bucket: ${groups.length} groups over ${range.length} ${s.bucket} buckets would be ${groups.length * range.length} points, more than ${MAX_SERIES_POINTS}; use a coarser bucket, a group_by with fewer values or a filter`,
          { rule: 'too_many_points', max: MAX_SERIES_POINTS, groups: groups.length, buckets: range.length });
      }
      const byGroup = new Map<GroupValue, ReportRow[]>(groups.map((group) => [group, []]));
      for (const row of rows) byGroup.get(row.group ?? null)!.push(row);
      return groups.map((group) => ({ group, points: points(byGroup.get(group)!, range) }));
    }
    case 'bar':
    case 'table':
      return rows;
  }
}
