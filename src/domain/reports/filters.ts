import { CrmError, validationError } from '../errors.ts';
import { FILTER_OPERATORS, SYSTEM_FIELDS, type FilterNode, type FilterOperator, type SystemField } from '../filter-ast.ts';
import { parseFilter } from '../filters.ts';
import { isPlainObject, rejectOtherKeys, suggestError, typeError } from '../fields/checks.ts';
import { operatorsFor, SYSTEM_FIELD_SHAPES } from '../fields/operators.ts';
import { liveFields, notALiveField } from '../fields/record-data.ts';
import type { FieldShape } from '../fields/values.ts';
import type { ObjectType } from '../types.ts';
import type { ReportFilter } from './types.ts';

/** At most this many filters in one report; they are ANDed. */
export const MAX_REPORT_FILTERS = 20;

/** The shape of a live data field or a system field, or an error naming `param` with the nearest name. */
function fieldShape(type: ObjectType, name: unknown, param: string): FieldShape {
  if (typeof name !== 'string' || name === '') throw typeError(param, 'a field slug', name);
  const canonical = name === 'id' ? 'record_id' : name;
  if ((SYSTEM_FIELDS as readonly string[]).includes(canonical)) return SYSTEM_FIELD_SHAPES[canonical as SystemField];
  const live = liveFields(type);
  const field = live.find((f) => f.slug === name);
  if (!field) throw notALiveField(type, name, param, `${param} ${JSON.stringify(name)}`, [...live.map((f) => f.slug), ...SYSTEM_FIELDS]);
  return field;
}

/** Re-addresses an error about the value from the filter-language path to `config.filters[i].value`. */
function aboutValue(err: unknown, from: string, to: string): unknown {
  if (!(err instanceof CrmError) || typeof err.details?.param !== 'string' || !err.details.param.startsWith(from)) return err;
  const param = `${to}${err.details.param.slice(from.length)}`;
  return new CrmError(err.code, err.message.split(from).join(to), { ...err.details, param });
}

/**
 * Report filters (`[{field, operator, value}]`, ANDed) as the filter AST records.list uses, so a
 * field type supports the same operators and values are checked by the same validators. Errors
 * name `config.filters[i].field`, `.operator` or `.value`.
 */
export function reportFilter(type: ObjectType, filters: unknown, param: string): { saved: ReportFilter[]; node: FilterNode | undefined } {
  if (filters === undefined || filters === null) return { saved: [], node: undefined };
  if (!Array.isArray(filters)) throw typeError(param, 'an array of {field, operator, value}', filters);
  if (filters.length > MAX_REPORT_FILTERS) {
    throw validationError(param, `${param} holds at most ${MAX_REPORT_FILTERS} filters, got ${filters.length}`, { rule: 'max_items', max: MAX_REPORT_FILTERS });
  }
  const saved: ReportFilter[] = [];
  const nodes: FilterNode[] = [];
  filters.forEach((item: unknown, i) => {
    const at = `${param}[${i}]`;
    if (!isPlainObject(item)) throw typeError(at, 'an object {field, operator, value}', item);
    rejectOtherKeys(item, ['field', 'operator', 'value'], at, 'a report filter');
    const shape = fieldShape(type, item.field, `${at}.field`);
    const operator = item.operator;
    if (typeof operator !== 'string' || operator === '') throw typeError(`${at}.operator`, 'a filter operator such as "eq"', operator);
    const allowed = operatorsFor(shape);
    if (!(FILTER_OPERATORS as readonly string[]).includes(operator)) {
      throw suggestError(`${at}.operator`, `${at}.operator ${JSON.stringify(operator)} is not a filter operator`, 'unknown_operator', operator, allowed);
    }
    if (!allowed.includes(operator as FilterOperator)) {
      throw validationError(`${at}.operator`, `${at}.operator: ${operator} does not apply to ${String(item.field)}, a ${shape.type} field; use one of ${allowed.join(', ')}`, {
        rule: 'unsupported_operator', allowed,
      });
    }
    const field = item.field as string;
    const root = `${at}.where`;
    try {
      const node = parseFilter(type, { [field]: { [operator]: item.value ?? null } }, root);
      if (node) nodes.push(node);
    } catch (err) {
      throw aboutValue(err, `${root}.${field}.${operator}`, `${at}.value`);
    }
    saved.push({ field, operator, ...(item.value === undefined ? {} : { value: item.value }) });
  });
  const node: FilterNode | undefined = nodes.length === 0 ? undefined : nodes.length === 1 ? nodes[0] : { kind: 'and', nodes };
  return { saved, node };
}
