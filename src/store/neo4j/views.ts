import type { SavedView } from '../../domain/types.ts';
import type { NewEvent, NewView, ViewPatch } from '../../domain/store/port-work.ts';
import type { Connection } from './connection.ts';
import { LOCK_LIST } from './cypher/lists.ts';
import { LOCK_OBJECT_TYPE } from './cypher/object-types.ts';
import * as Q from './cypher/views.ts';
import { requireList } from './lists.ts';
import { requireObjectType } from './object-types.ts';
import { ResourceKind } from './resources.ts';
import { props, toView } from './rows.ts';
import { definedOnly } from './settings.ts';
import { idFor, now } from './stamps.ts';
import { bind } from './statement.ts';
import { writeWithEvents } from './timeline.ts';

const VIEWS = new ResourceKind(Q.VIEWS, 'view', toView);

/** Filters as stored: a JSON string, or null for none (an absent or null filter object). */
const storedFilters = (filters: Record<string, unknown> | null | undefined): string | null => (filters ? JSON.stringify(filters) : null);

/** Saved-view methods of the Store. */
export function viewMethods(conn: Connection) {
  return {
    /** `not_found` when the object type, or the list given, is not live in the workspace. */
    async createView(workspaceId: string, input: NewView, events: NewEvent[]): Promise<SavedView> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        // The type's and the list's locks first (see createList), so neither is deleted from under the view.
        await tx.rows(bind(LOCK_OBJECT_TYPE, { workspace_id: workspaceId, slug: input.object_type_slug }));
        await requireObjectType(tx, workspaceId, input.object_type_slug);
        const listId = input.list_id ?? null;
        if (listId !== null) {
          await tx.rows(bind(LOCK_LIST, { workspace_id: workspaceId, id: listId }));
          await requireList(tx, workspaceId, listId);
        }
        const id = idFor('view', input);
        await tx.rows(bind(Q.CREATE_VIEW, {
          workspace_id: workspaceId, id, name: input.name, object_type_slug: input.object_type_slug, list_id: listId,
          filters: storedFilters(input.filters), sorts: JSON.stringify(input.sorts ?? []), visible_fields: [...(input.visible_fields ?? [])],
          created_by: input.created_by, now: now(),
        }));
        return (await VIEWS.find(tx, workspaceId, id))!;
      });
    },

    getView: (workspaceId: string, viewId: string): Promise<SavedView | null> => VIEWS.get(conn, workspaceId, viewId),

    /** Live views, oldest first (ties in creation order). */
    async listViews(workspaceId: string, opts: { object_type_slug?: string; list_id?: string } = {}): Promise<SavedView[]> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.LIST_VIEWS, {
        workspace_id: workspaceId, object_type_slug: opts.object_type_slug ?? null, list_id: opts.list_id ?? null,
      })));
      return rows.map((row) => toView(props(row, 'view')!));
    },

    async updateView(workspaceId: string, viewId: string, patch: ViewPatch, events: NewEvent[]): Promise<SavedView> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        await VIEWS.patch(tx, workspaceId, viewId, definedOnly({
          name: patch.name,
          filters: patch.filters === undefined ? undefined : storedFilters(patch.filters),
          sorts: patch.sorts === undefined ? undefined : JSON.stringify(patch.sorts),
          visible_fields: patch.visible_fields === undefined ? undefined : [...patch.visible_fields],
        }), now());
        return (await VIEWS.find(tx, workspaceId, viewId))!;
      });
    },

    deleteView: (workspaceId: string, viewId: string, events: NewEvent[]): Promise<SavedView> => VIEWS.softDelete(conn, workspaceId, viewId, events),
  };
}
