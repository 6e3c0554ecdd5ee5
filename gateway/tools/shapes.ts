import { z } from 'zod';
import { LIMITS } from '../../src/domain/limits.ts';
import { FIELD_TYPES } from '../../src/domain/types.ts';

/**
 * zod shapes shared by several tools. Descriptions are written for an agent: what the value is, its format and an example.
 * Every string a caller controls carries a bound from LIMITS (an id, a slug, a key, a token, a
 * text), so oversize input is a cheap validation_error naming the parameter.
 */

/** A bounded free text: display names, descriptions, bodies. */
export const text = (max: number) => z.string().max(max);

/** A short enum-like string (a date, a currency code, a cursor): at most `LIMITS.tokenMaxLength`. */
export const token = () => z.string().max(LIMITS.tokenMaxLength);

/** The id of a resource, e.g. `id('record', 'rec')`. */
export const id = (what: string, prefix: string) =>
  z.string().min(1).max(LIMITS.idMaxLength).describe(`Id of ${what}, e.g. "${prefix}_01JD3Q2X7ZK9M4T6V8W0Y2A4C6".`);

/** A field slug or operator used as a key or a name (`sort_field`, a view's sort field). */
export const fieldKey = z.string().min(1).max(LIMITS.fieldKeyMaxLength);

/** An object keyed by field slugs (record `data`, `filters`): the keys are bounded too. */
export const fieldMap = () => z.record(fieldKey, z.unknown());

export const slug = (what: string) =>
  z.string().max(LIMITS.slugMaxLength).regex(/^[a-z][a-z0-9_]{0,62}$/, 'must be lower-case letters, digits and underscores, starting with a letter')
    .describe(`${what}: lower-case letters, digits and "_", e.g. "companies".`);

export const recordId = id('a record', 'rec');

export const page = z.number().int().min(1).max(LIMITS.pageMax).optional()
  .describe('1-based page number. Default 1.');

export const pageSize = z.number().int().min(1).max(LIMITS.pageSizeMax).optional()
  .describe(`Items per page, 1 to ${LIMITS.pageSizeMax}. Default ${LIMITS.pageSizeDefault}.`);

const fieldSettings = {
  description: text(1000).optional().describe('What the field holds, for people and agents.'),
  required: z.boolean().optional().describe('Records must have a value. Default false.'),
  unique: z.boolean().optional().describe('No two live records may share a value (text, email, phone, url, number). Default false.'),
  options: z.array(z.string().min(1).max(LIMITS.nameMaxLength)).min(1).max(500).optional()
    .describe('select, multi_select, status: the allowed values; for status, the stages in order.'),
  currency_code: token().optional().describe('currency: ISO-4217 code, default "USD".'),
  max: z.number().int().optional().describe('rating: the highest rating, 1 to 10, default 5.'),
};

export const fieldInput = z.strictObject({
  slug: slug('Field slug, the key in record data'),
  name: z.string().min(1).max(LIMITS.nameMaxLength).describe('Display name, e.g. "Annual revenue".'),
  type: z.enum(FIELD_TYPES).describe(`Field type: ${FIELD_TYPES.join(', ')}.`),
  ...fieldSettings,
  target: z.string().max(LIMITS.slugMaxLength).optional().describe('record_reference: slug of the object type referenced, e.g. "companies".'),
  many: z.boolean().optional().describe('record_reference: holds a list of record ids. Default false.'),
}).describe('A field definition.');

export const fieldPatch = {
  name: z.string().min(1).max(LIMITS.nameMaxLength).optional().describe('New display name.'),
  archived: z.boolean().optional().describe('true archives the field: hidden from writes, values kept; false restores it.'),
  ...fieldSettings,
};

export const fieldOutput = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  type: z.enum(FIELD_TYPES),
  description: z.string().nullable(),
  required: z.boolean(),
  unique: z.boolean(),
  archived: z.boolean(),
  options: z.array(z.string()).nullable(),
  retired_options: z.array(z.string()).nullable()
    .describe('select, multi_select, status: options a change removed that records may still hold; filters take them, no record takes one anew.'),
  target: z.string().nullable(),
  many: z.boolean().nullable(),
  currency_code: z.string().nullable(),
  max: z.number().nullable(),
  position: z.number(),
  created_at: z.string(),
});

export const objectTypeOutput = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  icon: z.string().nullable(),
  color: z.string().nullable(),
  description: z.string().nullable(),
  standard: z.boolean(),
  fields: z.array(fieldOutput),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The GraphQL selection of a field definition, shared by object types and lists. */
const FIELDS_SELECTION = 'fields { id slug name type description required unique archived options retired_options target many currency_code max position created_at }';

export const OBJECT_TYPE_SELECTION = `id slug name icon color description standard created_at updated_at ${FIELDS_SELECTION}`;

export const recordOutput = z.object({
  record_id: z.string(),
  id: z.string(),
  object_type_slug: z.string(),
  data: z.record(z.string(), z.unknown()),
  display_name: z.string(),
  assignee_id: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});

export const RECORD_SELECTION = 'record_id id object_type_slug data display_name assignee_id created_by created_at updated_at deleted_at';

export const recordPageOutput = pageOutput(recordOutput);

export const RECORD_PAGE_SELECTION = `items { ${RECORD_SELECTION} } total page page_size`;

export const relatedRecordOutput = z.object({ record_id: z.string(), object_type_slug: z.string(), display_name: z.string() });
export const RELATED_SELECTION = 'record_id object_type_slug display_name';

/** Lists and entries. */
export const listOutput = z.object({
  list_id: z.string(),
  id: z.string(),
  object_type_slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  fields: z.array(fieldOutput),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});
export const LIST_SELECTION = `list_id id object_type_slug name description created_by created_at updated_at deleted_at ${FIELDS_SELECTION}`;

export const entryOutput = z.object({
  entry_id: z.string(),
  id: z.string(),
  list_id: z.string(),
  record_id: z.string(),
  data: z.record(z.string(), z.unknown()),
  record: relatedRecordOutput,
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const ENTRY_SELECTION = `entry_id id list_id record_id data record { ${RELATED_SELECTION} } created_by created_at updated_at`;

export const listId = id('a list', 'lst');

/** Records linked to a note or task. */
export const recordIds = z.array(z.string().min(1).max(LIMITS.idMaxLength)).max(100)
  .describe('Ids of the records this is attached to, e.g. ["rec_…"]; at most 100.');

/** Paged results of the work tools. */
export function pageOutput<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });
}
