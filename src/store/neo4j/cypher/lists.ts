import { statement } from '../statement.ts';
import { resourceStatements } from './resources.ts';

/**
 * Lists of one object type. A list's entry fields never change after creation, so they are one
 * JSON string (`fields`, FieldDef[]), as on SQLite. `seq` numbers a workspace's lists in creation
 * order; `entry_seq` counts the entries ever added, numbering them in the order added (entries are
 * removed for good, so a count of the live ones would repeat numbers).
 */

export const LIST = 't {.id, .workspace_id, .object_type_slug, .name, .description, .fields, .created_by, .created_at, .updated_at, .deleted_at}';

export const LISTS = resourceStatements('List', LIST);

export const CREATE_LIST = statement(
  'createList',
  ['workspace_id', 'id', 'object_type_slug', 'name', 'description', 'fields', 'created_by', 'now'],
  `
WITH COUNT { MATCH (x:List {workspace_id: $workspace_id}) } AS seq
CREATE (t:List {id: $id, workspace_id: $workspace_id, object_type_slug: $object_type_slug, name: $name,
                description: $description, fields: $fields, created_by: $created_by, seq: seq, entry_seq: 0,
                created_at: $now, updated_at: $now})
RETURN t.id AS id`,
);

/** Takes a live list's write lock before a view is created for it (see LOCK_OBJECT_TYPE). */
export const LOCK_LIST = statement('lockList', ['workspace_id', 'id'], `
MATCH (t:List {id: $id, workspace_id: $workspace_id})
WHERE t.deleted_at IS NULL
SET t.write_lock = true
REMOVE t.write_lock`);

/** The live views that name a list (run after the list's soft delete took its lock). */
export const COUNT_LIST_VIEWS = statement('countListViews', ['workspace_id', 'id'], `
RETURN COUNT { MATCH (v:View {workspace_id: $workspace_id, list_id: $id}) WHERE v.deleted_at IS NULL } AS views`);

/** Live lists, oldest first (ties in creation order), optionally of one object type (`$object_type_slug` null: any). */
export const LIST_LISTS = statement('listLists', ['workspace_id', 'object_type_slug'], `
MATCH (t:List {workspace_id: $workspace_id})
WHERE t.deleted_at IS NULL AND ($object_type_slug IS NULL OR t.object_type_slug = $object_type_slug)
RETURN ${LIST} AS list
ORDER BY t.created_at, t.seq, t.id`);
