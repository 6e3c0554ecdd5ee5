import type { ComparisonNode } from '../../../domain/filter-ast.ts';
import { METRICS, TIME_BUCKETS, type AggregateQuery } from '../../../domain/reports/types.ts';
import type { BuiltStatement } from '../statement.ts';
import { aggregateStatement } from './aggregate.ts';

/**
 * Representative outputs of the aggregate builder for the lint catalog: every metric with and
 * without a field, every time bucket on a system and a data field, text and number groups, a
 * filter, and the entry scope with the metric read through the entry's record.
 */

const SCOPE_ID = 'obj_01JB0000000000000000000000';
const WON: ComparisonNode = { kind: 'cmp', field: 'stage', system: false, op: 'in', value: ['won'], valueKind: 'text', multi: false };
const BASE: AggregateQuery = { scope: { object_type_slug: 'deals' }, metric: 'count', max_rows: 1001 };

const records = (name: string, q: Partial<AggregateQuery>): readonly [string, BuiltStatement] =>
  [`records ${name}`, aggregateStatement('records', SCOPE_ID, { ...BASE, ...q })];

export const SAMPLE_AGGREGATES: ReadonlyArray<readonly [string, BuiltStatement]> = [
  records('count', {}),
  ...METRICS.map((metric) => records(`${metric} of a field by a text group`, {
    metric, metric_field: 'amount', group_by: { field: 'stage', valueKind: 'text' },
  })),
  ...TIME_BUCKETS.map((bucket) => records(`created_at by ${bucket}`, { time: { field: 'created_at', system: true, bucket } })),
  ...TIME_BUCKETS.map((bucket) => records(`close_date by ${bucket}, number group, filtered`, {
    time: { field: 'close_date', system: false, bucket }, group_by: { field: 'priority', valueKind: 'number' }, filter: WON,
  })),
  ['entries sum by stage', aggregateStatement('entries', 'lst_01JB0000000000000000000000', {
    ...BASE, scope: { list_id: 'lst_01JB0000000000000000000000' }, metric: 'sum', metric_field: 'amount',
    group_by: { field: 'stage', valueKind: 'text' }, time: { field: 'created_at', system: true, bucket: 'month' },
  })],
];
