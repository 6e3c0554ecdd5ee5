import { changedMeanwhile, CrmError, notFound, recordTypeDeleted } from '../../domain/errors.ts';
import type { StoredRecord } from '../../domain/types.ts';
import type { NewEvent, NewRecord, RecordSummary, RecordUpdate, RecordWrite, RelatedRecord, UniqueClaim } from '../../domain/store/port.ts';
import { stampAfter } from '../../domain/store/write-stamps.ts';
import { BLOCK_SHIFT } from './block-cache.ts';
import { insertSql, type Connection } from './connection.ts';
import { translateError } from './errors.ts';
import { graphCache, readSummaries, withGraphLogPaused } from './graph-cache.ts';
import { findObjectType, requireObjectType } from './object-types.ts';
import { assertClaimsCurrent, claimUniques, indexRecord, indexRecords, releaseUniques, unindexRecord, type IndexTarget } from './record-index.ts';
import { addFieldRelations, relationsOf, replaceFieldRelations, storedTargets, type RelationSource, type TargetLookup } from './relations.ts';
import { idFor, now, RECORD_COLUMNS, RECORD_VALUES, recordOf, toRecord, type ObjectTypeRow, type RecordRow, type RecordValues } from './rows.ts';
import { withEvents } from './timeline.ts';

/** A record by id, as an array row (reads) or a row object with its keys (writes), with or without deleted ones. */
const BY_ID = 'FROM records r WHERE r.id = ? AND r.workspace_id = ?';
const GET_RECORD_ANY = `SELECT ${RECORD_VALUES} ${BY_ID}`;
const GET_RECORD_LIVE = `${GET_RECORD_ANY} AND r.deleted_at IS NULL`;
const FIND_ROW_ANY = `SELECT ${RECORD_COLUMNS} ${BY_ID}`;
const FIND_ROW_LIVE = `${FIND_ROW_ANY} AND r.deleted_at IS NULL`;

/** Synchronous record methods of the Store: writes keep claims, relations and indexes in step. */
export function recordMethods(c: Connection) {
  const find = (workspaceId: string, recordId: string, includeDeleted = false): RecordRow | undefined =>
    c.get<RecordRow>(includeDeleted ? FIND_ROW_ANY : FIND_ROW_LIVE, recordId, workspaceId);
  const mustFind = (workspaceId: string, recordId: string, includeDeleted = false): RecordRow => {
    const row = find(workspaceId, recordId, includeDeleted);
    if (!row) throw notFound('record', recordId);
    return row;
  };
  const reread = (row: RecordRow): StoredRecord => toRecord(find(row.workspace_id, row.id, true)!);
  const cache = graphCache(c);
  return {
    createRecord(workspaceId: string, input: NewRecord, events?: NewEvent[]): StoredRecord {
      return withEvents(c, workspaceId, events, () => {
        const at = now();
        const type = requireObjectType(c, workspaceId, input.object_type_slug);
        assertClaimsCurrent(c, type, input.data, input.uniques);
        const written = insertRecord(c, workspaceId, type, input, at);
        writeDerived(c, written, input, at, true);
        return toRecord(find(workspaceId, written.id)!);
      });
    },

    /**
     * All rows first, so refs may point at records later in the batch; then each record's claims
     * and field edges (targets in the batch are known without a lookup); then the value and
     * search index of the whole batch at once (record-index.ts).
     */
    createRecords(workspaceId: string, inputs: NewRecord[], events?: NewEvent[]): number {
      return withEvents(c, workspaceId, events, () => {
        const at = now();
        const types = new Map<string, ObjectTypeRow>();
        const typeOf = (slug: string): ObjectTypeRow => {
          let type = types.get(slug);
          if (!type) types.set(slug, (type = requireObjectType(c, workspaceId, slug)));
          return type;
        };
        const claiming = new Map<number, Set<string>>();
        const written = inputs.map((input, index) => inBatch(index, () => {
          const type = typeOf(input.object_type_slug);
          assertClaimsCurrent(c, type, input.data, input.uniques, claiming);
          return insertRecord(c, workspaceId, type, input, at, false);
        }));
        moveInsertVersions(c, written);
        const inBatchTypes = new Map(written.map((row) => [row.id, row.object_type_slug]));
        const stored = storedTargets(c, workspaceId);
        const target: TargetLookup = (id) => inBatchTypes.get(id) ?? stored(id);
        withGraphLogPaused(c, workspaceId, () => inputs.forEach((input, index) => inBatch(index, () => {
          claimUniques(c, written[index]!, input.uniques);
          addFieldRelations(c, written[index]!, input.refs, at, target);
        })));
        indexRecords(c, written.map((record, index) => ({ record, data: inputs[index]!.data })));
        return inputs.length;
      });
    },

    getRecord(workspaceId: string, recordId: string, opts: { includeDeleted?: boolean } = {}): StoredRecord | null {
      // Every single-record tool reads here: as an array row, by one of two fixed statements.
      const row = c.rows<RecordValues>(opts.includeDeleted === true ? GET_RECORD_ANY : GET_RECORD_LIVE, recordId, workspaceId)[0];
      return row ? recordOf(row) : null;
    },

    getRecords(workspaceId: string, recordIds: readonly string[]): StoredRecord[] {
      if (recordIds.length === 0) return [];
      // As arrays: a walk's answer names up to 1000 records, and a row object each was a fifth of the read.
      return c.rows<RecordValues>(
        `SELECT ${RECORD_VALUES} FROM records r
         WHERE r.id IN (SELECT value FROM json_each(?)) AND r.workspace_id = ? AND r.deleted_at IS NULL`,
        JSON.stringify(recordIds), workspaceId,
      ).map(recordOf);
    },

    /** From the graph cache outside transactions (it reads the records it has not named yet); inside one, SQL. */
    recordSummaries(workspaceId: string, recordIds: readonly string[]): RecordSummary[] {
      if (recordIds.length === 0) return [];
      return cache.usable() ? cache.summaries(workspaceId, recordIds) : readSummaries(c, workspaceId, recordIds);
    },

    /** Inside the write transaction, so the check of `unchanged_since` and the write are one step. */
    updateRecord(workspaceId: string, recordId: string, input: RecordUpdate, events?: NewEvent[]): StoredRecord {
      return withEvents(c, workspaceId, events, () => {
        const row = mustFind(workspaceId, recordId);
        if (input.unchanged_since !== undefined && row.updated_at !== input.unchanged_since) throw changedMeanwhile('record', recordId);
        assertClaimsCurrent(c, { pk: row.object_type_pk, slug: row.object_type_slug }, input.data, input.uniques);
        const at = stampAfter(row.updated_at, now());
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

    softDeleteRecord(workspaceId: string, recordId: string, events?: NewEvent[]): StoredRecord {
      return withEvents(c, workspaceId, events, () => {
        const row = mustFind(workspaceId, recordId);
        const at = stampAfter(row.updated_at, now());
        c.run('UPDATE records SET deleted_at = ?, updated_at = ? WHERE pk = ?', at, at, row.pk);
        releaseUniques(c, row.pk);
        unindexRecord(c, row.pk);
        return reread(row);
      });
    },

    restoreRecord(workspaceId: string, recordId: string, uniques: UniqueClaim[], events?: NewEvent[]): StoredRecord {
      return withEvents(c, workspaceId, events, () => {
        const row = mustFind(workspaceId, recordId, true);
        if (row.deleted_at === null) return toRecord(row);
        if (findObjectType(c, workspaceId, row.object_type_slug)?.pk !== row.object_type_pk) throw recordTypeDeleted(row.id, row.object_type_slug);
        assertClaimsCurrent(c, { pk: row.object_type_pk, slug: row.object_type_slug }, JSON.parse(row.data) as StoredRecord['data'], uniques);
        claimUniques(c, row, uniques);
        c.run('UPDATE records SET deleted_at = NULL, updated_at = ? WHERE pk = ?', stampAfter(row.updated_at, now()), row.pk);
        indexRecord(c, row, JSON.parse(row.data) as StoredRecord['data']);
        return reread(row);
      });
    },

    /**
     * Outside transactions from the graph cache (it keeps a record's edges once read); inside one,
     * or for an id that is no record of the workspace, the edges from SQL, with the other ends'
     * summaries (live records of the workspace only) as recordSummaries gives them.
     */
    getRelations(workspaceId: string, recordId: string): RelatedRecord[] {
      const usable = cache.usable();
      if (usable) {
        const held = cache.relatedRecords(workspaceId, recordId);
        if (held) return held;
      }
      const relations = relationsOf(c, recordId);
      if (relations.length === 0) return [];
      const others = relations.map(([, , fromId, , toId]) => (fromId === recordId ? toId : fromId));
      const live = usable ? cache.summaries(workspaceId, others) : readSummaries(c, workspaceId, others);
      const summaries = new Map(live.map((summary) => [summary.record_id, summary]));
      const out: RelatedRecord[] = [];
      for (let i = 0; i < relations.length; i++) {
        const other = summaries.get(others[i]!);
        if (!other) continue;
        const [type, source, from_id, from_object, to_id, to_object, created_at] = relations[i]!;
        out.push({ type, source, from_id, from_object, to_id, to_object, created_at, other });
      }
      return out;
    },
  };
}

/** What the derived rows of a record need to know about it. */
export type WrittenRecord = IndexTarget & RelationSource;

/**
 * Inserts the row of a new record (its id given or new); the caller writes its derived rows. With
 * `versions` false the caller moves the write versions (moveInsertVersions) before anything reads.
 */
function insertRecord(c: Connection, workspaceId: string, type: ObjectTypeRow, input: NewRecord, at: string, versions = true): WrittenRecord {
  return insertRecordRow(c, type.pk, {
    id: idFor('record', input), workspace_id: workspaceId, object_type_slug: type.slug, data: input.data, assignee_id: input.assignee_id,
    created_by: input.created_by, created_at: at, updated_at: at, deleted_at: null,
  }, versions);
}

const INSERT_RECORD = insertSql('records', 'id, workspace_id, object_type_pk, object_type_slug, data, assignee_id, created_by, created_at, updated_at, deleted_at');

/**
 * Inserts a record's row as given, as a record of the object type with this pk, and moves the
 * write versions (unless `versions` is false, see insertRecord); the caller writes its derived rows.
 */
export function insertRecordRow(c: Connection, objectTypePk: number, record: StoredRecord, versions = true): WrittenRecord {
  const { lastInsertRowid } = c.run(
    INSERT_RECORD,
    record.id, record.workspace_id, objectTypePk, record.object_type_slug, JSON.stringify(record.data), record.assignee_id,
    record.created_by, record.created_at, record.updated_at, record.deleted_at,
  );
  const written = {
    pk: Number(lastInsertRowid), id: record.id, workspace_id: record.workspace_id, object_type_pk: objectTypePk,
    object_type_slug: record.object_type_slug,
  };
  if (versions) moveInsertVersions(c, [written]);
  return written;
}

const MOVE_TYPE_VERSION = 'INSERT INTO record_versions (object_type_pk, version) VALUES (?, 1) ON CONFLICT (object_type_pk) DO UPDATE SET version = version + 1';
const MOVE_BLOCK_VERSION = `INSERT INTO record_block_versions (object_type_pk, block, version) VALUES (?, ?, 1)
  ON CONFLICT (object_type_pk, block) DO UPDATE SET version = version + 1`;

/**
 * Moves the write versions of the object types and pk blocks that inserted records joined
 * (`record_versions` for cached totals, `record_block_versions` for cached aggregations), once
 * each for a batch: a version only has to differ from any a reader kept, and nothing reads
 * between a batch's inserts. Updates and deletes move them by trigger (migrations 10 and 15);
 * inserts did too until migration 27: on a table with foreign keys an AFTER INSERT trigger makes
 * every insert open a statement journal, which made a record's row cost about half as much again.
 */
function moveInsertVersions(c: Connection, written: ReadonlyArray<{ pk: number; object_type_pk: number }>): void {
  const types = new Set<number>();
  const blocks = new Map<string, [number, number]>();
  for (const { pk, object_type_pk: type } of written) {
    types.add(type);
    // As SQL's `pk >> 12`, without JavaScript's 32-bit shift.
    const block = Math.floor(pk / 2 ** BLOCK_SHIFT);
    blocks.set(`${type}:${block}`, [type, block]);
  }
  for (const type of types) c.run(MOVE_TYPE_VERSION, type);
  for (const [type, block] of blocks.values()) c.run(MOVE_BLOCK_VERSION, type, block);
}

/**
 * Claims, field relations and index rows of a freshly written record; conflicts roll back the
 * write. A `fresh` record has no edges yet: its refs are added, not replaced.
 */
function writeDerived(c: Connection, row: WrittenRecord, input: RecordWrite, at: string, fresh = false): void {
  claimUniques(c, row, input.uniques);
  if (fresh) addFieldRelations(c, row, input.refs, at, storedTargets(c, row.workspace_id));
  else replaceFieldRelations(c, row, input.refs, at);
  indexRecord(c, row, input.data);
}

/** Runs the writes of one record of a batch; a failure also names the record's `index` in the batch. */
function inBatch<T>(index: number, write: () => T): T {
  try {
    return write();
  } catch (err) {
    try {
      translateError(err);
    } catch (translated) {
      if (!(translated instanceof CrmError)) throw translated;
      throw new CrmError(translated.code, `records[${index}]: ${translated.message}`, { ...translated.details, index });
    }
  }
}
