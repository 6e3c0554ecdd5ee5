import { unreachable } from '../../domain/errors.ts';
import type { ComparisonNode, FilterNode, SortSpec, SystemField } from '../../domain/filter-ast.ts';
import type { ItemSpace } from './items.ts';
import { NEGATED, positiveTest, type SqlFragment } from './value-tests.ts';

/**
 * A filter as a test of one item `r`, for pages read by walking a sort index: each visited item
 * is tested with a few lookups in the value table by its key (item, field, seq), so a page costs
 * in proportion to the items walked, where the set form (filter-sql.ts) first materialises every
 * match. The two forms match the same items; the set form stays the one for counting.
 *
 * `item` is the SQL the value tests name the item's key by: `r.pk` unless the walk has the key
 * from the value row it drives by (`sv.record_pk`). Tests on values alone then no longer refer to
 * `r`, so SQLite runs them before it reads the item's row, and an item they reject costs no read
 * of its row at all (about a quarter of the bench's walk).
 */
export function compilePredicate(node: FilterNode, space: ItemSpace, item = 'r.pk'): SqlFragment {
  switch (node.kind) {
    case 'cmp':
      return node.system ? systemTest(node, space) : valueTest(node, space, item);
    case 'and':
    case 'or': {
      if (node.nodes.length === 0) return { sql: node.kind === 'and' ? '1' : '0', params: [] };
      const parts = node.nodes.map((child) => compilePredicate(child, space, item));
      const joined = parts.map((part) => `(${part.sql})`).join(node.kind === 'and' ? ' AND ' : ' OR ');
      // Parenthesised whole, so callers can AND it with their own conditions.
      return { sql: `(${joined})`, params: parts.flatMap((part) => part.params) };
    }
    default:
      return unreachable(node);
  }
}

function systemTest(node: ComparisonNode, space: ItemSpace): SqlFragment {
  const negated = NEGATED[node.op] !== undefined;
  const test = positiveTest(space.system[node.field as SystemField], NEGATED[node.op] ?? node.op, node);
  if (!test) return { sql: negated ? '0' : '1', params: [] };
  return negated ? { sql: `NOT (${test.sql})`, params: test.params } : test;
}

/** Some value row of the field passes the positive test; negated operators: none does. */
function valueTest(node: ComparisonNode, space: ItemSpace, item: string): SqlFragment {
  const negated = NEGATED[node.op] !== undefined;
  const test = positiveTest(node.valueKind === 'text' ? 'p.v_text' : 'p.v_num', NEGATED[node.op] ?? node.op, node);
  const rows = `SELECT 1 FROM ${space.values} p WHERE p.${space.itemKey} = ${item} AND p.field = ?${test ? ` AND ${test.sql}` : ''}`;
  return { sql: `${negated ? 'NOT ' : ''}EXISTS (${rows})`, params: [node.field, ...(test?.params ?? [])] };
}

/** What sortRange makes of a filter: tests on the walked value, and what is left to test per item. */
export interface SortRange {
  range: SqlFragment[];
  /** The filter without the comparisons `range` fully replaces (undefined: nothing left to test). */
  rest: FilterNode | undefined;
}

/**
 * A range on the sort field's own value that every match satisfies, as a test on the walked
 * value column (`column`): a top-level (or and-ed) comparison of the single-valued sort field.
 * Walking only that range skips the items the filter would reject anyway, e.g. all dates before
 * the filter's lower bound when sorting by date ascending. When the sort is known to read an
 * item's only value of the field (`multi: false`), a walked value in the range is the test
 * itself, so those comparisons leave the per-item filter (`rest`); otherwise they stay.
 */
export function sortRange(filter: FilterNode | undefined, sort: SortSpec, column: string): SortRange {
  if (!filter || sort.system) return { range: [], rest: filter };
  const comparisons = filter.kind === 'and' ? filter.nodes : [filter];
  const range: SqlFragment[] = [];
  const left: FilterNode[] = [];
  for (const node of comparisons) {
    const test = node.kind === 'cmp' && !node.system && !node.multi && node.field === sort.field
      && ['eq', 'gt', 'gte', 'lt', 'lte', 'in', 'starts_with'].includes(node.op) ? positiveTest(column, node.op, node) : null;
    if (test) range.push(test);
    if (!test || sort.multi !== false) left.push(node);
  }
  if (left.length === comparisons.length) return { range, rest: filter };
  return { range, rest: left.length === 0 ? undefined : { kind: 'and', nodes: left } };
}
