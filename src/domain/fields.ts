/**
 * Field types, field definitions and record data: the rules that decide what a record may hold.
 * The implementation lives under ./fields/; this is the one import for other layers.
 */
export { SLUG_PATTERN, RESERVED_FIELD_SLUGS, UNIQUE_FIELD_TYPES, MAX_OPTIONS, validateSlug, validateNewField, validateFieldPatch, checkStoredField } from './fields/definitions.ts';
export { MAX_FIELDS, validateNewObjectType, validateObjectTypePatch } from './fields/object-types.ts';
export { operatorsFor, valueKindOf } from './fields/operators.ts';
export { checkStoredData, claimChange, displayName, fieldClaims, liveFields, uniqueClaims, validateRecordData, type ValidatedData } from './fields/record-data.ts';
export {
  DEFAULT_CURRENCY, DEFAULT_RATING_MAX, TEXT_MAX_LENGTH, dayOrTimestamp, isMultiValued, uniqueKey, validateFieldValue, validateScalar,
  type FieldShape, type StoredScalar, type StoredValue,
} from './fields/values.ts';
