import { statement } from '../statement.ts';

/**
 * Object types and their fields: `(:ObjectType)-[:HAS_FIELD]->(:Field)`. `live_slug` mirrors
 * `slug` while the type is live and is removed on delete, so the composite uniqueness constraint
 * on (workspace_id, live_slug) frees the slug. `seq` numbers a workspace's object types in
 * creation order (lists follow it). A field's `config` is a JSON string.
 */

const OBJECT_TYPE = 'o {.id, .workspace_id, .slug, .name, .icon, .color, .description, .standard, .created_at, .updated_at, .deleted_at}';
const FIELDS = '[(o)-[:HAS_FIELD]->(f:Field) | f {.id, .slug, .name, .type, .description, .required, .unique, .archived, .config, .position, .created_at}]';
export const RETURN_OBJECT_TYPE = `RETURN ${OBJECT_TYPE} AS object_type, ${FIELDS} AS fields`;

/** `$fields`: maps of {id, slug, name, type, description, required, unique, config, position}. */
export const CREATE_OBJECT_TYPE = statement(
  'createObjectType',
  ['workspace_id', 'id', 'slug', 'name', 'icon', 'color', 'description', 'standard', 'fields', 'now'],
  `
MATCH (w:Workspace {id: $workspace_id})
WITH w, COUNT { MATCH (x:ObjectType {workspace_id: w.id}) } AS seq
CREATE (o:ObjectType {id: $id, workspace_id: w.id, slug: $slug, live_slug: $slug, name: $name, icon: $icon,
                      color: $color, description: $description, standard: $standard, seq: seq,
                      created_at: $now, updated_at: $now})
FOREACH (f IN $fields |
  CREATE (o)-[:HAS_FIELD]->(:Field {id: f.id, workspace_id: w.id, object_type_id: o.id, slug: f.slug, name: f.name,
                                    type: f.type, description: f.description, required: f.required,
                                    unique: f.unique, archived: false, config: f.config, position: f.position,
                                    created_at: $now}))
RETURN o.id AS id`,
);

export const GET_OBJECT_TYPE = statement('getObjectType', ['workspace_id', 'slug'], `
MATCH (o:ObjectType {workspace_id: $workspace_id, live_slug: $slug})
${RETURN_OBJECT_TYPE}`);

export const LIST_OBJECT_TYPES = statement('listObjectTypes', ['workspace_id'], `
MATCH (o:ObjectType {workspace_id: $workspace_id})
WHERE o.deleted_at IS NULL
${RETURN_OBJECT_TYPE}
ORDER BY o.seq, o.id`);

/** `$patch` holds only keys of ObjectTypePatch, picked by code. */
export const UPDATE_OBJECT_TYPE = statement('updateObjectType', ['workspace_id', 'slug', 'patch', 'now'], `
MATCH (o:ObjectType {workspace_id: $workspace_id, live_slug: $slug})
SET o += $patch, o.updated_at = $now
${RETURN_OBJECT_TYPE}`);

export const DELETE_OBJECT_TYPE = statement('deleteObjectType', ['workspace_id', 'slug', 'now'], `
MATCH (o:ObjectType {workspace_id: $workspace_id, live_slug: $slug})
SET o.deleted_at = $now, o.updated_at = $now
REMOVE o.live_slug
${RETURN_OBJECT_TYPE}`);

/**
 * Takes the live type's write lock (set and removed at once, as LOCK_RECORD does), before a list
 * or view is created for it: a delete holding the lock is waited for, and the type is then read
 * as it left it, so the two never both succeed.
 */
export const LOCK_OBJECT_TYPE = statement('lockObjectType', ['workspace_id', 'slug'], `
MATCH (o:ObjectType {workspace_id: $workspace_id, live_slug: $slug})
SET o.write_lock = true
REMOVE o.write_lock`);

/** The live lists and views that name a type by its slug (run after DELETE_OBJECT_TYPE took its lock). */
export const COUNT_OBJECT_TYPE_USES = statement('countObjectTypeUses', ['workspace_id', 'slug'], `
RETURN COUNT { MATCH (l:List {workspace_id: $workspace_id, object_type_slug: $slug}) WHERE l.deleted_at IS NULL } AS lists,
       COUNT { MATCH (v:View {workspace_id: $workspace_id, object_type_slug: $slug}) WHERE v.deleted_at IS NULL } AS views`);

/** The new field goes last (positions count from 0). */
export const ADD_FIELD = statement(
  'addField',
  ['workspace_id', 'slug', 'id', 'field_slug', 'name', 'type', 'description', 'required', 'unique', 'config', 'now'],
  `
MATCH (o:ObjectType {workspace_id: $workspace_id, live_slug: $slug})
OPTIONAL MATCH (o)-[:HAS_FIELD]->(g:Field)
WITH o, coalesce(max(g.position) + 1, 0) AS position
CREATE (o)-[:HAS_FIELD]->(:Field {id: $id, workspace_id: o.workspace_id, object_type_id: o.id, slug: $field_slug,
                                  name: $name, type: $type, description: $description, required: $required,
                                  unique: $unique, archived: false, config: $config, position: position,
                                  created_at: $now})
SET o.updated_at = $now
RETURN o.id AS id`,
);

/** `$patch` holds only keys of FieldPatch, picked by code (config as a JSON string). */
export const UPDATE_FIELD = statement('updateField', ['workspace_id', 'slug', 'field_slug', 'patch', 'now'], `
MATCH (o:ObjectType {workspace_id: $workspace_id, live_slug: $slug})-[:HAS_FIELD]->(f:Field {slug: $field_slug})
SET f += $patch, o.updated_at = $now
RETURN f.id AS id`);

export const GET_OBJECT_TYPE_BY_ID = statement('getObjectTypeById', ['workspace_id', 'id'], `
MATCH (o:ObjectType {workspace_id: $workspace_id, id: $id})
${RETURN_OBJECT_TYPE}`);
