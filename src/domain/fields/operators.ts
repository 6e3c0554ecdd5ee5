import type { FilterOperator, SystemField, ValueKind } from '../filter-ast.ts';
import { isMultiValued, type FieldShape } from './values.ts';

/**
 * Which filter operators apply to which field type, and how a store
 * compares the values. Multi-valued fields (multi_select, many record_reference) read eq and
 * contains as "has this element" (see filter-ast.ts).
 */

const TEXT_OPS: readonly FilterOperator[] = ['eq', 'ne', 'in', 'not_in', 'contains', 'starts_with', 'ends_with', 'is_empty', 'is_not_empty'];
const ORDERED_OPS: readonly FilterOperator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'is_empty', 'is_not_empty'];
const EQUALITY_OPS: readonly FilterOperator[] = ['eq', 'ne', 'in', 'not_in', 'is_empty', 'is_not_empty'];
const CHECKBOX_OPS: readonly FilterOperator[] = ['eq', 'ne', 'is_empty', 'is_not_empty'];
const MULTI_OPS: readonly FilterOperator[] = ['eq', 'contains', 'in', 'not_in', 'ne', 'is_empty', 'is_not_empty'];

/** The partial-text operators: they take a non-empty string and ignore ASCII case. */
export const PARTIAL_TEXT_OPS: readonly FilterOperator[] = ['contains', 'starts_with', 'ends_with'];

/**
 * The record's own fields, described as field shapes so the same validators apply: `record_id`
 * compares like a single reference (exact ids), the timestamps like a timestamp field.
 */
export const SYSTEM_FIELD_SHAPES: { readonly [F in SystemField]: FieldShape } = {
  record_id: { type: 'record_reference', config: { many: false } },
  created_at: { type: 'timestamp', config: {} },
  updated_at: { type: 'timestamp', config: {} },
};

/** The operators a field of this shape accepts. */
export function operatorsFor(field: FieldShape): readonly FilterOperator[] {
  if (isMultiValued(field)) return MULTI_OPS;
  switch (field.type) {
    case 'text':
    case 'email':
    case 'phone':
    case 'url':
      return TEXT_OPS;
    case 'number':
    case 'currency':
    case 'rating':
    case 'date':
    case 'timestamp':
      return ORDERED_OPS;
    case 'checkbox':
      return CHECKBOX_OPS;
    case 'select':
    case 'status':
    case 'user':
    case 'record_reference':
      return EQUALITY_OPS;
    case 'multi_select':
      return MULTI_OPS;
  }
}

/** How stores compare the field's values: numbers, booleans, or text (ids and ISO dates sort as text). */
export function valueKindOf(field: FieldShape): ValueKind {
  switch (field.type) {
    case 'number':
    case 'currency':
    case 'rating':
      return 'number';
    case 'checkbox':
      return 'boolean';
    default:
      return 'text';
  }
}
