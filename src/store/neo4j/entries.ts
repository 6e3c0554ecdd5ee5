import { changedMeanwhile, CrmError, notFound } from '../../domain/errors.ts';
import type { ListEntry, RecordData } from '../../domain/types.ts';
import type { EntryQuery, NewEvent, NewListEntry } from '../../domain/store/port-work.ts';
import { stampAfter } from '../../domain/store/write-stamps.ts';
import { entryConflict, entryTaken } from './conflicts.ts';
import type { Connection, Tx } from './connection.ts';
import * as Q from './cypher/entries.ts';
import { entryListStatements } from './cypher/queries.ts';
import { GET_RECORDS } from './cypher/records.ts';
import { fieldValues } from './encoding.ts';
import { requireList } from './lists.ts';
import { readPage } from './pages.ts';
import { props, toEntry } from './rows.ts';
import { idFor, now } from './stamps.ts';
import { bind } from './statement.ts';
import { writeWithEvents } from './timeline.ts';

async function find(tx: Tx, workspaceId: string, entryId: string): Promise<ListEntry | undefined> {
  const p = props(await tx.first(bind(Q.GET_ENTRY, { workspace_id: workspaceId, id: entryId })), 'entry');
  return p && toEntry(p);
}

async function mustFind(tx: Tx, workspaceId: string, entryId: string): Promise<ListEntry> {
  const entry = await find(tx, workspaceId, entryId);
  if (!entry) throw notFound('list entry', entryId);
  return entry;
}

async function findEntries(tx: Tx, workspaceId: string, listId: string, recordIds: readonly string[]): Promise<ListEntry[]> {
  if (recordIds.length === 0) return [];
  const rows = await tx.rows(bind(Q.FIND_ENTRIES, { workspace_id: workspaceId, list_id: listId, record_ids: [...recordIds] }));
  return rows.map((row) => toEntry(props(row, 'entry')!));
}

/**
 * Checks a batch before anything is written: each record must be a live record of the workspace
 * (`not_found`) and neither in the list already nor twice in the batch (`conflict`); the error
 * names the first failing entry by `entries[<i>].record_id` and `index`.
 */
async function checkBatch(tx: Tx, workspaceId: string, listId: string, entries: readonly NewListEntry[]): Promise<void> {
  const ids = [...new Set(entries.map((entry) => entry.record_id))];
  const live = new Set((await tx.rows(bind(GET_RECORDS, { workspace_id: workspaceId, ids }))).map((row) => String(props(row, 'record')!.id)));
  const taken = new Set((await findEntries(tx, workspaceId, listId, ids)).map((entry) => entry.record_id));
  const batch = new Set<string>();
  entries.forEach(({ record_id: recordId }, index) => {
    const param = `entries[${index}].record_id`;
    if (!live.has(recordId)) {
      throw new CrmError('not_found', `${param}: the record ${JSON.stringify(recordId)} was not found`, { param, index, resource: 'record', id: recordId });
    }
    if (taken.has(recordId) || batch.has(recordId)) throw entryTaken(index, recordId, taken.has(recordId) ? 'already in the list' : 'in this batch twice');
    batch.add(recordId);
  });
}

/** List entry methods of the Store; entry data has FieldValue nodes like a record's (cypher/entries.ts). */
export function entryMethods(conn: Connection) {
  return {
    async addListEntries(workspaceId: string, listId: string, entries: NewListEntry[], createdBy: string | null, events: NewEvent[]): Promise<ListEntry[]> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const list = await requireList(tx, workspaceId, listId);
        await checkBatch(tx, workspaceId, list.id, entries);
        const rows = entries.map((entry) => ({
          id: idFor('entry', entry), record_id: entry.record_id, data: JSON.stringify(entry.data), values: fieldValues(entry.data),
        }));
        if (rows.length === 0) return [];
        await tx.rows(bind(Q.ADD_ENTRIES, { list_id: list.id, entries: rows, created_by: createdBy, now: now() }));
        // The batch's records were in no entry of the list before, so their entries now are the new ones.
        const added = new Map((await findEntries(tx, workspaceId, list.id, rows.map((row) => row.record_id))).map((e) => [e.record_id, e]));
        return rows.map((row) => added.get(row.record_id)!);
      }, entryConflict(entries.map((entry) => entry.record_id)));
    },

    async getListEntry(workspaceId: string, entryId: string): Promise<ListEntry | null> {
      return (await conn.read((tx) => find(tx, workspaceId, entryId))) ?? null;
    },

    /** Whatever the state of the records (and the list): this is for finding duplicates. */
    async findListEntries(workspaceId: string, listId: string, recordIds: readonly string[]): Promise<ListEntry[]> {
      return conn.read((tx) => findEntries(tx, workspaceId, listId, recordIds));
    },

    /** `not_found` when the list is not live. */
    async listEntries(workspaceId: string, listId: string, query: EntryQuery): Promise<{ items: ListEntry[]; total: number }> {
      const { rows, total } = await conn.read(async (tx) => {
        const list = await requireList(tx, workspaceId, listId);
        return readPage(tx, entryListStatements({ list_id: list.id, ...(query.filter ? { filter: query.filter } : {}), sort: query.sort, offset: query.offset, limit: query.limit }));
      });
      return { items: rows.map((row) => toEntry(props(row, 'entry')!)), total };
    },

    async updateListEntry(workspaceId: string, entryId: string, data: RecordData, events: NewEvent[], unchangedSince?: string): Promise<ListEntry> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        await tx.rows(bind(Q.LOCK_ENTRY, { workspace_id: workspaceId, id: entryId }));
        const entry = await mustFind(tx, workspaceId, entryId);
        if (unchangedSince !== undefined && entry.updated_at !== unchangedSince) throw changedMeanwhile('list entry', entryId);
        const at = stampAfter(entry.updated_at, now());
        await tx.rows(bind(Q.UPDATE_ENTRY, { id: entryId, data: JSON.stringify(data), values: fieldValues(data), now: at }));
        return (await find(tx, workspaceId, entryId))!;
      });
    },

    /** A hard delete: the entry and its value nodes go; its history stays on the timeline. */
    async removeListEntry(workspaceId: string, entryId: string, events: NewEvent[]): Promise<ListEntry> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const entry = await mustFind(tx, workspaceId, entryId);
        await tx.rows(bind(Q.REMOVE_ENTRY, { id: entryId }));
        return entry;
      });
    },
  };
}
