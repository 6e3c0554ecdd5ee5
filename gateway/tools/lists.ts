import { z } from 'zod';
import { LIMITS } from '../../src/domain/limits.ts';
import { CREATES, DELETES, defineTool, given, pick, READ_ONLY, UPDATES } from './define.ts';
import {
  ENTRY_SELECTION, entryOutput, fieldInput, fieldKey, fieldMap, id, LIST_SELECTION, listId, listOutput, page, pageOutput, pageSize, recordId, slug,
} from './shapes.ts';

const entryId = id('a list entry', 'ent');
const entryData = fieldMap().describe("Values keyed by the list's field slugs, e.g. {\"stage\": \"qualified\"}.");
const name = z.string().min(1).max(LIMITS.nameMaxLength);

export const listsTools = [
  defineTool({
    name: 'lists.list',
    scope: 'lists',
    title: 'List lists',
    description: 'Lists the lists of the workspace (pipelines and other collections of records), optionally of one object type, with their entry fields. Example: {"object_type_slug": "deals"}.',
    input: z.strictObject({ object_type_slug: slug('Only lists of this object type').optional() }),
    output: z.object({ items: z.array(listOutput), total: z.number().int() }),
    annotations: READ_ONLY,
    operation: {
      document: `query($object_type_slug: String) { lists(object_type_slug: $object_type_slug) { items { ${LIST_SELECTION} } total } }`,
      variables: (i) => given(i),
      result: pick('lists'),
    },
  }),
  defineTool({
    name: 'lists.get',
    scope: 'lists',
    title: 'Get a list',
    description: 'Returns one list with its entry fields (e.g. a status field "stage" whose options are the pipeline stages in order). Example: {"list_id": "lst_…"}.',
    input: z.strictObject({ list_id: listId }),
    output: listOutput,
    annotations: READ_ONLY,
    operation: { document: `query($list_id: String!) { list(list_id: $list_id) { ${LIST_SELECTION} } }`, variables: (i) => i, result: pick('list') },
  }),
  defineTool({
    name: 'lists.create',
    scope: 'lists',
    title: 'Create a list',
    description: 'Creates a list of records of one object type with entry fields of its own. Example pipeline: {"object_type_slug": "deals", "name": "Q4 pipeline", "fields": [{"slug": "stage", "name": "Stage", "type": "status", "options": ["lead", "qualified", "proposal", "won"]}]}. Owners and admins only.',
    input: z.strictObject({
      object_type_slug: slug('The object type of the records the list holds'),
      name: name.describe('Display name, e.g. "Q4 pipeline".'),
      description: z.string().max(1000).nullable().optional().describe('What the list is for.'),
      fields: z.array(fieldInput.extend({ unique: z.literal(false).optional().describe('Entry fields are never unique (a value may repeat across entries); false, as lists.get shows it, is taken.') }))
        .max(200).optional().describe('Entry fields, as object fields but never unique; a status field with ordered options makes the list a pipeline.'),
    }),
    output: listOutput,
    annotations: CREATES,
    operation: {
      document: `mutation($object_type_slug: String!, $name: String!, $description: String, $fields: [FieldInput!]) {
        createList(object_type_slug: $object_type_slug, name: $name, description: $description, fields: $fields) { ${LIST_SELECTION} } }`,
      variables: (i) => ({ ...given(i), ...(i.fields ? { fields: i.fields.map((f) => given(f)) } : {}) }),
      result: pick('createList'),
    },
  }),
  defineTool({
    name: 'lists.update',
    scope: 'lists',
    title: 'Rename a list',
    description: "Changes a list's name (and description). Owners and admins only. Example: {\"list_id\": \"lst_…\", \"name\": \"Q1 pipeline\"}.",
    input: z.strictObject({ list_id: listId, name: name.optional().describe('New name.'), description: z.string().max(1000).nullable().optional() }),
    output: listOutput,
    annotations: UPDATES,
    operation: {
      document: `mutation($list_id: String!, $name: String, $description: String) { updateList(list_id: $list_id, name: $name, description: $description) { ${LIST_SELECTION} } }`,
      variables: (i) => given(i),
      result: pick('updateList'),
    },
  }),
  defineTool({
    name: 'lists.delete',
    scope: 'lists',
    title: 'Delete a list',
    description: 'Soft-deletes a list that has no views (409 conflict while it has any): it disappears from lists.list and lists.get; its history stays on the timeline. Owners and admins only. Example: {"list_id": "lst_…"}.',
    input: z.strictObject({ list_id: listId }),
    output: listOutput,
    annotations: DELETES,
    operation: { document: `mutation($list_id: String!) { deleteList(list_id: $list_id) { ${LIST_SELECTION} } }`, variables: (i) => i, result: pick('deleteList') },
  }),
  defineTool({
    name: 'lists.entries',
    scope: 'lists',
    title: 'List entries of a list',
    description: "Lists a list's entries with their data and the record's display name, filtered on entry fields with the records.list filter language, sorted and paged. Example: {\"list_id\": \"lst_…\", \"filters\": {\"stage\": {\"in\": [\"qualified\", \"proposal\"]}}}.",
    input: z.strictObject({
      list_id: listId,
      filters: fieldMap().nullable().optional().describe('Filter on entry fields (or record_id, created_at, updated_at). Null or {} is no filter (a saved view without filters has null).'),
      sort_field: fieldKey.optional().describe('Entry field (or created_at, updated_at) to sort by. Default created_at. Items without a value come last either way and ties go by id; select and status values sort by their text, not their option order.'),
      ascending: z.boolean().optional().describe('Default true.'),
      page,
      page_size: pageSize,
    }),
    output: pageOutput(entryOutput),
    annotations: READ_ONLY,
    operation: {
      document: `query($list_id: String!, $filters: JSON, $sort_field: String, $ascending: Boolean, $page: Int, $page_size: Int) {
        listEntries(list_id: $list_id, filters: $filters, sort_field: $sort_field, ascending: $ascending, page: $page, page_size: $page_size) {
          items { ${ENTRY_SELECTION} } total page page_size } }`,
      variables: (i) => given(i),
      result: pick('listEntries'),
    },
  }),
  defineTool({
    name: 'lists.bulk_add_entry',
    scope: 'lists',
    title: 'Add records to a list',
    description: `Adds up to ${LIMITS.bulkEntriesMax} records to a list in one call, all or nothing: every entry is checked first, and a rejected batch names each failing entry (details.failures[].index). Example: {"list_id": "lst_…", "entries": [{"record_id": "rec_…", "data": {"stage": "lead"}}]}.`,
    input: z.strictObject({
      list_id: listId,
      entries: z.array(z.strictObject({ record_id: recordId, data: entryData.optional() })).min(1).max(LIMITS.bulkEntriesMax)
        .describe(`1 to ${LIMITS.bulkEntriesMax} entries: a record of the list's object type and its entry data.`),
    }),
    output: z.object({ items: z.array(entryOutput), added: z.number().int() }),
    annotations: CREATES,
    operation: {
      document: `mutation($list_id: String!, $entries: [EntryInput!]!) { bulkAddEntries(list_id: $list_id, entries: $entries) { items { ${ENTRY_SELECTION} } added } }`,
      variables: (i) => ({ list_id: i.list_id, entries: i.entries.map((e) => given(e)) }),
      result: pick('bulkAddEntries'),
    },
  }),
  defineTool({
    name: 'lists.update_entry',
    scope: 'lists',
    title: 'Update a list entry',
    description: 'Changes some entry fields: keys given replace values, null clears. Example (move a deal along the pipeline): {"entry_id": "ent_…", "data": {"stage": "proposal"}}.',
    input: z.strictObject({ entry_id: entryId, data: entryData }),
    output: entryOutput,
    annotations: UPDATES,
    operation: {
      document: `mutation($entry_id: String!, $data: JSON!) { updateEntry(entry_id: $entry_id, data: $data) { ${ENTRY_SELECTION} } }`,
      variables: (i) => i,
      result: pick('updateEntry'),
    },
  }),
  defineTool({
    name: 'lists.remove_entry',
    scope: 'lists',
    title: 'Remove a record from a list',
    description: 'Removes one entry from its list (the record itself stays). The removal is kept on the timeline. Example: {"entry_id": "ent_…"}.',
    input: z.strictObject({ entry_id: entryId }),
    output: entryOutput,
    annotations: DELETES,
    operation: {
      document: `mutation($entry_id: String!) { removeEntry(entry_id: $entry_id) { ${ENTRY_SELECTION} } }`,
      variables: (i) => i,
      result: pick('removeEntry'),
    },
  }),
];
