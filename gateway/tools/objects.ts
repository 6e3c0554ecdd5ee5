import { z } from 'zod';
import { CREATES, DELETES, defineTool, given, pick, READ_ONLY, UPDATES } from './define.ts';
import { fieldInput, fieldPatch, OBJECT_TYPE_SELECTION, objectTypeOutput, slug } from './shapes.ts';

const objectSlug = slug('Slug of the object type');
const meta = {
  icon: z.string().max(50).nullable().optional().describe('Icon name, e.g. "building".'),
  color: z.string().max(20).nullable().optional().describe('Color, e.g. "#2563eb".'),
  description: z.string().max(1000).nullable().optional().describe('What the records of this type are.'),
};

const FIELD_VARS = (f: z.output<typeof fieldInput>) => given(f);

export const objectTools = [
  defineTool({
    name: 'objects.list',
    scope: 'objects',
    title: 'List object types',
    description: 'Lists the object types of the workspace (companies, contacts, deals and custom ones) with their field definitions. Call this first to learn which fields records.create accepts. Example: {}.',
    input: z.strictObject({}),
    output: z.object({ items: z.array(objectTypeOutput), total: z.number().int() }),
    annotations: READ_ONLY,
    operation: {
      document: `query { objectTypes { ${OBJECT_TYPE_SELECTION} } }`,
      variables: () => ({}),
      result: (data) => {
        const items = data.objectTypes as unknown[];
        return { items, total: items.length };
      },
    },
  }),
  defineTool({
    name: 'objects.get',
    scope: 'objects',
    title: 'Get an object type',
    description: 'Returns one object type by slug with all its fields (archived ones included, marked archived). Example: {"slug": "companies"}.',
    input: z.strictObject({ slug: objectSlug }),
    output: objectTypeOutput,
    annotations: READ_ONLY,
    operation: {
      document: `query($slug: String!) { objectType(slug: $slug) { ${OBJECT_TYPE_SELECTION} } }`,
      variables: (i) => i,
      result: pick('objectType'),
    },
  }),
  defineTool({
    name: 'objects.create',
    scope: 'objects',
    title: 'Create an object type',
    description: 'Creates a custom object type with its fields, e.g. slug "projects" with a required text field "name". Owners and admins only. Example: {"slug": "projects", "name": "Projects", "fields": [{"slug": "name", "name": "Name", "type": "text", "required": true}, {"slug": "budget", "name": "Budget", "type": "currency"}]}.',
    input: z.strictObject({
      slug: objectSlug,
      name: z.string().min(1).max(100).describe('Display name, plural, e.g. "Projects".'),
      ...meta,
      fields: z.array(fieldInput).min(1).max(200).describe('The fields; at least one. A required text field "name" gives records a display name.'),
    }),
    output: objectTypeOutput,
    annotations: CREATES,
    operation: {
      document: `mutation($slug: String!, $name: String!, $icon: String, $color: String, $description: String, $fields: [FieldInput!]!) {
        createObjectType(slug: $slug, name: $name, icon: $icon, color: $color, description: $description, fields: $fields) { ${OBJECT_TYPE_SELECTION} } }`,
      variables: (i) => ({ ...given(i), fields: i.fields.map(FIELD_VARS) }),
      result: pick('createObjectType'),
    },
  }),
  defineTool({
    name: 'objects.update',
    scope: 'objects',
    title: 'Update an object type',
    description: "Changes an object type's name, icon, color or description. The slug never changes. Owners and admins only. Example: {\"slug\": \"companies\", \"name\": \"Organizations\", \"color\": \"#3366ff\"}.",
    input: z.strictObject({ slug: objectSlug, name: z.string().min(1).max(100).optional().describe('New display name.'), ...meta }),
    output: objectTypeOutput,
    annotations: UPDATES,
    operation: {
      document: `mutation($slug: String!, $name: String, $icon: String, $color: String, $description: String) {
        updateObjectType(slug: $slug, name: $name, icon: $icon, color: $color, description: $description) { ${OBJECT_TYPE_SELECTION} } }`,
      variables: (i) => given(i),
      result: pick('updateObjectType'),
    },
  }),
  defineTool({
    name: 'objects.delete',
    scope: 'objects',
    title: 'Delete an object type',
    description: 'Soft-deletes a custom object type that has no live records, lists, views or saved reports (409 conflict, with their counts or ids, while it has any). Standard types (companies, contacts, deals) cannot be deleted. Owners and admins only. Example: {"slug": "projects"}.',
    input: z.strictObject({ slug: objectSlug }),
    output: objectTypeOutput,
    annotations: DELETES,
    operation: {
      document: `mutation($slug: String!) { deleteObjectType(slug: $slug) { ${OBJECT_TYPE_SELECTION} } }`,
      variables: (i) => i,
      result: pick('deleteObjectType'),
    },
  }),
  defineTool({
    name: 'objects.add_field',
    scope: 'objects',
    title: 'Add a field',
    description: 'Adds a field to an object type; existing records get no value for it. Owners and admins only. Example: {"slug": "companies", "field": {"slug": "tier", "name": "Tier", "type": "select", "options": ["gold", "silver"]}}.',
    input: z.strictObject({ slug: objectSlug, field: fieldInput }),
    output: objectTypeOutput,
    annotations: CREATES,
    operation: {
      document: `mutation($slug: String!, $field: FieldInput!) { addField(slug: $slug, field: $field) { ${OBJECT_TYPE_SELECTION} } }`,
      variables: (i) => ({ slug: i.slug, field: FIELD_VARS(i.field) }),
      result: pick('addField'),
    },
  }),
  defineTool({
    name: 'objects.update_field',
    scope: 'objects',
    title: 'Update or archive a field',
    description: 'Changes a field\'s name, description, required/unique flags or options (options left out become retired_options: records keep them and filters take them, writes do not); archived: true archives it (values kept, no longer writable; 409 in_use while a saved view or report uses it), false restores it. The type never changes. Owners and admins only. Example: {"slug": "companies", "field_slug": "tier", "options": ["gold", "silver", "bronze"]}.',
    input: z.strictObject({ slug: objectSlug, field_slug: slug('Slug of the field to change'), ...fieldPatch }),
    output: objectTypeOutput,
    annotations: UPDATES,
    operation: {
      document: `mutation($slug: String!, $field_slug: String!, $patch: FieldPatchInput!) {
        updateField(slug: $slug, field_slug: $field_slug, patch: $patch) { ${OBJECT_TYPE_SELECTION} } }`,
      variables: ({ slug: s, field_slug, ...patch }) => ({ slug: s, field_slug, patch: given(patch) }),
      params: ({ patch, ...rest }) => ({ ...rest, ...(patch && typeof patch === 'object' ? patch : {}) }),
      result: pick('updateField'),
    },
  }),
];
