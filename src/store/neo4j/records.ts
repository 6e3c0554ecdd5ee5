import { CrmError, notFound } from '../../domain/errors.ts';
import type { RecordData, Relation, StoredRecord } from '../../domain/types.ts';
import type { FieldRef, NewRecord, RecordWrite, UniqueClaim } from '../port.ts';
import { claimConflict, uniqueValueTaken } from './conflicts.ts';
import type { Connection, Tx } from './connection.ts';
import * as Q from './cypher/records.ts';
import { fieldValues, searchText } from './encoding.ts';
import { requireObjectType } from './object-types.ts';
import { props, toRecord, toRelation } from './rows.ts';
import { idFor, now } from './stamps.ts';
import { bind } from './statement.ts';

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

/** Distinct claims, in order: claiming the same value twice is one claim. */
const distinctClaims = (claims: readonly UniqueClaim[]): UniqueClaim[] =>
  [...new Map(claims.map((c) => [`${c.field}\u0000${c.value}`, { field: c.field, value: c.value }])).values()];

/** Claims each unique value for the record; `conflict` naming the first taken field. */
async function claimUniques(tx: Tx, target: Target, uniques: readonly UniqueClaim[]): Promise<void> {
  const claims = distinctClaims(uniques);
  if (claims.length === 0) return;
  const rows = await tx.rows(bind(Q.TAKEN_CLAIMS, { object_type_id: target.object_type_id, record_id: target.record.id, claims }));
  const taken = new Set(rows.map((row) => String(row.field)));
  const first = claims.find((c) => taken.has(c.field));
  if (first) throw uniqueValueTaken(first.field);
  await tx.rows(bind(Q.WRITE_CLAIMS, { record_id: target.record.id, claims }));
}

/** Makes the record's field edges equal to `refs`; a target must be a record of the workspace. */
async function replaceFieldRelations(tx: Tx, target: Target, refs: readonly FieldRef[], at: string): Promise<void> {
  const wanted = [...new Map(refs.map((r) => [`${r.field}\u0000${r.to_id}`, { field: r.field, to_id: r.to_id }])).values()];
  const rows = await tx.rows(bind(Q.MISSING_TARGETS, { workspace_id: target.record.workspace_id, refs: wanted }));
  const missing = wanted.find((ref) => rows.some((row) => row.field === ref.field && row.to_id === ref.to_id));
  if (missing) {
    throw new CrmError('not_found', `The record ${JSON.stringify(missing.to_id)} referenced by ${missing.field} was not found`, {
      param: `data.${missing.field}`, resource: 'record', id: missing.to_id,
    });
  }
  await tx.rows(bind(Q.DROP_FIELD_RELATIONS, { id: target.record.id, refs: wanted }));
  await tx.rows(bind(Q.ADD_FIELD_RELATIONS, { id: target.record.id, refs: wanted, now: at }));
}

async function writeIndex(tx: Tx, target: Target, data: RecordData): Promise<void> {
  const { id, workspace_id } = target.record;
  await tx.rows(bind(Q.WRITE_INDEX, { id, values: fieldValues(data), search_text: searchText(workspace_id, target.object_type_id, data) }));
}

/** Unique claims, field relations and index of a freshly written record, in SQLite's order. */
async function writeDerived(tx: Tx, target: Target, input: RecordWrite, at: string): Promise<void> {
  await claimUniques(tx, target, input.uniques);
  await replaceFieldRelations(tx, target, input.refs, at);
  await writeIndex(tx, target, input.data);
}

async function clearDerived(tx: Tx, recordId: string): Promise<void> {
  await tx.rows(bind(Q.RELEASE_CLAIMS, { record_id: recordId }));
  await tx.rows(bind(Q.CLEAR_INDEX, { id: recordId }));
}

/** Record methods of the Store: writes keep claims, relations and the index in step. */
export function recordMethods(conn: Connection) {
  const reread = async (tx: Tx, target: Target): Promise<StoredRecord> =>
    (await require(tx, target.record.workspace_id, target.record.id, true)).record;

  return {
    async createRecord(workspaceId: string, input: NewRecord): Promise<StoredRecord> {
      return conn.write(async (tx) => {
        const type = await requireObjectType(tx, workspaceId, input.object_type_slug);
        const at = now();
        const id = idFor('record', input);
        await tx.rows(bind(Q.CREATE_RECORD, {
          id, workspace_id: workspaceId, object_type_id: type.id, object_type_slug: type.slug, data: JSON.stringify(input.data),
          assignee_id: input.assignee_id, created_by: input.created_by, now: at,
        }));
        const target = await require(tx, workspaceId, id);
        await writeDerived(tx, target, input, at);
        return target.record;
      }, claimConflict(input.uniques));
    },

    async getRecord(workspaceId: string, recordId: string, opts: { includeDeleted?: boolean } = {}): Promise<StoredRecord | null> {
      return (await conn.read((tx) => find(tx, workspaceId, recordId, opts.includeDeleted === true)))?.record ?? null;
    },

    async getRecords(workspaceId: string, recordIds: readonly string[]): Promise<StoredRecord[]> {
      if (recordIds.length === 0) return [];
      const rows = await conn.read((tx) => tx.rows(bind(Q.GET_RECORDS, { workspace_id: workspaceId, ids: [...recordIds] })));
      return rows.map((row) => toRecord(props(row, 'record')!));
    },

    async updateRecord(workspaceId: string, recordId: string, input: RecordWrite & { assignee_id?: string | null }): Promise<StoredRecord> {
      return conn.write(async (tx) => {
        const target = await require(tx, workspaceId, recordId);
        const at = now();
        await tx.rows(bind(Q.UPDATE_RECORD, {
          id: recordId, data: JSON.stringify(input.data), set_assignee: input.assignee_id !== undefined,
          assignee_id: input.assignee_id ?? null, now: at,
        }));
        await clearDerived(tx, recordId);
        await writeDerived(tx, target, input, at);
        return reread(tx, target);
      }, claimConflict(input.uniques));
    },

    async softDeleteRecord(workspaceId: string, recordId: string): Promise<StoredRecord> {
      return conn.write(async (tx) => {
        const target = await require(tx, workspaceId, recordId);
        await tx.rows(bind(Q.MARK_DELETED, { id: recordId, now: now() }));
        await clearDerived(tx, recordId);
        return reread(tx, target);
      });
    },

    async restoreRecord(workspaceId: string, recordId: string, uniques: UniqueClaim[]): Promise<StoredRecord> {
      return conn.write(async (tx) => {
        const target = await require(tx, workspaceId, recordId, true);
        if (target.record.deleted_at === null) return target.record;
        await claimUniques(tx, target, uniques);
        await tx.rows(bind(Q.MARK_RESTORED, { id: recordId, now: now() }));
        await writeIndex(tx, target, target.record.data);
        return reread(tx, target);
      }, claimConflict(uniques));
    },

    async getRelations(workspaceId: string, recordId: string): Promise<Relation[]> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.GET_RELATIONS, { workspace_id: workspaceId, id: recordId })));
      return rows.map((row) => toRelation(row.relation as Record<string, unknown>)).sort(byStoredOrder);
    },
  };
}

/** SQLite's `ORDER BY created_at, from_id, type, to_id`, compared as plain strings. */
function byStoredOrder(a: Relation, b: Relation): number {
  for (const key of ['created_at', 'from_id', 'type', 'to_id'] as const) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  return 0;
}
