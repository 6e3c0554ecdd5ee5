import { z } from 'zod';
import { CREATES, DELETES, defineTool, given, pick, READ_ONLY, UPDATES } from './define.ts';
import { LIMITS } from '../../src/domain/limits.ts';
import { fieldKey, fieldMap, id, listId, slug } from './shapes.ts';

const viewId = id('a view', 'viw');
const sorts = z.array(z.strictObject({
  field: fieldKey.describe('Field slug, or created_at / updated_at.'),
  ascending: z.boolean().optional().describe('Default true.'),
})).max(10).describe('Sort order, first key first.');
const filters = fieldMap().nullable().describe('A filter in the records.list filter language; checked against the fields when saved.');
const visible = z.array(fieldKey).max(200).describe('Field slugs shown, in order.');

const viewOutput = z.object({
  view_id: z.string(),
  id: z.string(),
  name: z.string(),
  object_type_slug: z.string(),
  list_id: z.string().nullable(),
  filters: z.record(z.string(), z.unknown()).nullable(),
  sorts: z.array(z.object({ field: z.string(), ascending: z.boolean() })),
  visible_fields: z.array(z.string()),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});
const VIEW = 'view_id id name object_type_slug list_id filters sorts { field ascending } visible_fields created_by created_at updated_at deleted_at';

export const viewTools = [
  defineTool({
    name: 'views.list',
    scope: 'views',
    title: 'List saved views',
    description: 'Lists saved views, optionally of one object type or one list. Example: {"object_type_slug": "deals"}.',
    input: z.strictObject({
      object_type_slug: slug('Only views of this object type: its own and those of its lists (list_id set on them).').optional(),
      list_id: listId.optional().describe('Only views of this list.'),
    }),
    output: z.object({ items: z.array(viewOutput), total: z.number().int() }),
    annotations: READ_ONLY,
    operation: {
      document: `query($object_type_slug: String, $list_id: String) { views(object_type_slug: $object_type_slug, list_id: $list_id) { items { ${VIEW} } total } }`,
      variables: (i) => given(i),
      result: pick('views'),
    },
  }),
  defineTool({
    name: 'views.get',
    scope: 'views',
    title: 'Get a saved view',
    description: 'Returns one saved view: its filters, sorts and visible fields. Pass its filters to records.list (or lists.entries for a view of a list) to read its rows. Example: {"view_id": "viw_…"}.',
    input: z.strictObject({ view_id: viewId }),
    output: viewOutput,
    annotations: READ_ONLY,
    operation: { document: `query($view_id: String!) { view(view_id: $view_id) { ${VIEW} } }`, variables: (i) => i, result: pick('view') },
  }),
  defineTool({
    name: 'views.create',
    scope: 'views',
    title: 'Save a view',
    description: 'Saves a view of an object type (object_type_slug) or of a list (list_id): name, filters, sorts, visible fields, all checked against the fields. Example: {"name": "Big open deals", "object_type_slug": "deals", "filters": {"amount": {"gte": 50000}, "stage": {"not_in": ["won", "lost"]}}, "sorts": [{"field": "amount", "ascending": false}]}.',
    input: z.strictObject({
      name: z.string().min(1).max(LIMITS.nameMaxLength).describe('Display name.'),
      object_type_slug: slug('The object type viewed').optional(),
      list_id: listId.optional().describe('For a view of a list: the list.'),
      filters: filters.optional(),
      sorts: sorts.optional(),
      visible_fields: visible.optional(),
    }),
    output: viewOutput,
    annotations: CREATES,
    operation: {
      document: `mutation($name: String!, $object_type_slug: String, $list_id: String, $filters: JSON, $sorts: [ViewSortInput!], $visible_fields: [String!]) {
        createView(name: $name, object_type_slug: $object_type_slug, list_id: $list_id, filters: $filters, sorts: $sorts, visible_fields: $visible_fields) { ${VIEW} } }`,
      variables: (i) => given(i),
      result: pick('createView'),
    },
  }),
  defineTool({
    name: 'views.update',
    scope: 'views',
    title: 'Update a saved view',
    description: "Changes a view's name, filters (null clears them), sorts or visible fields. Members change only views they created. Example: {\"view_id\": \"viw_…\", \"filters\": {\"amount\": {\"gte\": 100000}}, \"sorts\": [{\"field\": \"amount\", \"ascending\": false}]}.",
    input: z.strictObject({
      view_id: viewId, name: z.string().min(1).max(LIMITS.nameMaxLength).optional(), filters: filters.optional(), sorts: sorts.optional(), visible_fields: visible.optional(),
    }),
    output: viewOutput,
    annotations: UPDATES,
    operation: {
      document: `mutation($view_id: String!, $name: String, $filters: JSON, $sorts: [ViewSortInput!], $visible_fields: [String!]) {
        updateView(view_id: $view_id, name: $name, filters: $filters, sorts: $sorts, visible_fields: $visible_fields) { ${VIEW} } }`,
      variables: (i) => given(i),
      result: pick('updateView'),
    },
  }),
  defineTool({
    name: 'views.delete',
    scope: 'views',
    title: 'Delete a saved view',
    description: 'Soft-deletes a saved view; its history stays on the timeline. Example: {"view_id": "viw_…"}.',
    input: z.strictObject({ view_id: viewId }),
    output: viewOutput,
    annotations: DELETES,
    operation: { document: `mutation($view_id: String!) { deleteView(view_id: $view_id) { ${VIEW} } }`, variables: (i) => i, result: pick('deleteView') },
  }),
];
