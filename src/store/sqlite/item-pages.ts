import type { FilterNode, SortSpec } from '../../domain/filter-ast.ts';
import type { Connection } from './connection.ts';
import { pageByField } from './field-sort.ts';
import { countCache } from './count-cache.ts';
import { compilePredicate, sortRange } from './filter-predicate.ts';
import { compileFilter, systemSort, type PkSet, type SqlFragment } from './filter-sql.ts';
import type { ItemSpace } from './items.ts';

/** `SELECT COUNT(*) {from}`. */
export function count(c: Connection, from: SqlFragment): number {
  return c.get<{ total: number }>(`SELECT COUNT(*) AS total ${from.sql}`, ...from.params)!.total;
}

/**
 * Up to this many matches, a page may be read by collecting the matches and sorting them; above
 * it, always by walking the index of the sort order and testing each item, which stops after
 * `offset + limit` matches. SQLite's planner cannot tell the cases apart (how many items share
 * a value differs from field to field), so the exact total, needed anyway, decides.
 */
const FEW_MATCHES = 2000;

/**
 * What sorting a match costs over what walking past an item costs. Measured on the bench's 10k and
 * 100k datasets with both forms forced, over five filter and sort shapes: a walked item 0.5–0.6 µs
 * (one index step, the filter's lookups), a sorted match 1.2–2.8 µs (the set, the row, the sort).
 */
const SORTED_MATCH_COST = 3;

/**
 * Whether walking beats sorting. Below FEW_MATCHES, records (whose unfiltered count is cached
 * too) are still walked when the walk is expected to cost less than sorting the matches: with
 * matches spread over the scope, reaching `offset + limit` of them visits about
 * `(offset + limit) × scope / total` items, each SORTED_MATCH_COST times cheaper than a match sorted.
 */
function shouldWalk(total: number, scopeTotal: number | undefined, reach: number): boolean {
  if (total > FEW_MATCHES) return true;
  return scopeTotal !== undefined && total > 0 && reach * scopeTotal < SORTED_MATCH_COST * total * total;
}

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
  return c.all<Row>(`SELECT ${columns} ${from.sql} ORDER BY ${orderBy} LIMIT +? OFFSET ?`, ...from.params, limit, offset);
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
 * snapshot. Record totals come from the count cache (count-cache.ts). A page with few matches is
 * read from the filter's set of matches; a page of many walks the sort order and tests each item
 * (filter-predicate.ts), so it costs about `offset + limit` items, not the size of the match set.
 * `fewMatches`, when given, replaces that choice by a plain threshold (tests use it to force either form).
 */
export function pageItems<Row>(
  c: Connection, space: ItemSpace, scopePk: number, query: ItemQuery, fewMatches?: number,
): { rows: Row[]; total: number } {
  const matches = query.filter ? compileFilter(query.filter, scopePk, space) : undefined;
  const where = inSet(matches);
  const from = (table: string, condition: SqlFragment): SqlFragment => ({
    sql: `FROM ${table} WHERE r.${space.scope} = ? AND ${space.live} AND ${condition.sql}`,
    params: [scopePk, ...condition.params],
  });
  const cacheable = c.cacheable;
  return c.read(() => {
    const countAll = (): number => (matches && space.valuesOnlyLive ? countFromValues(c, space, scopePk, matches) : count(c, from(`${space.table} r`, where)));
    const key = matches ? `${matches.complement}\u0000${matches.sql}\u0000${JSON.stringify(matches.params)}` : '';
    const total = countCache(c).total(space, scopePk, key, cacheable, countAll);
    const scopeTotal = cacheable && matches ? countCache(c).total(space, scopePk, '', true, () => count(c, from(`${space.table} r`, { sql: '1', params: [] }))) : undefined;
    const walk = fewMatches !== undefined ? total > fewMatches : shouldWalk(total, scopeTotal, query.offset + query.limit);
    const test = walk && query.filter ? compilePredicate(query.filter, space) : where;
    if (!query.sort.system) {
      if (!walk) return { rows: pageByField<Row>(c, space, scopePk, test, query.sort, { offset: query.offset, limit: query.limit, walk }), total };
      const { range, rest } = sortRange(query.filter, query.sort, `sv.${query.sort.valueKind === 'text' ? 'v_text' : 'v_num'}`);
      // Tested on the walked value row's key, so items the value tests reject are never read.
      const valued = rest ? compilePredicate(rest, space, `sv.${space.itemKey}`) : { sql: '1', params: [] };
      return { rows: pageByField<Row>(c, space, scopePk, test, query.sort, { offset: query.offset, limit: query.limit, walk, range, valued }), total };
    }
    const sort = systemSort(query.sort, space);
    const table = walk ? `${space.table} r INDEXED BY ${sort.index}` : `${space.table} r`;
    return { rows: pageOf<Row>(c, space.columns, from(table, test), sort.orderBy, query.offset, query.limit), total };
  });
}
