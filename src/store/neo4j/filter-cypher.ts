import { unreachable } from '../../domain/errors.ts';
import type { ComparisonNode, FilterNode, FilterOperator, SortSpec, SystemField } from '../../domain/filter-ast.ts';
import { asciiLower } from './encoding.ts';

/**
 * The filter AST as a Cypher condition on `r` (an item: a `:Record` or a `:ListEntry`), and a sort
 * as an ORDER BY: pure
 * functions, deterministic (parameters are numbered `c0_…`, `c1_…` in the order comparisons
 * appear), with every value passed as a parameter. Semantics mirror the SQLite adapter exactly:
 *
 * - A data field is tested through its FieldValue nodes: `EXISTS { (r)-[:HAS_VALUE]->(v) … }`.
 *   A single value is a set of one, so eq/in/contains on a multi-valued field ("has this
 *   element", "has any of") come out of the same test.
 * - ne, not_in and is_empty are the negations of eq, in and is_not_empty ("no element equals",
 *   "no element among", "no element"), hence true on a missing value, while every other
 *   comparison is false on it.
 * - contains/starts_with/ends_with compare ASCII-lower-cased text (`lt`) with an ASCII-lower-cased
 *   parameter: SQLite's LIKE, which ignores ASCII case only. On a multi-valued field contains is
 *   element equality.
 * - Booleans compare as the numbers 0 and 1, as they are stored.
 */

export interface CypherFragment {
  cypher: string;
  params: Record<string, unknown>;
}

/**
 * What filters and sorts range over: items bound to `r` with `HAS_VALUE` edges to FieldValue nodes
 * (records, list entries), and the property of `r` behind each system field. Ties in a sort are
 * always broken by the item's own `r.id`.
 */
export interface ItemSpace {
  readonly system: { readonly [F in SystemField]: string };
}

/** Records: `record_id` is the record's own id. */
export const RECORD_ITEMS: ItemSpace = { system: { record_id: 'r.id', created_at: 'r.created_at', updated_at: 'r.updated_at' } };

/** List entries: `record_id` is the record the entry holds; created_at and updated_at are the entry's. */
export const ENTRY_ITEMS: ItemSpace = { system: { record_id: 'r.record_id', created_at: 'r.created_at', updated_at: 'r.updated_at' } };

const NEGATED: Partial<Record<FilterOperator, FilterOperator>> = { ne: 'eq', not_in: 'in', is_empty: 'is_not_empty' };
const RANGE = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const LIKE = { contains: 'CONTAINS', starts_with: 'STARTS WITH', ends_with: 'ENDS WITH' } as const;

type Scalar = string | number | boolean;
const asStored = (value: Scalar): string | number => (typeof value === 'boolean' ? Number(value) : value);

/** Numbers parameters in order of appearance. */
class Params {
  readonly values: Record<string, unknown> = {};
  private next = 0;

  /** A fresh prefix for one comparison: `c0`, `c1`, ... */
  prefix(): string {
    return `c${this.next++}`;
  }

  add(name: string, value: unknown): string {
    this.values[name] = value;
    return `$${name}`;
  }
}

/** The positive test of one value held in `property`, or null for "any value" (is_not_empty). */
function positiveTest(node: ComparisonNode, op: FilterOperator, property: string, lowered: string, p: Params, prefix: string): string | null {
  switch (op) {
    case 'eq':
      return `${property} = ${p.add(`${prefix}_value`, asStored(node.value as Scalar))}`;
    case 'gt': case 'gte': case 'lt': case 'lte':
      return `${property} ${RANGE[op]} ${p.add(`${prefix}_value`, asStored(node.value as Scalar))}`;
    case 'in':
      return `${property} IN ${p.add(`${prefix}_values`, (node.value as Scalar[]).map(asStored))}`;
    case 'contains': case 'starts_with': case 'ends_with':
      if (op === 'contains' && node.multi) return `${property} = ${p.add(`${prefix}_value`, asStored(node.value as Scalar))}`;
      return `${lowered} ${LIKE[op]} ${p.add(`${prefix}_value`, asciiLower(String(node.value)))}`;
    case 'is_not_empty':
      return null;
    case 'ne': case 'not_in': case 'is_empty':
      throw new Error(`${op} is translated as a negation`);
    default:
      return unreachable(op);
  }
}

function comparison(node: ComparisonNode, p: Params, space: ItemSpace): string {
  const negated = NEGATED[node.op];
  const op = negated ?? node.op;
  const prefix = p.prefix();
  let cypher: string;
  if (node.system) {
    const property = space.system[node.field as SystemField];
    cypher = positiveTest(node, op, property, property, p, prefix) ?? 'true';
  } else {
    const field = p.add(`${prefix}_field`, node.field);
    const property = node.valueKind === 'text' ? 'v.t' : 'v.n';
    const test = positiveTest(node, op, property, 'v.lt', p, prefix);
    cypher = `EXISTS { MATCH (r)-[:HAS_VALUE]->(v:FieldValue) WHERE v.field = ${field}${test ? ` AND ${test}` : ''} }`;
  }
  return negated ? `NOT (${cypher})` : cypher;
}

function translate(node: FilterNode, p: Params, space: ItemSpace): string {
  switch (node.kind) {
    case 'cmp':
      return comparison(node, p, space);
    case 'and':
    case 'or':
      if (node.nodes.length === 0) return node.kind === 'and' ? 'true' : 'false';
      return node.nodes.map((child) => `(${translate(child, p, space)})`).join(node.kind === 'and' ? ' AND ' : ' OR ');
    default:
      return unreachable(node);
  }
}

/** A condition on `r` for the filter; `true` without one. An empty `and` is true, an empty `or` false. */
export function filterToCypher(node: FilterNode | undefined, space: ItemSpace = RECORD_ITEMS): CypherFragment {
  const p = new Params();
  return { cypher: node ? translate(node, p, space) : 'true', params: p.values };
}

/**
 * How to order items: by a system property, or by a field's smallest value ascending (largest
 * descending, for multi-valued fields), items without a value last in both directions, ties by
 * item id in the sort's direction. `match` (possibly empty) binds `sort_key` for `orderBy`.
 */
export function sortToCypher(sort: SortSpec, space: ItemSpace = RECORD_ITEMS): { match: string; orderBy: string; params: Record<string, unknown> } {
  const direction = sort.ascending ? 'ASC' : 'DESC';
  if (sort.system) {
    return { match: 'WITH r', orderBy: `${space.system[sort.field as SystemField]} ${direction}, r.id ${direction}`, params: {} };
  }
  const property = sort.valueKind === 'text' ? 's.t' : 's.n';
  return {
    match: `OPTIONAL MATCH (r)-[:HAS_VALUE]->(s:FieldValue {field: $sort_field})\nWITH r, ${sort.ascending ? 'min' : 'max'}(${property}) AS sort_key`,
    orderBy: `sort_key IS NULL, sort_key ${direction}, r.id ${direction}`,
    params: { sort_field: sort.field },
  };
}
