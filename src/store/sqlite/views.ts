import type { SavedView, ViewSort } from '../../domain/types.ts';
import type { NewEvent, NewView, ViewPatch } from '../../domain/store/port-work.ts';
import { insertSql, type Connection } from './connection.ts';
import { requireList } from './lists.ts';
import { requireObjectType } from './object-types.ts';
import { json, parseJson, resourceRows, when, whereAll } from './resources.ts';
import { idFor, now } from './rows.ts';
import { withEvents } from './timeline.ts';

export const VIEW_COLUMNS =
  't.id, t.workspace_id, t.name, t.object_type_slug, t.list_id, t.filters, t.sorts, t.visible_fields, t.created_by, t.created_at, t.updated_at, t.deleted_at';

export interface ViewRow extends Omit<SavedView, 'filters' | 'sorts' | 'visible_fields'> {
  filters: string | null;
  sorts: string;
  visible_fields: string;
}

export function toView(row: ViewRow): SavedView {
  return {
    ...row,
    filters: row.filters === null ? null : parseJson<Record<string, unknown>>(row.filters),
    sorts: parseJson<ViewSort[]>(row.sorts),
    visible_fields: parseJson<string[]>(row.visible_fields),
  };
}

/** Writes a view as given (create and load alike). */
export function insertViewRow(c: Connection, view: SavedView): void {
  c.run(
    insertSql('views', 'id, workspace_id, name, object_type_slug, list_id, filters, sorts, visible_fields, created_by, created_at, updated_at, deleted_at'),
    view.id, view.workspace_id, view.name, view.object_type_slug, view.list_id, view.filters ? json(view.filters) : null,
    json(view.sorts), json(view.visible_fields), view.created_by, view.created_at, view.updated_at, view.deleted_at,
  );
}

/** Synchronous saved-view methods of the Store. */
export function viewMethods(c: Connection) {
  const views = resourceRows(c, { table: 'views', kind: 'view', columns: VIEW_COLUMNS, toEntity: toView });

  return {
    /** `not_found` when the object type, or the list given, is not live in the workspace. */
    createView(workspaceId: string, input: NewView, events: NewEvent[]): SavedView {
      return withEvents(c, workspaceId, events, () => {
        requireObjectType(c, workspaceId, input.object_type_slug);
        const listId = input.list_id ?? null;
        if (listId !== null) requireList(c, workspaceId, listId);
        const id = idFor('view', input);
        const at = now();
        insertViewRow(c, {
          id, workspace_id: workspaceId, name: input.name, object_type_slug: input.object_type_slug, list_id: listId,
          filters: input.filters ?? null, sorts: input.sorts ?? [], visible_fields: input.visible_fields ?? [], created_by: input.created_by,
          created_at: at, updated_at: at, deleted_at: null,
        });
        return views.find(workspaceId, id)!;
      });
    },

    getView(workspaceId: string, viewId: string): SavedView | null {
      return views.find(workspaceId, viewId) ?? null;
    },

    /** Live views, oldest first (ties in insertion order). */
    listViews(workspaceId: string, opts: { object_type_slug?: string; list_id?: string } = {}): SavedView[] {
      const from = whereAll('views t', [
        { sql: 't.workspace_id = ? AND t.deleted_at IS NULL', params: [workspaceId] },
        when(opts.object_type_slug, 't.object_type_slug = ?'),
        when(opts.list_id, 't.list_id = ?'),
      ]);
      return c.all<ViewRow>(`SELECT ${VIEW_COLUMNS} ${from.sql} ORDER BY t.created_at, t.rowid`, ...from.params).map(toView);
    },

    updateView(workspaceId: string, viewId: string, patch: ViewPatch, events: NewEvent[]): SavedView {
      return views.update(workspaceId, viewId, events, () => ({
        name: patch.name,
        filters: patch.filters === undefined ? undefined : patch.filters ? json(patch.filters) : null,
        sorts: patch.sorts === undefined ? undefined : json(patch.sorts),
        visible_fields: patch.visible_fields === undefined ? undefined : json(patch.visible_fields),
      }));
    },

    deleteView(workspaceId: string, viewId: string, events: NewEvent[]): SavedView {
      return views.softDelete(workspaceId, viewId, events);
    },
  };
}
