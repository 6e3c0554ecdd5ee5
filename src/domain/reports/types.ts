import type { FilterNode, ValueKind } from '../filter-ast.ts';

/** The vocabulary of report configs: metrics, time buckets and chart types. */
export const METRICS = ['count', 'sum', 'avg', 'min', 'max'] as const;
export type Metric = (typeof METRICS)[number];

export const TIME_BUCKETS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type TimeBucket = (typeof TIME_BUCKETS)[number];

export const CHART_TYPES = ['bar', 'stacked_bar', 'line', 'area', 'pie', 'donut', 'funnel', 'number', 'table'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/** One report filter as saved: a field, an operator of the records.list filter language, a value. */
export interface ReportFilter {
  field: string;
  operator: string;
  value?: unknown;
}

/** A report config as saved (checked against the object type's fields when saved and again when run). */
export interface ReportConfig {
  object_type: string;
  metric: Metric;
  /** `*` for a plain count. */
  metric_field: string;
  group_by: string | null;
  time_bucket: TimeBucket | null;
  /** The date or timestamp field buckets are taken from; `created_at` unless given. */
  time_field: string | null;
  chart_type: ChartType;
  filters: ReportFilter[];
}

/** A saved report definition. */
export interface SavedReport {
  id: string;
  workspace_id: string;
  name: string;
  config: ReportConfig;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A group value as stored: text, a number, a boolean (checkbox), or null for "no value". */
export type GroupValue = string | number | boolean | null;

/**
 * What a store aggregates: the live items of one scope (records of an object type, or entries of a
 * list whose record is live) passing the filter, grouped by one single-valued field and/or a time
 * bucket. The metric reads a field of the record (for entries: of the entry's record).
 */
export interface AggregateQuery {
  scope: { object_type_slug: string } | { list_id: string };
  filter?: FilterNode | undefined;
  metric: Metric;
  /** Absent for a plain count; for count, records with a value of the field are counted. */
  metric_field?: string | undefined;
  group_by?: { field: string; valueKind: ValueKind } | undefined;
  /** Items without a value in the time field are left out. */
  time?: { field: string; system: boolean; bucket: TimeBucket } | undefined;
  /** The store returns at most this many rows (the caller asks one more than it accepts). */
  max_rows: number;
}

/**
 * One group of an aggregate, in no particular order. `bucket` is the bucket's first day
 * (`YYYY-MM-DD`, UTC). `value` is the metric: a count, a sum (0 without values), or an average,
 * minimum or maximum (null without values). Booleans come back as 0/1 in `group`.
 */
export interface AggregateRow {
  group: string | number | null;
  bucket: string | null;
  value: number | null;
  count: number;
}

export type { FilterNode };
