import type { AggregateQuery, AggregateRow, TimeBucket } from '../../domain/reports/types.ts';
import type { SystemField } from '../../domain/filter-ast.ts';
import type { Connection, SqlParam } from './connection.ts';
import { aggregateCache } from './count-cache.ts';
import { compileFilter, type SqlFragment } from './filter-sql.ts';
import { inSet } from './item-pages.ts';
import { ENTRIES, RECORDS, type ItemSpace } from './items.ts';
import { requireList } from './lists.ts';
import { requireObjectType } from './object-types.ts';

/**
 * A bucket's first day (`YYYY-MM-DD`) from an ISO date or UTC timestamp held in `x`: string
 * arithmetic, since stored timestamps are normalised to UTC. Weeks start on Monday (ISO);
 * strftime('%w') counts from Sunday = 0.
 */
export function bucketSql(x: string, bucket: TimeBucket): string {
  const day = `substr(${x}, 1, 10)`;
  switch (bucket) {
    case 'day':
      return day;
    case 'week':
      return `date(${day}, '-' || ((CAST(strftime('%w', ${day}) AS INTEGER) + 6) % 7) || ' days')`;
    case 'month':
      return `substr(${x}, 1, 7) || '-01'`;
    case 'quarter':
      return `substr(${x}, 1, 5) || printf('%02d', ((CAST(substr(${x}, 6, 2) AS INTEGER) - 1) / 3) * 3 + 1) || '-01'`;
    case 'year':
      return `substr(${x}, 1, 4) || '-01-01'`;
  }
}

/** The metric over the metric join `m` (one row or none per item: metric fields are single-valued). */
function metricSql(q: AggregateQuery): string {
  if (q.metric_field === undefined) return 'COUNT(*)';
  switch (q.metric) {
    case 'count':
      return 'COUNT(m.field)';
    case 'sum':
      return 'COALESCE(SUM(m.v_num), 0)';
    case 'avg':
      return 'AVG(m.v_num)';
    case 'min':
      return 'MIN(m.v_num)';
    case 'max':
      return 'MAX(m.v_num)';
  }
}

/**
 * One GROUP BY over the items of a scope: optional joins to the value index for the group, the
 * metric and the time field, each single-valued so an item contributes one row. For entries the
 * metric is read from the entry's record. Table and column names come from code; field slugs and
 * values are bound.
 */
function aggregateSql(space: ItemSpace, scopePk: number, q: AggregateQuery): SqlFragment {
  const joins: string[] = [];
  const params: SqlParam[] = [];
  let group = 'NULL';
  let bucket = 'NULL';
  if (q.group_by) {
    joins.push(`LEFT JOIN ${space.values} g ON g.${space.itemKey} = r.pk AND g.field = ?`);
    params.push(q.group_by.field);
    group = q.group_by.valueKind === 'text' ? 'g.v_text' : 'g.v_num';
  }
  if (q.metric_field !== undefined) {
    const owner = space === RECORDS ? 'r.pk' : '(SELECT lr.pk FROM records lr WHERE lr.id = r.record_id)';
    joins.push(`LEFT JOIN record_values m ON m.record_pk = ${owner} AND m.field = ?`);
    params.push(q.metric_field);
  }
  if (q.time) {
    let column = space.system[q.time.field as SystemField];
    if (!q.time.system) {
      joins.push(`JOIN ${space.values} tv ON tv.${space.itemKey} = r.pk AND tv.field = ? AND tv.v_text IS NOT NULL`);
      params.push(q.time.field);
      column = 'tv.v_text';
    }
    bucket = bucketSql(column, q.time.bucket);
  }
  const where = inSet(q.filter ? compileFilter(q.filter, scopePk, space) : undefined);
  // Without a filter every item of the scope is read: walking the (scope, created_at|updated_at)
  // index reads the bucketed timestamp from the index instead of each item's row (a third faster
  // at 100k records). A filter's set of pks drives the read instead.
  const walk = q.filter ? '' : ` INDEXED BY ${space.systemIndexes[q.time?.system && q.time.field === 'updated_at' ? 'updated_at' : 'created_at']}`;
  return {
    sql: `SELECT ${group} AS grp, ${bucket} AS bucket, COUNT(*) AS n, ${metricSql(q)} AS value
          FROM ${space.table} r${walk} ${joins.join(' ')}
          WHERE r.${space.scope} = ? AND ${space.live} AND ${where.sql}
          GROUP BY grp, bucket LIMIT ?`,
    params: [...params, scopePk, ...where.params, q.max_rows],
  };
}

/**
 * Aggregation in SQL: the database groups and measures, the process only receives the groups.
 * Record aggregations are cached by the object type's write version (count-cache.ts), so a report
 * or pipeline read again before any write of that type answers without reading its records, and
 * is computed again after one. Entries are not cached: their liveness follows other tables.
 */
export function aggregateMethods(c: Connection) {
  return {
    aggregate(workspaceId: string, query: AggregateQuery): AggregateRow[] {
      const [space, scopePk] = 'list_id' in query.scope
        ? [ENTRIES, requireList(c, workspaceId, query.scope.list_id).pk]
        : [RECORDS, requireObjectType(c, workspaceId, query.scope.object_type_slug).pk];
      const { sql, params } = aggregateSql(space, scopePk, query);
      const cacheable = space.valuesOnlyLive && !c.db.inTransaction;
      const run = (): AggregateRow[] => c.all<{ grp: string | number | null; bucket: string | null; n: number; value: number | null }>(sql, ...params)
        .map((row) => ({ group: row.grp, bucket: row.bucket, value: row.value, count: row.n }));
      const rows = c.tx(() => aggregateCache(c).get(scopePk, `${sql}\u0000${JSON.stringify(params)}`, cacheable, run));
      return rows.map((row) => ({ ...row }));
    },
  };
}
