/**
 * The one filter AST every store adapter consumes. The parser in `filters.ts` turns the public
 * filter language (`{field: value}`, `{field: {op: value}}`, `$and`, `$or`) into this form after
 * checking fields, operators and values against the object type, so adapters never validate.
 */

export const FILTER_OPERATORS = [
  'eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'contains', 'starts_with', 'ends_with',
  'is_empty', 'is_not_empty',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/**
 * How an adapter compares a value: `text` (strings: ids, ISO dates and timestamps compare
 * lexicographically, which orders them correctly), `number`, or `boolean`.
 */
export type ValueKind = 'text' | 'number' | 'boolean';

/** A field that is not in `data` but on the record itself. */
export const SYSTEM_FIELDS = ['record_id', 'created_at', 'updated_at'] as const;
export type SystemField = (typeof SYSTEM_FIELDS)[number];

export interface ComparisonNode {
  kind: 'cmp';
  /** A data field slug, or a system field when `system` is true. */
  field: string;
  system: boolean;
  op: FilterOperator;
  /**
   * Already normalised for the field's type: a scalar for eq/ne/gt/gte/lt/lte/contains/
   * starts_with/ends_with, a non-empty array for in/not_in, null for is_empty/is_not_empty.
   */
  value: string | number | boolean | null | Array<string | number | boolean>;
  valueKind: ValueKind;
  /**
   * True when the field holds an array (multi_select, many record_reference). Then eq/contains
   * mean "has this element", in means "has any of", not_in "has none of", ne "lacks this element",
   * and is_empty means "no elements".
   */
  multi: boolean;
}

export interface AndNode {
  kind: 'and';
  nodes: FilterNode[];
}

export interface OrNode {
  kind: 'or';
  nodes: FilterNode[];
}

export type FilterNode = ComparisonNode | AndNode | OrNode;

/**
 * Text comparisons: eq/ne/in/not_in are exact (emails and urls are normalised to lower case when
 * stored, so they match case-insensitively); contains/starts_with/ends_with ignore ASCII case.
 * A comparison on a missing value is false except for is_empty and ne/not_in, which are true.
 */
export interface SortSpec {
  field: string;
  system: boolean;
  valueKind: ValueKind;
  ascending: boolean;
  /**
   * False when the field holds at most one value per item (records.list only sorts by such
   * fields), which spares the store from asking each item for its smallest or largest value.
   * Absent: the field may hold several, and sorts by the smallest ascending, the largest descending.
   */
  multi?: boolean;
}
