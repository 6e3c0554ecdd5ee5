import { changedMeanwhile, CrmError, notFound, recordTypeDeleted } from '../../domain/errors.ts';
import type { ObjectType, RecordData, Relation, StoredRecord } from '../../domain/types.ts';
import { displayName } from '../../domain/fields.ts';
import { claimingFields, claimsOutdated } from '../../domain/fields/record-data.ts';
import type { NewEvent, NewRecord, RecordSummary, RecordUpdate, RelatedRecord, UniqueClaim } from '../../domain/store/port.ts';
import { stampAfter } from '../../domain/store/write-stamps.ts';
import { claimConflict } from './conflicts.ts';
import type { Connection, Tx } from './connection.ts';
import * as Q from './cypher/records.ts';
import { findObjectType, requireObjectType } from './object-types.ts';
import { clearDerived, derivedOf, writeDerived } from './record-derived.ts';
import { props, toRecord, toRelation } from './rows.ts';
import { idFor, now } from './stamps.ts';
import { bind } from './statement.ts';
import { writeWithEvents } from './timeline.ts';

/** A record as read for a write: the stored record and the id of its object type. */
interface Target {
  record: StoredRecord;
  object_type_id: string;
}

async function find(tx: Tx, workspaceId: string, recordId: string, includeDeleted: boolean): Promise<Target | null> {
  const row = await tx.first(bind(Q.GET_RECORD, { workspace_id: workspaceId, id: recordId }));
  const p = props(row, 'record');
  if (!p || (!includeDeleted && p.deleted_at !== null)) return null;
  return { record: toRecord(p), object_type_id: String(row!.object_type_id) };
}

async function require(tx: Tx, workspaceId: string, recordId: string, includeDeleted = false): Promise<Target> {
  const found = await find(tx, workspaceId, recordId, includeDeleted);
  if (!found) throw notFound('record', recordId);
  return found;
}

/** The record as require finds it, read under its write lock (LOCK_RECORD), for a write that follows. */
async function requireLocked(tx: Tx, workspaceId: string, recordId: string, includeDeleted = false): Promise<Target> {
  await tx.rows(bind(Q.LOCK_RECORD, { workspace_id: workspaceId, id: recordId }));
  return require(tx, workspaceId, recordId, includeDeleted);
}

/** The node properties of a new record of the type. */
function newRow(input: NewRecord, type: ObjectType) {
  return {
    id: idFor('record', input), object_type_id: type.id, object_type_slug: type.slug, data: JSON.stringify(input.data),
    assignee_id: input.assignee_id, created_by: input.created_by,
  };
}

/** A failure of the batch's record at `index`, named as the SQLite store names it. */
function inBatch(index: number, error: CrmError): CrmError {
  return new CrmError(error.code, `records[${index}]: ${error.message}`, { ...error.details, index });
}

/** The live object types the inputs name; `not_found` for the first input naming an unknown one. */
async function typesOf(tx: Tx, workspaceId: string, inputs: readonly NewRecord[]): Promise<Map<string, ObjectType>> {
  const types = new Map<string, ObjectType>();
  for (const [index, input] of inputs.entries()) {
    if (types.has(input.object_type_slug)) continue;
    const type = await findObjectType(tx, workspaceId, input.object_type_slug);
    if (!type) throw inBatch(index, notFound('object type', input.object_type_slug));
    types.set(type.slug, type);
  }
  return types;
}

/**
 * Refuses, as changed meanwhile, a write whose claims were worked out from an older read of its
 * object type (claimsOutdated), with the type as this transaction reads it. Under Neo4j's read
 * committed isolation a field patch committing between this read and the write's commit is not
 * seen (docs/neo4j.md); SQLite's writers take turns, so there it is exact.
 */
function assertClaimsCurrent(type: ObjectType, data: RecordData, uniques: readonly UniqueClaim[]): void {
  if (claimsOutdated(claimingFields(type), data, uniques)) throw changedMeanwhile('object type', type.slug);
}

/** Record methods of the Store: writes keep claims, relations and the index in step. */
export function recordMethods(conn: Connection) {
  const reread = async (tx: Tx, target: Target): Promise<StoredRecord> =>
    (await require(tx, target.record.workspace_id, target.record.id, true)).record;

  return {
    async createRecord(workspaceId: string, input: NewRecord, events?: NewEvent[]): Promise<StoredRecord> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const type = await requireObjectType(tx, workspaceId, input.object_type_slug);
        assertClaimsCurrent(type, input.data, input.uniques);
        const row = newRow(input, type);
        const at = now();
        await tx.rows(bind(Q.CREATE_RECORDS, { workspace_id: workspaceId, records: [row], now: at }));
        await writeDerived(tx, [derivedOf(row.id, workspaceId, row.object_type_id, input)], at);
        return (await require(tx, workspaceId, row.id)).record;
      }, claimConflict(input.uniques));
    },

    /** All nodes first, so refs may point at records later in the batch; then claims, relations and index. */
    async createRecords(workspaceId: string, inputs: NewRecord[], events?: NewEvent[]): Promise<number> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        if (inputs.length === 0) return 0;
        const types = await typesOf(tx, workspaceId, inputs);
        for (const [index, input] of inputs.entries()) {
          try {
            assertClaimsCurrent(types.get(input.object_type_slug)!, input.data, input.uniques);
          } catch (error) {
            throw inBatch(index, error as CrmError);
          }
        }
        const rows = inputs.map((input) => newRow(input, types.get(input.object_type_slug)!));
        const at = now();
        await tx.rows(bind(Q.CREATE_RECORDS, { workspace_id: workspaceId, records: rows, now: at }));
        const items = rows.map((row, index) => derivedOf(row.id, workspaceId, row.object_type_id, inputs[index]!));
        await writeDerived(tx, items, at, { problem: inBatch });
        return inputs.length;
      }, claimConflict(inputs.flatMap((input) => input.uniques)));
    },

    async getRecord(workspaceId: string, recordId: string, opts: { includeDeleted?: boolean } = {}): Promise<StoredRecord | null> {
      return (await conn.read((tx) => find(tx, workspaceId, recordId, opts.includeDeleted === true)))?.record ?? null;
    },

    async getRecords(workspaceId: string, recordIds: readonly string[]): Promise<StoredRecord[]> {
      if (recordIds.length === 0) return [];
      const rows = await conn.read((tx) => tx.rows(bind(Q.GET_RECORDS, { workspace_id: workspaceId, ids: [...recordIds] })));
      return rows.map((row) => toRecord(props(row, 'record')!));
    },

    async recordSummaries(workspaceId: string, recordIds: readonly string[]): Promise<RecordSummary[]> {
      if (recordIds.length === 0) return [];
      return conn.read(async (tx) => summariesOf(tx, workspaceId, (await tx.rows(bind(Q.GET_RECORDS, { workspace_id: workspaceId, ids: [...new Set(recordIds)] })))
        .map((row) => toRecord(props(row, 'record')!))));
    },

    async updateRecord(workspaceId: string, recordId: string, input: RecordUpdate, events?: NewEvent[]): Promise<StoredRecord> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const target = await requireLocked(tx, workspaceId, recordId);
        if (input.unchanged_since !== undefined && target.record.updated_at !== input.unchanged_since) throw changedMeanwhile('record', recordId);
        const type = await findObjectType(tx, workspaceId, target.record.object_type_slug);
        if (type?.id === target.object_type_id) assertClaimsCurrent(type, input.data, input.uniques);
        const at = stampAfter(target.record.updated_at, now());
        await tx.rows(bind(Q.UPDATE_RECORD, {
          id: recordId, data: JSON.stringify(input.data), set_assignee: input.assignee_id !== undefined,
          assignee_id: input.assignee_id ?? null, now: at,
        }));
        await clearDerived(tx, recordId);
        await writeDerived(tx, [derivedOf(recordId, workspaceId, target.object_type_id, input)], at, { replaceEdges: true });
        return reread(tx, target);
      }, claimConflict(input.uniques));
    },

    async softDeleteRecord(workspaceId: string, recordId: string, events?: NewEvent[]): Promise<StoredRecord> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const target = await requireLocked(tx, workspaceId, recordId);
        await tx.rows(bind(Q.MARK_DELETED, { id: recordId, now: stampAfter(target.record.updated_at, now()) }));
        await clearDerived(tx, recordId);
        return reread(tx, target);
      });
    },

    async restoreRecord(workspaceId: string, recordId: string, uniques: UniqueClaim[], events?: NewEvent[]): Promise<StoredRecord> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const target = await requireLocked(tx, workspaceId, recordId, true);
        if (target.record.deleted_at === null) return target.record;
        const slug = target.record.object_type_slug;
        const type = await findObjectType(tx, workspaceId, slug);
        if (type?.id !== target.object_type_id) throw recordTypeDeleted(recordId, slug);
        assertClaimsCurrent(type, target.record.data, uniques);
        // Its field edges stayed; its claims and index come back.
        const at = stampAfter(target.record.updated_at, now());
        await writeDerived(tx, [derivedOf(recordId, workspaceId, target.object_type_id, { data: target.record.data, uniques, refs: [] })], at);
        await tx.rows(bind(Q.MARK_RESTORED, { id: recordId, now: at }));
        return reread(tx, target);
      }, claimConflict(uniques));
    },

    async getRelations(workspaceId: string, recordId: string): Promise<RelatedRecord[]> {
      return conn.read(async (tx) => {
        const rows = await tx.rows(bind(Q.GET_RELATIONS, { workspace_id: workspaceId, id: recordId }));
        const others = rows.map((row) => toRecord(props(row, 'other')!));
        const summaries = await summariesOf(tx, workspaceId, others);
        return rows.map((row, i) => ({ ...toRelation(row.relation as Record<string, unknown>), other: summaries[i]! })).sort(byStoredOrder);
      });
    },
  };
}

/** How the records are named in answers (Store recordSummaries), in the same order; their object types are read once each. */
async function summariesOf(tx: Tx, workspaceId: string, records: readonly StoredRecord[]): Promise<RecordSummary[]> {
  const types = new Map<string, ObjectType | null>();
  for (const slug of new Set(records.map((r) => r.object_type_slug))) types.set(slug, await findObjectType(tx, workspaceId, slug));
  return records.map((r) => {
    const type = types.get(r.object_type_slug);
    return Object.freeze({ record_id: r.id, object_type_slug: r.object_type_slug, display_name: type ? displayName(type, r.data) : '' });
  });
}

/** SQLite's `ORDER BY created_at, from_id, type, to_id`, compared as plain strings. */
function byStoredOrder(a: Relation, b: Relation): number {
  for (const key of ['created_at', 'from_id', 'type', 'to_id'] as const) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  return 0;
}
