import { listInUse, notFound } from '../../domain/errors.ts';
import type { CrmList, FieldDef } from '../../domain/types.ts';
import type { ListPatch, NewEvent, NewList } from '../../domain/store/port-work.ts';
import { insertSql, type Connection } from './connection.ts';
import { requireObjectType } from './object-types.ts';
import { json, parseJson, resourceRows, when, whereAll } from './resources.ts';
import { idFor, newFieldDef, now } from './rows.ts';
import { withEvents } from './timeline.ts';

export const LIST_COLUMNS =
  't.pk, t.id, t.workspace_id, t.object_type_slug, t.name, t.description, t.fields, t.created_by, t.created_at, t.updated_at, t.deleted_at';

export interface ListRow extends Omit<CrmList, 'fields'> {
  pk: number;
  fields: string;
}

export function toList(row: ListRow): CrmList {
  const { pk: _pk, ...rest } = row;
  return { ...rest, fields: parseJson<FieldDef[]>(row.fields) };
}

/** Writes a list as given; its entry fields never change after creation, so they live in one JSON column. */
export function insertListRow(c: Connection, list: CrmList): number {
  return Number(c.run(
    insertSql('lists', 'id, workspace_id, object_type_slug, name, description, fields, created_by, created_at, updated_at, deleted_at'),
    list.id, list.workspace_id, list.object_type_slug, list.name, list.description, json(list.fields), list.created_by,
    list.created_at, list.updated_at, list.deleted_at,
  ).lastInsertRowid);
}

/** The live list's row; `not_found` otherwise. */
export function requireList(c: Connection, workspaceId: string, listId: string): ListRow {
  const row = c.get<ListRow>(`SELECT ${LIST_COLUMNS} FROM lists t WHERE t.id = ? AND t.workspace_id = ? AND t.deleted_at IS NULL`, listId, workspaceId);
  if (!row) throw notFound('list', listId);
  return row;
}

/** Synchronous list methods of the Store (entries are in entries.ts). */
export function listMethods(c: Connection) {
  const lists = resourceRows(c, { table: 'lists', kind: 'list', columns: LIST_COLUMNS, toEntity: toList });

  return {
    /** `not_found` when the object type is not live in the workspace. */
    createList(workspaceId: string, input: NewList, events: NewEvent[]): CrmList {
      return withEvents(c, workspaceId, events, () => {
        requireObjectType(c, workspaceId, input.object_type_slug);
        const id = idFor('list', input);
        const at = now();
        insertListRow(c, {
          id, workspace_id: workspaceId, object_type_slug: input.object_type_slug, name: input.name, description: input.description ?? null,
          fields: input.fields.map((field, position) => newFieldDef(field, position, at)), created_by: input.created_by,
          created_at: at, updated_at: at, deleted_at: null,
        });
        return lists.find(workspaceId, id)!;
      });
    },

    getList(workspaceId: string, listId: string, opts: { includeDeleted?: boolean } = {}): CrmList | null {
      return lists.find(workspaceId, listId, opts.includeDeleted === true) ?? null;
    },

    /** Live lists, oldest first (ties in insertion order). */
    listLists(workspaceId: string, opts: { object_type_slug?: string } = {}): CrmList[] {
      const from = whereAll('lists t', [
        { sql: 't.workspace_id = ? AND t.deleted_at IS NULL', params: [workspaceId] },
        when(opts.object_type_slug, 't.object_type_slug = ?'),
      ]);
      return c.all<ListRow>(`SELECT ${LIST_COLUMNS} ${from.sql} ORDER BY t.created_at, t.pk`, ...from.params).map(toList);
    },

    updateList(workspaceId: string, listId: string, patch: ListPatch, events: NewEvent[]): CrmList {
      return lists.update(workspaceId, listId, events, () => ({ name: patch.name, description: patch.description }));
    },

    /** Soft delete: the entries stay, but neither the list nor its entries are listed any more. */
    deleteList(workspaceId: string, listId: string, events: NewEvent[]): CrmList {
      return c.tx(() => {
        // In the write transaction, as objects' delete checks its lists and views.
        const { views } = c.get<{ views: number }>('SELECT COUNT(*) AS views FROM views WHERE workspace_id = ? AND list_id = ? AND deleted_at IS NULL', workspaceId, listId)!;
        if (views > 0 && lists.find(workspaceId, listId)) throw listInUse(listId, views);
        return lists.softDelete(workspaceId, listId, events);
      });
    },
  };
}
