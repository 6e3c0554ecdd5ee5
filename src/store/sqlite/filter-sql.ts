import { unreachable } from '../../domain/errors.ts';
import type { ComparisonNode, FilterNode, SortSpec, SystemField } from '../../domain/filter-ast.ts';
import { RECORDS, type ItemSpace } from './items.ts';
import { NEGATED, positiveTest, type SqlFragment } from './value-tests.ts';

export type { SqlFragment } from './value-tests.ts';

/** `SELECT pk ...`: a set of items (records, entries), as the pks of live items of one scope. */
interface Rows extends SqlFragment {
  /** The set may list an item more than once (several matching elements of a multi-valued field). */
  repeats: boolean;
}

/**
 * A filter compiles to a set of item pks: `SELECT pk ...` over the value index, combined with
 * INTERSECT, UNION and EXCEPT. For records, value rows exist only for live records, so every set
 * holds live records of the one object type, and counting matches never reads the records table
 * (entries test liveness on the items table, see items.ts). A filter true on missing values (ne,
 * not_in, is_empty) is the complement of such a set (`complement`), so no set ever has to list
 * every item of the scope.
 */
export interface PkSet extends Rows {
  /** The filter matches the live records NOT in the set. */
  complement: boolean;
}

/** Whether the comparison is true on a missing value (ne, not_in, is_empty). */
const isNegated = (node: ComparisonNode): boolean => NEGATED[node.op] !== undefined;

const EMPTY: Rows = { sql: 'SELECT 0 WHERE 0', params: [], repeats: false };

/**
 * The value rows of the field that pass the comparison's positive test (for ne/not_in/is_empty,
 * the rows their negation excludes).
 */
function valueRows(node: ComparisonNode, space: ItemSpace, scopePk: number): Rows {
  const column = node.valueKind === 'text' ? 'v.v_text' : 'v.v_num';
  const test = positiveTest(column, NEGATED[node.op] ?? node.op, node);
  // Without a test (is_not_empty), `IS NOT NULL` still lets the partial value index of the kind serve it.
  return {
    sql: `SELECT v.${space.itemKey} FROM ${space.values} v WHERE v.${space.scope} = ? AND v.field = ? AND ${test ? test.sql : `${column} IS NOT NULL`}`,
    params: [scopePk, node.field, ...(test?.params ?? [])],
    repeats: true,
  };
}

/** System fields are columns of the item and never missing: a plain test, negated in place. */
function systemRows(node: ComparisonNode, space: ItemSpace, scopePk: number): Rows {
  const test = positiveTest(space.system[node.field as SystemField], NEGATED[node.op] ?? node.op, node);
  const condition = test ? (isNegated(node) ? `NOT (${test.sql})` : test.sql) : (isNegated(node) ? '0' : '1');
  return {
    sql: `SELECT r.pk FROM ${space.table} r WHERE r.${space.scope} = ? AND ${space.live} AND ${condition}`,
    params: [scopePk, ...(test?.params ?? [])],
    repeats: false,
  };
}

/** `A op B op C` (left to right), each operand a subquery so nesting keeps its meaning. */
function compound(operator: 'INTERSECT' | 'UNION' | 'EXCEPT', sets: Rows[]): Rows {
  if (sets.length === 0) return EMPTY;
  if (sets.length === 1) return sets[0]!;
  return {
    sql: sets.map((set) => `SELECT * FROM (${set.sql})`).join(` ${operator} `),
    params: sets.flatMap((set) => set.params),
    repeats: false,
  };
}

/**
 * Combines the children of an `and`/`or` by De Morgan, with P the plain sets and N the sets whose
 * complement a child matches: and = (∩P) \ N1 \ N2…, or ¬(∪N) without any P (an empty `and`
 * is ¬∅, every record); or = ¬((∩N) \ P1 \ P2…), or ∪P without any N (an empty `or` is ∅).
 */
function combine(kind: 'and' | 'or', children: PkSet[]): PkSet {
  const plainSets = children.filter((set) => !set.complement);
  const complements = children.filter((set) => set.complement);
  const [main, others] = kind === 'and' ? [plainSets, complements] : [complements, plainSets];
  if (main.length === 0) return { ...compound('UNION', others), complement: kind === 'and' };
  return { ...compound('EXCEPT', [compound('INTERSECT', main), ...others]), complement: kind === 'or' };
}

/** Translates a filter into the set of live items of the scope (by default: records of an object type) it matches. */
export function compileFilter(node: FilterNode, scopePk: number, space: ItemSpace = RECORDS): PkSet {
  switch (node.kind) {
    case 'cmp':
      if (node.system) return { ...systemRows(node, space, scopePk), complement: false };
      return { ...valueRows(node, space, scopePk), complement: isNegated(node) };
    case 'and':
    case 'or':
      return combine(node.kind, node.nodes.map((child) => compileFilter(child, scopePk, space)));
    default:
      return unreachable(node);
  }
}

/**
 * ORDER BY for a sort on a system field, ties broken by item id in the same direction, and the
 * index of the items table that is already in that order.
 */
export function systemSort(sort: SortSpec, space: ItemSpace = RECORDS): { orderBy: string; index: string } {
  const field = sort.field as SystemField;
  const direction = sort.ascending ? 'ASC' : 'DESC';
  return { orderBy: `${space.system[field]} ${direction}, r.id ${direction}`, index: space.systemIndexes[field] };
}
