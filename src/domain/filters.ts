import { validationError } from './errors.ts';
import {
  FILTER_OPERATORS, SYSTEM_FIELDS, type ComparisonNode, type FilterNode, type FilterOperator, type SortSpec, type SystemField,
} from './filter-ast.ts';
import type { ObjectType } from './types.ts';
import { dedupe, isPlainObject, suggestError, typeError } from './fields/checks.ts';
import { operatorsFor, PARTIAL_TEXT_OPS, SYSTEM_FIELD_SHAPES, valueKindOf } from './fields/operators.ts';
import { liveFields, notALiveField } from './fields/record-data.ts';
import { boundedText, isDateText, isMultiValued, urlSpellings, validateFilterScalar, type FieldShape } from './fields/values.ts';

/**
 * The public filter language (records.list `filters`, report and view filters) parsed into the
 * AST of filter-ast.ts, checked against the object type:
 *
 * - `{field: value}` is eq, `{field: [a, b]}` is in, `{field: null}` is is_empty;
 *   `{field: {op: value, ...}}` applies each operator (ANDed). Operators may carry a leading `$`.
 * - Several keys in one object are ANDed; `$and` / `$or` take a non-empty array of filter objects.
 * - Field names are the live data fields and the system fields `record_id` (alias `id`),
 *   `created_at`, `updated_at`.
 * - Values go through the field's own validator (options, lower-cased emails, normalised
 *   timestamps, real dates); an option field also takes its retired options, which records may
 *   still hold. On a url field eq, ne, in and not_in compare urls as uniqueness does, whatever
 *   their scheme (none, http, https) and trailing slash: eq is an in of those spellings. Timestamp
 *   fields (created_at and updated_at too) also take a date `YYYY-MM-DD`, meaning that whole day
 *   in UTC: eq is within it, ne outside it (or no value), gt after it, gte from its start, lt
 *   before it, lte up to its end, and in / not_in take such days beside exact timestamps
 *   (each day one comparison of the 50, the exact ones together one).
 *   contains/starts_with/ends_with take a non-empty text of at most 10,000 characters (on a multi-valued field, contains
 *   takes one element). in/not_in take 1 to 100 values. is_empty/is_not_empty take true (or null)
 *   or false, which negates them (`{is_empty: false}` is is_not_empty); any other value is refused.
 * - At most 5 levels of `$and`/`$or` and 50 comparisons (`too_complex`).
 */

export const MAX_FILTER_DEPTH = 5;
export const MAX_FILTER_COMPARISONS = 50;
export const MAX_IN_VALUES = 100;

const GROUP_KEYS = ['$and', '$or'] as const;

interface Target {
  field: string;
  system: boolean;
  shape: FieldShape;
}

/** Finds a filterable or sortable field by name; `allowed` is what the error offers instead. */
function resolveField(objectType: ObjectType, name: string, param: string, subject: string, allowed: readonly string[]): Target {
  const canonical = name === 'id' ? 'record_id' : name;
  if ((SYSTEM_FIELDS as readonly string[]).includes(canonical)) {
    return { field: canonical, system: true, shape: SYSTEM_FIELD_SHAPES[canonical as SystemField] };
  }
  const field = objectType.fields.find((f) => f.slug === name);
  if (!field || field.archived) throw notALiveField(objectType, name, param, subject, allowed);
  return { field: field.slug, system: false, shape: field };
}

/** A bare date `YYYY-MM-DD` naming a real day, which a timestamp field reads as that whole UTC day. */
function isDay(value: unknown): value is string {
  return typeof value === 'string' && isDateText(value);
}

function tooComplex(param: string, what: string): never {
  throw validationError(param, `${param} is too complex: ${what}`, { rule: 'too_complex', max_depth: MAX_FILTER_DEPTH, max_comparisons: MAX_FILTER_COMPARISONS });
}

function combine(kind: 'and' | 'or', nodes: FilterNode[]): FilterNode {
  const flat = nodes.flatMap((n) => (n.kind === kind ? n.nodes : [n]));
  return flat.length === 1 ? flat[0]! : { kind, nodes: flat };
}

class FilterParser {
  private comparisons = 0;
  private readonly names: string[];

  constructor(private readonly objectType: ObjectType, private readonly root: string) {
    this.names = [...liveFields(objectType).map((f) => f.slug), ...SYSTEM_FIELDS, ...GROUP_KEYS];
  }

  object(obj: Record<string, unknown>, param: string, depth: number): FilterNode {
    const entries = Object.entries(obj);
    if (entries.length === 0) throw validationError(param, `${param} must name at least one field`, { rule: 'min_items' });
    return combine('and', entries.flatMap(([key, value]) => {
      const p = `${param}.${key}`;
      return key === '$and' || key === '$or' ? [this.group(key === '$and' ? 'and' : 'or', value, p, depth + 1)] : this.field(key, value, p);
    }));
  }

  private group(kind: 'and' | 'or', value: unknown, param: string, depth: number): FilterNode {
    if (depth > MAX_FILTER_DEPTH) tooComplex(param, `$and/$or nest at most ${MAX_FILTER_DEPTH} levels deep`);
    if (!Array.isArray(value)) throw typeError(param, 'an array of filter objects', value);
    if (value.length === 0) throw validationError(param, `${param} must hold at least one filter object`, { rule: 'min_items' });
    return combine(kind, value.map((item, i) => {
      const p = `${param}[${i}]`;
      if (!isPlainObject(item)) throw typeError(p, 'a filter object', item);
      return this.object(item, p, depth);
    }));
  }

  private field(name: string, value: unknown, param: string): FilterNode[] {
    const target = resolveField(this.objectType, name, param, param, this.names);
    if (value === null) return [this.cmp(target, 'is_empty', null)];
    if (Array.isArray(value)) return [this.days(target, 'in', value, param) ?? this.cmp(target, 'in', this.list(target, value, param))];
    if (!isPlainObject(value)) return [this.day(target, 'eq', value) ?? this.equality(target, 'eq', this.scalar(target, value, param))];
    const ops = Object.entries(value);
    if (ops.length === 0) throw validationError(param, `${param} must name at least one operator`, { rule: 'min_items', allowed: operatorsFor(target.shape) });
    return ops.map(([op, operand]) => this.operator(target, op, operand, `${param}.${op}`));
  }

  private operator(target: Target, given: string, value: unknown, param: string): FilterNode {
    const name = given.startsWith('$') ? given.slice(1) : given;
    const allowed = operatorsFor(target.shape);
    if (!(FILTER_OPERATORS as readonly string[]).includes(name)) {
      throw suggestError(param, `${param}: ${JSON.stringify(given)} is not a filter operator`, 'unknown_operator', name, allowed);
    }
    const op = name as FilterOperator;
    if (!allowed.includes(op)) {
      throw validationError(param, `${param}: ${op} does not apply to ${target.field}, a ${target.shape.type} field; use one of ${allowed.join(', ')}`, {
        rule: 'unsupported_operator', allowed,
      });
    }
    switch (op) {
      case 'is_empty':
      case 'is_not_empty':
        // A flag: "false", 0 or "no" read as true would answer the opposite of what was meant.
        if (value !== true && value !== false && value !== null) throw typeError(param, 'true or false', value);
        return this.cmp(target, value === false ? (op === 'is_empty' ? 'is_not_empty' : 'is_empty') : op, null);
      case 'in':
      case 'not_in':
        return this.days(target, op, value, param) ?? this.cmp(target, op, this.list(target, value, param));
      case 'eq':
      case 'ne':
        return this.day(target, op, value) ?? this.equality(target, op, this.scalar(target, value, param));
      case 'contains':
      case 'starts_with':
      case 'ends_with':
        return this.cmp(target, op, isMultiValued(target.shape) ? this.scalar(target, value, param) : partialText(value, param));
      default:
        return this.day(target, op, value) ?? this.cmp(target, op, this.scalar(target, value, param));
    }
  }

  private scalar(target: Target, value: unknown, param: string): string | number | boolean {
    return validateFilterScalar(target.shape, value, param);
  }

  /**
   * A comparison with a whole UTC day, when a timestamp field is given a bare date: one
   * comparison's worth of the budget, however many nodes it takes. Null for anything else.
   */
  private day(target: Target, op: FilterOperator, value: unknown): FilterNode | null {
    if (target.shape.type !== 'timestamp' || !isDay(value)) return null;
    this.count();
    return this.dayNode(target, op, value);
  }

  private dayNode(target: Target, op: FilterOperator, date: string): FilterNode {
    const start = `${date}T00:00:00.000Z`;
    // Timestamps are kept to the millisecond, so the day's last one ends it.
    const end = `${date}T23:59:59.999Z`;
    switch (op) {
      case 'eq':
        return { kind: 'and', nodes: [this.node(target, 'gte', start), this.node(target, 'lte', end)] };
      case 'ne':
        // As ne on a single instant, a record without a value is outside the day.
        return { kind: 'or', nodes: [this.node(target, 'lt', start), this.node(target, 'gt', end), this.node(target, 'is_empty', null)] };
      case 'gt':
        return this.node(target, 'gt', end);
      case 'lte':
        return this.node(target, 'lte', end);
      default:
        // gte and lt: from, or before, the day's first instant.
        return this.node(target, op, start);
    }
  }

  /**
   * in / not_in on a timestamp field holding a bare date: each day a range, each timestamp itself.
   * Each day is a comparison of the budget (the exact timestamps together one, as an in is), so
   * the tree a filter makes stays within what the stores compile: 50 days at most, each two or
   * three tests. Charged once for a whole list, six lists of 100 days in an $or were 600 terms of
   * one SQLite compound SELECT, past its limit of 500. Null otherwise.
   */
  private days(target: Target, op: 'in' | 'not_in', value: unknown, param: string): FilterNode | null {
    if (target.shape.type !== 'timestamp' || !Array.isArray(value) || !value.some(isDay)) return null;
    // The list's bounds and every value's own check first, as for any in / not_in.
    this.list(target, value.map((v) => (isDay(v) ? `${v}T00:00:00Z` : v)), param);
    const days = dedupe(value.filter(isDay));
    const exact = value.flatMap((v, i) => (isDay(v) ? [] : [this.scalar(target, v, `${param}[${i}]`)]));
    for (let i = 0; i < days.length; i++) this.count();
    const nodes = days.map((day) => this.dayNode(target, op === 'in' ? 'eq' : 'ne', day));
    // The exact instants stay one in / not_in test, as they would be without the days.
    if (exact.length > 0) nodes.push(this.cmp(target, op, dedupe(exact)));
    return combine(op === 'in' ? 'or' : 'and', nodes);
  }

  private list(target: Target, value: unknown, param: string): Array<string | number | boolean> {
    if (!Array.isArray(value)) throw typeError(param, 'an array of values', value);
    if (value.length === 0 || value.length > MAX_IN_VALUES) {
      throw validationError(param, `${param} must hold 1 to ${MAX_IN_VALUES} values, got ${value.length}`, { rule: value.length === 0 ? 'min_items' : 'max_items' });
    }
    const values = value.map((item, i) => this.scalar(target, item, `${param}[${i}]`));
    return dedupe(target.shape.type === 'url' ? values.flatMap((v) => urlSpellings(String(v))) : values);
  }

  /** eq / ne; on a url field, in / not_in of the value's spellings (urlSpellings). */
  private equality(target: Target, op: 'eq' | 'ne', value: string | number | boolean): ComparisonNode {
    if (target.shape.type !== 'url') return this.cmp(target, op, value);
    return this.cmp(target, op === 'eq' ? 'in' : 'not_in', urlSpellings(String(value)));
  }

  private cmp(target: Target, op: FilterOperator, value: ComparisonNode['value']): ComparisonNode {
    this.count();
    return this.node(target, op, value);
  }

  private count(): void {
    this.comparisons += 1;
    if (this.comparisons > MAX_FILTER_COMPARISONS) tooComplex(this.root, `at most ${MAX_FILTER_COMPARISONS} comparisons`);
  }

  private node(target: Target, op: FilterOperator, value: ComparisonNode['value']): ComparisonNode {
    return {
      kind: 'cmp', field: target.field, system: target.system, op, value,
      valueKind: valueKindOf(target.shape), multi: !target.system && isMultiValued(target.shape),
    };
  }
}

/**
 * The text of a contains/starts_with/ends_with: no longer than a text value may be (a longer one
 * matches nothing, and SQLite refuses a LIKE pattern past 50,000 bytes, which 10,000 UTF-16 units
 * escaped stay well under).
 */
function partialText(value: unknown, param: string): string {
  if (typeof value !== 'string') throw typeError(param, 'a non-empty string', value);
  if (value.length === 0) throw validationError(param, `${param} must be a non-empty string`, { rule: 'min_length' });
  return boundedText(value, param);
}

/**
 * Filters already read, by the filter object and then the object type (both by identity) and the
 * parameter: one GraphQL operation may hand the same variable to thirty aliased fields, and a
 * filter of a megabyte took tens of milliseconds to read (or to refuse) each time, back to back.
 * Keyed weakly, so an entry lives as long as the request's own objects; the result (a tree the
 * stores only read) or the refusal is given again as it was.
 */
const parsedFilters = new WeakMap<object, WeakMap<ObjectType, Map<string, { node?: FilterNode; error?: unknown }>>>();

/** The filter AST for `input`, or undefined when there is nothing to filter by (undefined, null, {}). */
export function parseFilter(objectType: ObjectType, input: unknown, param = 'filters'): FilterNode | undefined {
  if (input === undefined || input === null) return undefined;
  if (!isPlainObject(input)) throw typeError(param, 'a filter object such as {"stage": "won"}', input);
  let byType = parsedFilters.get(input);
  if (!byType) parsedFilters.set(input, (byType = new WeakMap()));
  let byParam = byType.get(objectType);
  if (!byParam) byType.set(objectType, (byParam = new Map()));
  let known = byParam.get(param);
  if (!known) {
    try {
      known = { node: Object.keys(input).length === 0 ? undefined : new FilterParser(objectType, param).object(input, param, 0) };
    } catch (error) {
      known = { error };
    }
    byParam.set(param, known);
  }
  if ('error' in known) throw known.error;
  return known.node;
}

/**
 * The sort order for records.list: a live single-valued data field or a system field (default
 * `created_at`), ascending unless `ascending` is false. Multi-valued fields cannot be sorted by.
 */
export function parseSort(objectType: ObjectType, sortField: string | undefined, ascending: boolean | undefined, param = 'sort_field'): SortSpec {
  if (ascending !== undefined && ascending !== null && typeof ascending !== 'boolean') throw typeError('ascending', 'a boolean', ascending);
  const asc = ascending ?? true;
  if (sortField === undefined || sortField === null || sortField === '') return { field: 'created_at', system: true, valueKind: 'text', ascending: asc };
  if (typeof sortField !== 'string') throw typeError(param, 'a field slug', sortField);
  const sortable = [...liveFields(objectType).filter((f) => !isMultiValued(f)).map((f) => f.slug), ...SYSTEM_FIELDS];
  const target = resolveField(objectType, sortField, param, `${param} ${JSON.stringify(sortField)}`, sortable);
  if (isMultiValued(target.shape)) {
    throw validationError(param, `${param}: cannot sort by ${target.field}, which holds several values`, { rule: 'unsupported', allowed: sortable });
  }
  return { field: target.field, system: target.system, valueKind: valueKindOf(target.shape), ascending: asc, multi: false };
}
