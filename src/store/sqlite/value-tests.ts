import { unreachable } from '../../domain/errors.ts';
import type { ComparisonNode, FilterOperator } from '../../domain/filter-ast.ts';
import type { SqlParam } from './connection.ts';

/** A piece of SQL and the values it binds, in order. Values never enter the SQL text. */
export interface SqlFragment {
  sql: string;
  params: SqlParam[];
}

/**
 * Operators true on a missing value are negations of a positive test: `ne` is "no element equals",
 * `not_in` "no element is among", `is_empty` "no element at all". A missing value has no element,
 * so the negation makes them true on missing values, and every other comparison false.
 */
export const NEGATED: Partial<Record<FilterOperator, FilterOperator>> = { ne: 'eq', not_in: 'in', is_empty: 'is_not_empty' };

const RANGE_SQL = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

const bind = (value: unknown): SqlParam => (typeof value === 'boolean' ? Number(value) : (value as SqlParam));

/** Escapes LIKE wildcards in a user value; patterns use `ESCAPE '\'`. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function like(column: string, pattern: string): SqlFragment {
  // SQLite's LIKE ignores ASCII case (and only ASCII case), as the filter language asks. The
  // IS NOT NULL changes no answer (NULL is never LIKE anything, and like() is never negated): it
  // is what lets the planner use the partial index `record_values_by_text` (WHERE v_text IS NOT
  // NULL), which it cannot infer from LIKE. Without it a contains/starts_with/ends_with filter
  // read every value row in the file (49.5 against 5.0 ms for a name at 100k records).
  return { sql: `(${column} IS NOT NULL AND ${column} LIKE +? ESCAPE '\\')`, params: [pattern] };
}

/**
 * Patterns longer than this leave LIKE for tests whose work does not grow with the pattern's
 * length times the value's. LIKE's `%p%` and `%p` try the pattern at every position of the value,
 * one character at a time: a 5,000-character pattern against values of 10,000 characters took
 * 26 ms a row (50 comparisons over 20 such records held the server for 48 s). instr() on the
 * lower-cased value compares with memcmp, 0.28 ms a row there, and the suffix is one comparison
 * of the value's last characters; LIKE stays for short patterns, where it is the faster (13 against
 * 17 ms for `%manager%` over 200,000 short values) and its cost is bounded by the value's length.
 */
const LIKE_PATTERN_MAX = 32;

/** ASCII lower case only, as SQLite's lower() and LIKE fold case. */
const asciiLower = (text: string): string => text.replace(/[A-Z]+/g, (run) => run.toLowerCase());

function containing(column: string, text: string): SqlFragment {
  if (text.length <= LIKE_PATTERN_MAX) return like(column, `%${escapeLike(text)}%`);
  return { sql: `(${column} IS NOT NULL AND instr(lower(${column}), ?) > 0)`, params: [asciiLower(text)] };
}

function endingWith(column: string, text: string): SqlFragment {
  if (text.length <= LIKE_PATTERN_MAX) return like(column, `%${escapeLike(text)}`);
  // substr() counts characters (code points) from the end, as [...text] does.
  return { sql: `(${column} IS NOT NULL AND lower(substr(${column}, ?)) = ?)`, params: [-[...text].length, asciiLower(text)] };
}

/** The positive test on one value of `column`, or null for "any value" (is_not_empty). */
export function positiveTest(column: string, op: FilterOperator, node: ComparisonNode): SqlFragment | null {
  const text = String(node.value);
  switch (op) {
    case 'eq':
      return { sql: `${column} = ?`, params: [bind(node.value)] };
    case 'gt': case 'gte': case 'lt': case 'lte':
      return { sql: `${column} ${RANGE_SQL[op]} ?`, params: [bind(node.value)] };
    case 'in':
      return { sql: `${column} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify((node.value as unknown[]).map(bind))] };
    case 'contains':
      // On a multi-valued field `contains` means "has this element".
      return node.multi ? { sql: `${column} = ?`, params: [bind(node.value)] } : containing(column, text);
    case 'starts_with':
      // A leading literal: LIKE compares the pattern once, from the value's start.
      return like(column, `${escapeLike(text)}%`);
    case 'ends_with':
      return endingWith(column, text);
    case 'is_not_empty':
      return null;
    case 'ne': case 'not_in': case 'is_empty':
      throw new Error(`${op} is compiled as a negation`);
    default:
      return unreachable(op);
  }
}
