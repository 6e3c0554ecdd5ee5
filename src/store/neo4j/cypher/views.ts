import { statement } from '../statement.ts';
import { resourceStatements } from './resources.ts';

/**
 * Saved views of an object type or of a list (`list_id`). `filters` (the public filter object as
 * saved, or absent) and `sorts` are JSON strings; `visible_fields` is a list of strings. `seq`
 * numbers a workspace's views in creation order.
 */

export const VIEW = 't {.id, .workspace_id, .name, .object_type_slug, .list_id, .filters, .sorts, .visible_fields, .created_by, .created_at, .updated_at, .deleted_at}';

export const VIEWS = resourceStatements('View', VIEW);

export const CREATE_VIEW = statement(
  'createView',
  ['workspace_id', 'id', 'name', 'object_type_slug', 'list_id', 'filters', 'sorts', 'visible_fields', 'created_by', 'now'],
  `
WITH COUNT { MATCH (x:View {workspace_id: $workspace_id}) } AS seq
CREATE (t:View {id: $id, workspace_id: $workspace_id, name: $name, object_type_slug: $object_type_slug, list_id: $list_id,
                filters: $filters, sorts: $sorts, visible_fields: $visible_fields, created_by: $created_by, seq: seq,
                created_at: $now, updated_at: $now})
RETURN t.id AS id`,
);

/** Live views, oldest first (ties in creation order); a null criterion matches any. */
export const LIST_VIEWS = statement('listViews', ['workspace_id', 'object_type_slug', 'list_id'], `
MATCH (t:View {workspace_id: $workspace_id})
WHERE t.deleted_at IS NULL AND ($object_type_slug IS NULL OR t.object_type_slug = $object_type_slug)
  AND ($list_id IS NULL OR t.list_id = $list_id)
RETURN ${VIEW} AS view
ORDER BY t.created_at, t.seq, t.id`);
