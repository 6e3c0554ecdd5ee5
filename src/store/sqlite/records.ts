import { notFound } from '../../domain/errors.ts';
import type { Relation, StoredRecord } from '../../domain/types.ts';
import type { NewRecord, RecordWrite, UniqueClaim } from '../port.ts';
import type { Connection } from './connection.ts';
import { requireObjectType } from './object-types.ts';
import { claimUniques, indexRecord, releaseUniques, unindexRecord } from './record-index.ts';
import { relationsOf, replaceFieldRelations } from './relations.ts';
import { idFor, now, RECORD_COLUMNS, toRecord, type RecordRow } from './rows.ts';

/** Synchronous record methods of the Store: writes keep claims, relations and indexes in step. */
export function recordMethods(c: Connection) {
  const find = (workspaceId: string, recordId: string, includeDeleted = false): RecordRow | undefined =>
    c.get<RecordRow>(
      `SELECT ${RECORD_COLUMNS} FROM records r WHERE r.id = ? AND r.workspace_id = ?${includeDeleted ? '' : ' AND r.deleted_at IS NULL'}`,
      recordId, workspaceId,
    );
  const mustFind = (workspaceId: string, recordId: string, includeDeleted = false): RecordRow => {
    const row = find(workspaceId, recordId, includeDeleted);
    if (!row) throw notFound('record', recordId);
    return row;
  };
  const reread = (row: RecordRow): StoredRecord => toRecord(find(row.workspace_id, row.id, true)!);

  return {
    createRecord(workspaceId: string, input: NewRecord): StoredRecord {
      return c.tx(() => {
        const type = requireObjectType(c, workspaceId, input.object_type_slug);
        const id = idFor('record', input);
        const at = now();
        c.run(
          `INSERT INTO records (id, workspace_id, object_type_pk, object_type_slug, data, assignee_id, created_by, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          id, workspaceId, type.pk, type.slug, JSON.stringify(input.data), input.assignee_id, input.created_by, at, at,
        );
        const row = find(workspaceId, id)!;
        writeDerived(c, row, input, at);
        return toRecord(row);
      });
    },

    getRecord(workspaceId: string, recordId: string, opts: { includeDeleted?: boolean } = {}): StoredRecord | null {
      const row = find(workspaceId, recordId, opts.includeDeleted === true);
      return row ? toRecord(row) : null;
    },

    getRecords(workspaceId: string, recordIds: readonly string[]): StoredRecord[] {
      if (recordIds.length === 0) return [];
      return c.all<RecordRow>(
        `SELECT ${RECORD_COLUMNS} FROM records r
         WHERE r.id IN (SELECT value FROM json_each(?)) AND r.workspace_id = ? AND r.deleted_at IS NULL`,
        JSON.stringify(recordIds), workspaceId,
      ).map(toRecord);
    },

    updateRecord(workspaceId: string, recordId: string, input: RecordWrite & { assignee_id?: string | null }): StoredRecord {
      return c.tx(() => {
        const row = mustFind(workspaceId, recordId);
        const at = now();
        c.run(
          'UPDATE records SET data = ?, assignee_id = ?, updated_at = ? WHERE pk = ?',
          JSON.stringify(input.data), input.assignee_id === undefined ? row.assignee_id : input.assignee_id, at, row.pk,
        );
        releaseUniques(c, row.pk);
        unindexRecord(c, row.pk);
        writeDerived(c, row, input, at);
        return reread(row);
      });
    },

    softDeleteRecord(workspaceId: string, recordId: string): StoredRecord {
      return c.tx(() => {
        const row = mustFind(workspaceId, recordId);
        const at = now();
        c.run('UPDATE records SET deleted_at = ?, updated_at = ? WHERE pk = ?', at, at, row.pk);
        releaseUniques(c, row.pk);
        unindexRecord(c, row.pk);
        return reread(row);
      });
    },

    restoreRecord(workspaceId: string, recordId: string, uniques: UniqueClaim[]): StoredRecord {
      return c.tx(() => {
        const row = mustFind(workspaceId, recordId, true);
        if (row.deleted_at === null) return toRecord(row);
        claimUniques(c, row, uniques);
        c.run('UPDATE records SET deleted_at = NULL, updated_at = ? WHERE pk = ?', now(), row.pk);
        indexRecord(c, row, JSON.parse(row.data) as StoredRecord['data']);
        return reread(row);
      });
    },

    getRelations(workspaceId: string, recordId: string): Relation[] {
      return relationsOf(c, workspaceId, recordId);
    },
  };
}

/** Claims, field relations and index rows of a freshly written record; conflicts roll back the write. */
function writeDerived(c: Connection, row: RecordRow, input: RecordWrite, at: string): void {
  claimUniques(c, row, input.uniques);
  replaceFieldRelations(c, row, input.refs, at);
  indexRecord(c, row, input.data);
}
