import { changedMeanwhile, CrmError, notFound } from '../../domain/errors.ts';
import type { ListEntry, RecordData } from '../../domain/types.ts';
import type { EntryQuery, NewEvent, NewListEntry } from '../../domain/store/port-work.ts';
import { stampAfter } from '../../domain/store/write-stamps.ts';
import { insertSql, type Connection } from './connection.ts';
import { pageItems } from './item-pages.ts';
import { ENTRIES, ENTRY_COLUMNS } from './items.ts';
import { requireList } from './lists.ts';
import { indexValues, unindexValues, valueRows, writeValueRows, type ValueRow } from './record-index.ts';
import { parseJson } from './resources.ts';
import { idFor, now } from './rows.ts';
import { withEvents } from './timeline.ts';

export interface EntryRow extends Omit<ListEntry, 'data'> {
  pk: number;
  list_pk: number;
  data: string;
}

export function toEntry(row: EntryRow): ListEntry {
  const { pk: _pk, list_pk: _listPk, ...rest } = row;
  return { ...rest, data: parseJson<RecordData>(row.data) };
}

/**
 * Checks a batch before anything is written: each record must be a live record of the workspace
 * (`not_found`) and neither in the list already nor twice in the batch (`conflict`); the error
 * names the first failing entry by `entries[<i>].record_id` and `index`.
 */
function checkBatch(c: Connection, workspaceId: string, listPk: number, entries: readonly NewListEntry[]): void {
  const ids = JSON.stringify(entries.map((entry) => entry.record_id));
  const live = new Set(c.all<{ id: string }>(
    'SELECT id FROM records WHERE id IN (SELECT value FROM json_each(?)) AND workspace_id = ? AND deleted_at IS NULL', ids, workspaceId,
  ).map((row) => row.id));
  const taken = new Set(c.all<{ record_id: string }>(
    'SELECT record_id FROM list_entries WHERE list_pk = ? AND record_id IN (SELECT value FROM json_each(?))', listPk, ids,
  ).map((row) => row.record_id));
  const batch = new Set<string>();
  entries.forEach(({ record_id: recordId }, index) => {
    const param = `entries[${index}].record_id`;
    if (!live.has(recordId)) {
      throw new CrmError('not_found', `${param}: the record ${JSON.stringify(recordId)} was not found`, { param, index, resource: 'record', id: recordId });
    }
    if (taken.has(recordId) || batch.has(recordId)) {
      const where = taken.has(recordId) ? 'already in the list' : 'in this batch twice';
      throw new CrmError('conflict', `${param}: the record ${JSON.stringify(recordId)} is ${where}`, { param, index, record_id: recordId });
    }
    batch.add(recordId);
  });
}

const INSERT_ENTRY = insertSql('list_entries', 'id, workspace_id, list_pk, list_id, record_id, data, created_by, created_at, updated_at');
const MOVE_LIST_VERSION = 'INSERT INTO list_versions (list_pk, version) VALUES (?, 1) ON CONFLICT (list_pk) DO UPDATE SET version = version + 1';

/**
 * Writes an entry as given (a load), in the list with this pk, with its value rows, and moves the
 * list's write version (`list_versions`, which keys its cached entry totals; addListEntries moves
 * it once for its batch). Updates and deletes of entries move it by trigger; inserts do not, since
 * a trigger puts every insert in a statement journal (migration 29).
 */
export function insertEntryRow(c: Connection, listPk: number, entry: ListEntry): void {
  indexValues(c, ENTRIES, insertEntry(c, listPk, entry), listPk, entry.data);
  moveListVersion(c, listPk);
}

/** Inserts an entry's row alone (its data as stored: `json`), returning its pk. */
function insertEntry(c: Connection, listPk: number, entry: ListEntry, json = JSON.stringify(entry.data)): number {
  const { lastInsertRowid } = c.run(
    INSERT_ENTRY,
    entry.id, entry.workspace_id, listPk, entry.list_id, entry.record_id, json, entry.created_by, entry.created_at, entry.updated_at,
  );
  return Number(lastInsertRowid);
}

/** Moves the write version of the list with this pk: a reader's cached totals of it no longer match. */
function moveListVersion(c: Connection, listPk: number): void {
  c.run(MOVE_LIST_VERSION, listPk);
}

/** Synchronous list entry methods of the Store; entry data has its own value index (items.ts ENTRIES). */
export function entryMethods(c: Connection) {
  const find = (workspaceId: string, entryId: string): EntryRow | undefined =>
    c.get<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM list_entries r WHERE r.id = ? AND r.workspace_id = ?`, entryId, workspaceId);
  const mustFind = (workspaceId: string, entryId: string): EntryRow => {
    const row = find(workspaceId, entryId);
    if (!row) throw notFound('list entry', entryId);
    return row;
  };

  return {
    addListEntries(workspaceId: string, listId: string, entries: NewListEntry[], createdBy: string | null, events: NewEvent[]): ListEntry[] {
      return withEvents(c, workspaceId, events, () => {
        const list = requireList(c, workspaceId, listId);
        checkBatch(c, workspaceId, list.pk, entries);
        const at = now();
        // One version move for the whole batch; the value rows of all its entries together, many
        // a statement (writeValueRows). The answer is what was written: each entry's data as the
        // stored JSON text reads back, without reading the rows again.
        if (entries.length > 0) moveListVersion(c, list.pk);
        const values: ValueRow[] = [];
        const written = entries.map((input): ListEntry => {
          const json = JSON.stringify(input.data);
          const entry: ListEntry = {
            id: idFor('entry', input), workspace_id: workspaceId, list_id: list.id, record_id: input.record_id,
            data: parseJson<RecordData>(json), created_by: createdBy, created_at: at, updated_at: at,
          };
          valueRows(values, insertEntry(c, list.pk, entry, json), list.pk, entry.data);
          return entry;
        });
        writeValueRows(c, ENTRIES, values);
        return written;
      });
    },

    getListEntry(workspaceId: string, entryId: string): ListEntry | null {
      const row = find(workspaceId, entryId);
      return row ? toEntry(row) : null;
    },

    /**
     * Whatever the state of the records (and the list): this is for finding duplicates. The list is
     * named by its pk, the first column of `list_entries__record`: by `list_id`, which no index
     * leads with, SQLite skip-scanned that index over every list in the file for each record id
     * (with 251 lists, 14 of the 26 ms of a 100-entry lists.bulk_add_entry).
     */
    findListEntries(workspaceId: string, listId: string, recordIds: readonly string[]): ListEntry[] {
      if (recordIds.length === 0) return [];
      return c.all<EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM list_entries r
         WHERE r.list_pk = (SELECT pk FROM lists WHERE id = ? AND workspace_id = ?) AND r.workspace_id = ?
           AND r.record_id IN (SELECT value FROM json_each(?)) ORDER BY r.pk`,
        listId, workspaceId, workspaceId, JSON.stringify(recordIds),
      ).map(toEntry);
    },

    /** `not_found` when the list is not live. */
    listEntries(workspaceId: string, listId: string, query: EntryQuery): { items: ListEntry[]; total: number } {
      const list = requireList(c, workspaceId, listId);
      const { rows, total } = pageItems<EntryRow>(c, ENTRIES, list.pk, query);
      return { items: rows.map(toEntry), total };
    },

    updateListEntry(workspaceId: string, entryId: string, data: RecordData, events: NewEvent[], unchangedSince?: string): ListEntry {
      return withEvents(c, workspaceId, events, () => {
        const row = mustFind(workspaceId, entryId);
        if (unchangedSince !== undefined && row.updated_at !== unchangedSince) throw changedMeanwhile('list entry', entryId);
        c.run('UPDATE list_entries SET data = ?, updated_at = ? WHERE pk = ?', JSON.stringify(data), stampAfter(row.updated_at, now()), row.pk);
        unindexValues(c, ENTRIES, row.pk);
        indexValues(c, ENTRIES, row.pk, row.list_pk, data);
        return toEntry(find(workspaceId, entryId)!);
      });
    },

    /** A hard delete: the entry and its value rows go; its history stays on the timeline. */
    removeListEntry(workspaceId: string, entryId: string, events: NewEvent[]): ListEntry {
      return withEvents(c, workspaceId, events, () => {
        const row = mustFind(workspaceId, entryId);
        unindexValues(c, ENTRIES, row.pk);
        c.run('DELETE FROM list_entries WHERE pk = ?', row.pk);
        return toEntry(row);
      });
    },
  };
}
