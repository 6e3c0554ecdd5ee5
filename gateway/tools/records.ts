import { z } from 'zod';
import { LIMITS } from '../../src/domain/limits.ts';
import { CREATES, DELETES, defineTool, given, pick, READ_ONLY, UPDATES } from './define.ts';
import { fieldKey, fieldMap, page, pageSize, RECORD_PAGE_SELECTION, RECORD_SELECTION, recordId, recordOutput, recordPageOutput, slug } from './shapes.ts';

const objectTypeSlug = slug('Slug of the object type, e.g. "contacts"');
const data = fieldMap();
const assignee = z.string().max(LIMITS.idMaxLength).nullable().optional()
  .describe('User id the record is assigned to (members may only write records assigned to them). Default: the caller on create.');

const relationOutput = z.object({
  type: z.string(),
  source: z.enum(['field', 'link']),
  direction: z.enum(['outgoing', 'incoming']),
  record: z.object({ record_id: z.string(), object_type_slug: z.string(), display_name: z.string() }),
});

const RECORD_MUTATION = (field: string, args: string, params: string) =>
  `mutation(${params}) { ${field}(${args}) { ${RECORD_SELECTION} } }`;

export const recordTools = [
  defineTool({
    name: 'records.list',
    scope: 'records',
    title: 'List records',
    description: 'Lists records of one object type, filtered, sorted and paged. Filters: {field: value} for equality, {field: {op: value}} with ops eq, ne, gt, gte, lt, lte, in, not_in, contains, starts_with, ends_with, is_empty, is_not_empty, combined with $and / $or. Example: {"object_type_slug": "deals", "filters": {"stage": {"in": ["proposal", "negotiation"]}, "amount": {"gte": 10000}}, "sort_field": "amount", "ascending": false}. Returns {items, total, page, page_size}.',
    input: z.strictObject({
      object_type_slug: objectTypeSlug,
      filters: fieldMap().nullable().optional().describe('Filter object; see the tool description. Field names are field slugs, or record_id, created_at, updated_at. A timestamp field given a date ("2026-01-15") compares with that whole UTC day: {"created_at": {"gte": "2026-01-01", "lte": "2026-01-31"}} is all of January. Null or {} is no filter (a saved view without filters has null).'),
      sort_field: fieldKey.optional().describe('Field slug (or created_at, updated_at) to sort by. Default created_at. Items without a value come last either way and ties go by id; select and status values sort by their text, not their option order.'),
      ascending: z.boolean().optional().describe('Sort direction. Default true. Missing values sort last either way.'),
      page,
      page_size: pageSize,
    }),
    output: recordPageOutput,
    annotations: READ_ONLY,
    operation: {
      document: `query($object_type_slug: String!, $filters: JSON, $sort_field: String, $ascending: Boolean, $page: Int, $page_size: Int) {
        records(object_type_slug: $object_type_slug, filters: $filters, sort_field: $sort_field, ascending: $ascending, page: $page, page_size: $page_size) { ${RECORD_PAGE_SELECTION} } }`,
      variables: (i) => given(i),
      result: pick('records'),
    },
  }),
  defineTool({
    name: 'records.get',
    scope: 'records',
    title: 'Get a record',
    description: `Returns one record with its relations in both directions (records it references and records that reference it), each with the other record's display name: the first ${LIMITS.relationsMax}, with relations_total counting them all (records.list filtered on a reference field reads the records behind the rest). Example: {"record_id": "rec_…"}.`,
    input: z.strictObject({ record_id: recordId }),
    output: recordOutput.extend({
      relations: z.array(relationOutput).describe(`The first ${LIMITS.relationsMax} relations.`),
      relations_total: z.number().int().describe('How many relations the record has in all.'),
    }),
    annotations: READ_ONLY,
    operation: {
      document: `query($record_id: String!) { record(record_id: $record_id) { ${RECORD_SELECTION}
        relations { type source direction record { record_id object_type_slug display_name } } relations_total } }`,
      variables: (i) => i,
      result: pick('record'),
      // Every leaf is a stored string, a null or the data JSON, and relations are many: see OperationOptions.
      plainLeaves: true,
    },
  }),
  defineTool({
    name: 'records.create',
    scope: 'records',
    title: 'Create a record',
    description: 'Creates a record validated against its object type\'s fields (see objects.get). Example: {"object_type_slug": "contacts", "data": {"name": "Ada Lovelace", "email": "ada@example.com", "company": "rec_…"}}. Reference fields take record ids; unknown fields are rejected with the nearest valid name.',
    input: z.strictObject({ object_type_slug: objectTypeSlug, data: data.describe('Field values keyed by field slug.'), assignee_id: assignee }),
    output: recordOutput,
    annotations: CREATES,
    operation: {
      document: RECORD_MUTATION('createRecord', 'object_type_slug: $object_type_slug, data: $data, assignee_id: $assignee_id',
        '$object_type_slug: String!, $data: JSON!, $assignee_id: String'),
      variables: (i) => given(i),
      result: pick('createRecord'),
    },
  }),
  defineTool({
    name: 'records.update',
    scope: 'records',
    title: 'Update a record',
    description: 'Updates some fields of a record: keys given replace their values, null clears a field, keys not given stay as they are. Example: {"record_id": "rec_…", "data": {"stage": "won"}}.',
    input: z.strictObject({ record_id: recordId, data: data.optional().describe('Fields to change, keyed by field slug.'), assignee_id: assignee }),
    output: recordOutput,
    annotations: UPDATES,
    operation: {
      document: RECORD_MUTATION('updateRecord', 'record_id: $record_id, data: $data, assignee_id: $assignee_id',
        '$record_id: String!, $data: JSON, $assignee_id: String'),
      variables: (i) => given(i),
      result: pick('updateRecord'),
    },
  }),
  defineTool({
    name: 'records.delete',
    scope: 'records',
    title: 'Delete a record',
    description: 'Soft-deletes a record: it disappears from list, search, get and relations, its unique values are freed, and records.restore brings it back. Example: {"record_id": "rec_…"}.',
    input: z.strictObject({ record_id: recordId }),
    output: recordOutput,
    annotations: DELETES,
    operation: {
      document: RECORD_MUTATION('deleteRecord', 'record_id: $record_id', '$record_id: String!'),
      variables: (i) => i,
      result: pick('deleteRecord'),
    },
  }),
  defineTool({
    name: 'records.restore',
    scope: 'records',
    title: 'Restore a deleted record',
    description: 'Restores a soft-deleted record. Fails with conflict if one of its unique values was taken meanwhile, and with not_found if its object type was deleted (even if a new one took the slug). Example: {"record_id": "rec_…"}.',
    input: z.strictObject({ record_id: recordId }),
    output: recordOutput,
    annotations: UPDATES,
    operation: {
      document: RECORD_MUTATION('restoreRecord', 'record_id: $record_id', '$record_id: String!'),
      variables: (i) => i,
      result: pick('restoreRecord'),
    },
  }),
  defineTool({
    name: 'records.search',
    scope: 'records',
    title: 'Search records',
    description: 'Full-text search across record text (names, emails, domains, descriptions, ...). Every word must match, as a prefix; records holding every word whole come first, then those with less text, ties by id. Example: {"query": "ada love"}. Returns {items, total, page, page_size}.',
    input: z.strictObject({
      query: z.string().min(1).max(LIMITS.searchQueryMaxLength).describe('Words to find, e.g. "acme": runs of letters and digits, each matching the start of a word; punctuation and symbols are separators, and a query of only those is refused.'),
      object_type_slug: objectTypeSlug.optional(),
      page,
      page_size: pageSize,
    }),
    output: recordPageOutput,
    annotations: READ_ONLY,
    operation: {
      document: `query($query: String!, $object_type_slug: String, $page: Int, $page_size: Int) {
        searchRecords(query: $query, object_type_slug: $object_type_slug, page: $page, page_size: $page_size) { ${RECORD_PAGE_SELECTION} } }`,
      variables: (i) => given(i),
      result: pick('searchRecords'),
    },
  }),
];
