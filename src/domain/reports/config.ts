import { validationError } from '../errors.ts';
import { enumError, isPlainObject, rejectOtherKeys, typeError } from '../fields/checks.ts';
import { valueKindOf } from '../fields/operators.ts';
import { liveFields, notALiveField } from '../fields/record-data.ts';
import { isMultiValued } from '../fields/values.ts';
import type { FieldDef, FieldType, ObjectType } from '../types.ts';
import { reportFilter } from './filters.ts';
import {
  CHART_TYPES, METRICS, TIME_BUCKETS, type AggregateQuery, type ChartType, type Metric, type ReportConfig, type TimeBucket,
} from './types.ts';

/** The keys of a report config. */
export const CONFIG_KEYS = ['object_type', 'metric', 'metric_field', 'group_by', 'time_bucket', 'time_field', 'chart_type', 'filters'] as const;

/** Fields whose values sum and average: numbers, money, ratings. */
export const NUMERIC_TYPES: readonly FieldType[] = ['number', 'currency', 'rating'];
/** Fields a funnel's stages come from: their options are the stages, in order. */
export const STAGE_TYPES: readonly FieldType[] = ['status', 'select'];
const TIME_TYPES: readonly FieldType[] = ['date', 'timestamp'];
const SYSTEM_TIMES = ['created_at', 'updated_at'];

/** A config checked against the object type: as saved, and as the store query it runs. */
export interface CheckedReport {
  config: ReportConfig;
  query: Omit<AggregateQuery, 'max_rows'>;
  /** The group_by field (its options order the rows of select and status fields). */
  group: FieldDef | undefined;
}

/** A single-valued live data field named by `param`, with the nearest name when unknown. */
function dataField(type: ObjectType, name: unknown, param: string, accept: (f: FieldDef) => boolean = () => true): FieldDef {
  if (typeof name !== 'string' || name === '') throw typeError(param, 'a field slug', name);
  const candidates = liveFields(type).filter((f) => !isMultiValued(f) && accept(f));
  const field = liveFields(type).find((f) => f.slug === name);
  if (!field) throw notALiveField(type, name, param, `${param} ${JSON.stringify(name)}`, candidates.map((f) => f.slug));
  if (isMultiValued(field)) {
    throw validationError(param, `${param}: ${name} holds several values per record and cannot be measured or grouped by`, { rule: 'unsupported' });
  }
  return field;
}

function wrongType(param: string, field: FieldDef, wanted: readonly FieldType[], why: string): never {
  throw validationError(param, `${param}: ${field.slug} is a ${field.type} field; ${why} needs a ${wanted.join(', ')} field`, { rule: 'field_type', allowed: [...wanted] });
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], param: string): T {
  if (typeof value !== 'string') throw typeError(param, `one of ${allowed.join(', ')}`, value);
  if (!(allowed as readonly string[]).includes(value)) throw enumError(param, value, allowed);
  return value as T;
}

const present = (value: unknown): boolean => value !== undefined && value !== null;

function notApplicable(param: string, chart: ChartType): never {
  throw validationError(param, `${param} does not apply to a ${chart} chart`, { rule: 'not_applicable' });
}

function requiredFor(param: string, chart: ChartType, what: string): never {
  throw validationError(param, `${param} is required for a ${chart} chart: ${what}`, { rule: 'required' });
}

/** The metric and its field: `*` counts records; sum and avg need a numeric field, as do min and max. */
function checkMetric(type: ObjectType, raw: Record<string, unknown>, param: string): { metric: Metric; field: FieldDef | undefined } {
  const metric = oneOf(raw.metric, METRICS, `${param}.metric`);
  const p = `${param}.metric_field`;
  if (!present(raw.metric_field) || raw.metric_field === '*') {
    if (metric !== 'count') throw validationError(p, `${p} is required for ${metric}: name a number, currency or rating field`, { rule: 'required' });
    return { metric, field: undefined };
  }
  const field = dataField(type, raw.metric_field, p, (f) => metric === 'count' || NUMERIC_TYPES.includes(f.type));
  if (metric !== 'count' && !NUMERIC_TYPES.includes(field.type)) wrongType(p, field, NUMERIC_TYPES, metric);
  return { metric, field };
}

/** The time field buckets come from: created_at unless `time_field` names a date or timestamp field. */
function checkTime(type: ObjectType, raw: Record<string, unknown>, param: string): { bucket: TimeBucket; field: string; system: boolean } | undefined {
  if (!present(raw.time_bucket)) {
    if (present(raw.time_field)) throw validationError(`${param}.time_field`, `${param}.time_field needs a time_bucket`, { rule: 'requires', requires: 'time_bucket' });
    return undefined;
  }
  const bucket = oneOf(raw.time_bucket, TIME_BUCKETS, `${param}.time_bucket`);
  const p = `${param}.time_field`;
  const name = present(raw.time_field) ? raw.time_field : 'created_at';
  if (typeof name === 'string' && SYSTEM_TIMES.includes(name)) return { bucket, field: name, system: true };
  const field = dataField(type, name, p, (f) => TIME_TYPES.includes(f.type));
  if (!TIME_TYPES.includes(field.type)) wrongType(p, field, TIME_TYPES, 'time_bucket');
  return { bucket, field: field.slug, system: false };
}

/**
 * Checks a report config against the object type's live fields and the chart's needs, naming the
 * failing parameter under `param` (`config.metric_field`, `config.filters[1].operator`, ...).
 * Chart rules: number takes neither group_by nor time_bucket; funnel needs a status or select
 * group_by and no time_bucket; pie and donut need a group_by and no time_bucket; line and area need
 * a time_bucket; stacked_bar needs both (buckets along the axis, one stack per group).
 */
export function checkReportConfig(type: ObjectType, raw: unknown, param = 'config'): CheckedReport {
  if (!isPlainObject(raw)) throw typeError(param, 'a report config object', raw);
  rejectOtherKeys(raw, CONFIG_KEYS, param, 'a report config');
  const chart = oneOf(raw.chart_type, CHART_TYPES, `${param}.chart_type`);
  const { metric, field: metricField } = checkMetric(type, raw, param);
  const group = present(raw.group_by) ? dataField(type, raw.group_by, `${param}.group_by`) : undefined;
  const time = checkTime(type, raw, param);
  const { saved, node } = reportFilter(type, raw.filters, `${param}.filters`);

  const needsGroup = ['funnel', 'pie', 'donut', 'stacked_bar'].includes(chart);
  const needsTime = ['line', 'area', 'stacked_bar'].includes(chart);
  const noTime = ['number', 'funnel', 'pie', 'donut'].includes(chart);
  if (needsGroup && !group) requiredFor(`${param}.group_by`, chart, chart === 'funnel' ? 'a status or select field whose options are the stages' : 'the field to split by');
  if (chart === 'number' && group) notApplicable(`${param}.group_by`, chart);
  if (chart === 'funnel' && group && !STAGE_TYPES.includes(group.type)) wrongType(`${param}.group_by`, group, STAGE_TYPES, 'a funnel');
  if (needsTime && !time) requiredFor(`${param}.time_bucket`, chart, 'the buckets along the axis');
  if (noTime && time) notApplicable(`${param}.time_bucket`, chart);

  const config: ReportConfig = {
    object_type: type.slug, metric, metric_field: metricField?.slug ?? '*', group_by: group?.slug ?? null,
    time_bucket: time?.bucket ?? null, time_field: present(raw.time_field) ? time!.field : null, chart_type: chart, filters: saved,
  };
  return {
    config,
    group,
    query: {
      scope: { object_type_slug: type.slug }, filter: node, metric, metric_field: metricField?.slug,
      group_by: group ? { field: group.slug, valueKind: valueKindOf(group) } : undefined, time,
    },
  };
}
