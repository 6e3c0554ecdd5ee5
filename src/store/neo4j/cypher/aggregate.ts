import type { AggregateQuery, TimeBucket } from '../../../domain/reports/types.ts';
import type { SystemField } from '../../../domain/filter-ast.ts';
import { ENTRY_ITEMS, filterToCypher, RECORD_ITEMS } from '../filter-cypher.ts';
import type { BuiltStatement } from '../statement.ts';

/**
 * The aggregation of reports and pipelines, built at run time (the filter is part of it): the live
 * items of a scope pass the filter, optional value matches give the group, the metric and the time
 * field (each single-valued), and Cypher's implicit grouping measures. Field slugs and values are
 * parameters; the catalog lints representative outputs.
 */

/** A bucket's first day (`YYYY-MM-DD`) from an ISO date or UTC timestamp; Neo4j's weeks start on Monday. */
export function bucketCypher(x: string, bucket: TimeBucket): string {
  const day = `substring(${x}, 0, 10)`;
  return bucket === 'day' ? day : `toString(date.truncate('${bucket}', date(${day})))`;
}

function metricCypher(q: AggregateQuery): string {
  if (q.metric_field === undefined) return 'count(r)';
  switch (q.metric) {
    case 'count':
      return 'count(m)';
    case 'sum':
      return 'sum(m.n)';
    default:
      return `${q.metric}(m.n)`;
  }
}

/** The scope's match: records of an object type (by id), or entries of a list whose record is live. */
const SCOPES = {
  records: { space: RECORD_ITEMS, match: 'MATCH (r:Record {object_type_id: $scope_id})\nWHERE r.deleted_at IS NULL' },
  entries: {
    space: ENTRY_ITEMS,
    match: 'MATCH (r:ListEntry {list_id: $scope_id})\nWHERE EXISTS { MATCH (r)-[:ENTRY_OF]->(held:Record) WHERE held.deleted_at IS NULL }',
  },
} as const;

/** `scope_id` is the object type's id for records, the list's id for entries. */
export function aggregateStatement(kind: keyof typeof SCOPES, scopeId: string, q: AggregateQuery): BuiltStatement {
  const { space, match } = SCOPES[kind];
  const where = filterToCypher(q.filter, space);
  const params: Record<string, unknown> = { scope_id: scopeId, max_rows: q.max_rows, ...where.params };
  const lines = [`${match} AND (${where.cypher})`];
  let bucket = 'null';
  if (q.time) {
    let column = space.system[q.time.field as SystemField];
    if (!q.time.system) {
      lines.push('MATCH (r)-[:HAS_VALUE]->(tv:FieldValue {field: $time_field})\nWHERE tv.t IS NOT NULL');
      params.time_field = q.time.field;
      column = 'tv.t';
    }
    bucket = bucketCypher(column, q.time.bucket);
  }
  let group = 'null';
  if (q.group_by) {
    lines.push('OPTIONAL MATCH (r)-[:HAS_VALUE]->(g:FieldValue {field: $group_field})');
    params.group_field = q.group_by.field;
    group = q.group_by.valueKind === 'text' ? 'g.t' : 'g.n';
  }
  const carried = ['r'];
  if (q.metric_field !== undefined) {
    const owner = kind === 'records' ? '(r)' : '(r)-[:ENTRY_OF]->(:Record)';
    lines.push(`OPTIONAL MATCH ${owner}-[:HAS_VALUE]->(m:FieldValue {field: $metric_field})`);
    params.metric_field = q.metric_field;
    carried.push('m');
  }
  lines.push(
    `WITH ${carried.join(', ')}, ${group} AS grp, ${bucket} AS bucket`,
    `RETURN grp, bucket, count(r) AS n, ${metricCypher(q)} AS value`,
    'LIMIT toInteger($max_rows)',
  );
  return { cypher: lines.join('\n'), params };
}
