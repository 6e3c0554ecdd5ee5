import { listInUse, notFound } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { CrmList, FieldDef } from '../../domain/types.ts';
import type { NewField } from '../../domain/store/port.ts';
import type { ListPatch, NewEvent, NewList } from '../../domain/store/port-work.ts';
import type { Connection, Tx } from './connection.ts';
import * as Q from './cypher/lists.ts';
import { LOCK_OBJECT_TYPE } from './cypher/object-types.ts';
import { requireObjectType } from './object-types.ts';
import { ResourceKind } from './resources.ts';
import { props, toList } from './rows.ts';
import { definedOnly } from './settings.ts';
import { idFor, now } from './stamps.ts';
import { bind } from './statement.ts';
import { writeWithEvents } from './timeline.ts';

/** A list's entry field as stored, exactly as the SQLite store shapes it. */
function toFieldDef(field: NewField, position: number, at: string): FieldDef {
  return {
    id: newId('field'), slug: field.slug, name: field.name, type: field.type, description: field.description ?? null,
    required: field.required ?? false, unique: field.unique ?? false, archived: false, config: field.config ?? {}, position, created_at: at,
  };
}

const LISTS = new ResourceKind(Q.LISTS, 'list', toList);

/** The live list, read inside the caller's transaction; `not_found` otherwise. */
export async function requireList(tx: Tx, workspaceId: string, listId: string): Promise<CrmList> {
  const list = await LISTS.find(tx, workspaceId, listId);
  if (!list) throw notFound('list', listId);
  return list;
}

/** List methods of the Store (entries are in entries.ts). */
export function listMethods(conn: Connection) {
  return {
    /** `not_found` when the object type is not live in the workspace. */
    async createList(workspaceId: string, input: NewList, events: NewEvent[]): Promise<CrmList> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        // The type's lock first, so a concurrent deleteObjectType either sees this list or is seen to have won.
        await tx.rows(bind(LOCK_OBJECT_TYPE, { workspace_id: workspaceId, slug: input.object_type_slug }));
        await requireObjectType(tx, workspaceId, input.object_type_slug);
        const id = idFor('list', input);
        const at = now();
        await tx.rows(bind(Q.CREATE_LIST, {
          workspace_id: workspaceId, id, object_type_slug: input.object_type_slug, name: input.name,
          description: input.description ?? null, fields: JSON.stringify(input.fields.map((field, position) => toFieldDef(field, position, at))),
          created_by: input.created_by, now: at,
        }));
        return (await LISTS.find(tx, workspaceId, id))!;
      });
    },

    getList: (workspaceId: string, listId: string, opts: { includeDeleted?: boolean } = {}): Promise<CrmList | null> =>
      LISTS.get(conn, workspaceId, listId, opts.includeDeleted === true),

    /** Live lists, oldest first (ties in creation order). */
    async listLists(workspaceId: string, opts: { object_type_slug?: string } = {}): Promise<CrmList[]> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.LIST_LISTS, { workspace_id: workspaceId, object_type_slug: opts.object_type_slug ?? null })));
      return rows.map((row) => toList(props(row, 'list')!));
    },

    async updateList(workspaceId: string, listId: string, patch: ListPatch, events: NewEvent[]): Promise<CrmList> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        await LISTS.patch(tx, workspaceId, listId, definedOnly({ name: patch.name, description: patch.description }), now());
        return (await LISTS.find(tx, workspaceId, listId))!;
      });
    },

    /**
     * Soft delete: the entries stay, but neither the list nor its entries are listed any more.
     * `conflict` while live views name the list, counted under the lock the delete takes
     * (createView takes it too).
     */
    deleteList: (workspaceId: string, listId: string, events: NewEvent[]): Promise<CrmList> => LISTS.softDelete(conn, workspaceId, listId, events, async (tx) => {
      const views = Number((await tx.first(bind(Q.COUNT_LIST_VIEWS, { workspace_id: workspaceId, id: listId })))?.views ?? 0);
      if (views > 0) throw listInUse(listId, views);
    }),
  };
}
