import type { SortSpec } from '../../domain/filter-ast.ts';
import type { Connection } from './connection.ts';
import type { SqlFragment } from './filter-sql.ts';
import type { ItemSpace } from './items.ts';

/**
 * A page of items (records, entries) sorted by a data field, read in two ordered parts so the
 * value index can stream it instead of sorting the whole scope: first the items that have a value,
 * in value order (the value index is already in that order), then the items that lack one, by id.
 * So missing values come last in both directions. Ties are broken by item id in the sort's
 * direction. A multi-valued field sorts by its smallest element ascending, its largest descending;
 * a field known to hold one value (`sort.multi === false`) skips that per-item lookup.
 *
 * `where` is the compiled filter on the items table `r`; the caller counts the total. `walk`
 * forces the value index of the sort field to drive the first part (see FEW_MATCHES in
 * item-pages.ts); `range` (tests on `sv.v_text` or `sv.v_num`) narrows the walked values to those the filter
 * admits (filter-predicate.ts), and `valued`, when given, is the test of the items with a value
 * that remains once `range` has done its part (`where` still tests the items without one).
 */
export function pageByField<Row>(
  c: Connection, space: ItemSpace, scopePk: number, where: SqlFragment, sort: SortSpec,
  page: { offset: number; limit: number; walk: boolean; range?: SqlFragment[] | undefined; valued?: SqlFragment | undefined },
): Row[] {
  const { offset, limit } = page;
  const { table, values: valueTable, itemKey, scope, live, columns } = space;
  const column = sort.valueKind === 'text' ? 'v_text' : 'v_num';
  const values = page.walk ? `${valueTable} sv INDEXED BY ${space.valueIndexes[sort.valueKind === 'text' ? 'text' : 'num']}` : `${valueTable} sv`;
  const direction = sort.ascending ? 'ASC' : 'DESC';
  // The value an item sorts by: its only one, or among several its smallest (ascending) or largest.
  const extreme = sort.multi === false ? ''
    : `AND sv.${column} = (SELECT ${sort.ascending ? 'MIN' : 'MAX'}(m.${column}) FROM ${valueTable} m WHERE m.${itemKey} = sv.${itemKey} AND m.field = sv.field)`;
  const range = page.range ?? [];
  const hasValue = `SELECT 1 FROM ${valueTable} m WHERE m.${itemKey} = r.pk AND m.field = ? AND m.${column} IS NOT NULL`;

  const valuedTest = page.valued ?? where;
  const valued = c.all<Row>(
    `SELECT ${columns} FROM ${values} JOIN ${table} r ON r.pk = sv.${itemKey}
     WHERE sv.${scope} = ? AND sv.field = ? AND sv.${column} IS NOT NULL${range.map((test) => ` AND ${test.sql}`).join('')}
       AND ${live} AND ${valuedTest.sql}
       ${extreme}
     ORDER BY sv.${column} ${direction}, r.id ${direction}
     LIMIT +? OFFSET ?`,
    scopePk, sort.field, ...range.flatMap((test) => test.params), ...valuedTest.params, limit, offset,
  );
  if (valued.length === limit) return valued;

  // The page reaches past the items with a value: continue with those without one.
  const valuedTotal = valued.length > 0
    ? offset + valued.length
    : c.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM ${table} r
       WHERE r.${scope} = ? AND ${live} AND ${where.sql} AND EXISTS (${hasValue})`,
      scopePk, ...where.params, sort.field,
    )!.n;
  const missing = c.all<Row>(
    `SELECT ${columns} FROM ${table} r
     WHERE r.${scope} = ? AND ${live} AND ${where.sql} AND NOT EXISTS (${hasValue})
     ORDER BY r.id ${direction}
     LIMIT +? OFFSET ?`,
    scopePk, ...where.params, sort.field, limit - valued.length, Math.max(0, offset - valuedTotal),
  );
  return [...valued, ...missing];
}
