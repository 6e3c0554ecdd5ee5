import type { FilterNode, SortSpec } from '../../domain/filter-ast.ts';
import type { Connection } from './connection.ts';
import { pageByField } from './field-sort.ts';
import { compileFilter, systemSort, type PkSet, type SqlFragment } from './filter-sql.ts';
import type { ItemSpace } from './items.ts';

/** `SELECT COUNT(*) {from}`. */
export function count(c: Connection, from: SqlFragment): number {
  return c.get<{ total: number }>(`SELECT COUNT(*) AS total ${from.sql}`, ...from.params)!.total;
}

/**
 * Up to this many matches, a page is read by collecting the matches and sorting them; above it,
 * by walking the index of the sort order and testing each item, which stops after
 * `offset + limit` matches. SQLite's planner cannot tell the cases apart (how many items share
 * a value differs from field to field), so the exact total, needed anyway, decides.
 */
const FEW_MATCHES = 2000;

/**
 * How many live records of the object type a compiled filter matches, from the value index alone
 * (value rows exist only for live records, see items.ts `valuesOnlyLive`).
 */
function countFromValues(c: Connection, space: ItemSpace, scopePk: number, matches: PkSet): number {
  const inSet = count(c, { sql: `FROM (${matches.repeats ? `SELECT DISTINCT * FROM (${matches.sql})` : matches.sql})`, params: matches.params });
  if (!matches.complement) return inSet;
  return count(c, { sql: `FROM ${space.table} r WHERE r.${space.scope} = ? AND ${space.live}`, params: [scopePk] }) - inSet;
}

/** One page of `SELECT items {from} ORDER BY ...`. */
export function pageOf<Row>(c: Connection, columns: string, from: SqlFragment, orderBy: string, offset: number, limit: number): Row[] {
  return c.all<Row>(`SELECT ${columns} ${from.sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, ...from.params, limit, offset);
}

/** SQL on `r` that holds for the items in a compiled filter's set (every item without a filter). */
export function inSet(matches: PkSet | undefined): SqlFragment {
  return matches ? { sql: `r.pk ${matches.complement ? 'NOT IN' : 'IN'} (${matches.sql})`, params: matches.params } : { sql: '1', params: [] };
}

export interface ItemQuery {
  filter?: FilterNode | undefined;
  sort: SortSpec;
  offset: number;
  limit: number;
}

/**
 * One page of the live items of a scope (records of an object type, entries of a list) matching
 * the filter, in the sort's order, and the total, read in one transaction so both see the same
 * snapshot.
 */
export function pageItems<Row>(c: Connection, space: ItemSpace, scopePk: number, query: ItemQuery): { rows: Row[]; total: number } {
  const matches = query.filter ? compileFilter(query.filter, scopePk, space) : undefined;
  const where = inSet(matches);
  const from = (table: string): SqlFragment => ({
    sql: `FROM ${table} WHERE r.${space.scope} = ? AND ${space.live} AND ${where.sql}`,
    params: [scopePk, ...where.params],
  });
  return c.tx(() => {
    const total = matches && space.valuesOnlyLive ? countFromValues(c, space, scopePk, matches) : count(c, from(`${space.table} r`));
    const walk = total > FEW_MATCHES;
    const page = { offset: query.offset, limit: query.limit, walk };
    if (!query.sort.system) return { rows: pageByField<Row>(c, space, scopePk, where, query.sort, page), total };
    const sort = systemSort(query.sort, space);
    const table = walk ? `${space.table} r INDEXED BY ${sort.index}` : `${space.table} r`;
    return { rows: pageOf<Row>(c, space.columns, from(table), sort.orderBy, query.offset, query.limit), total };
  });
}
