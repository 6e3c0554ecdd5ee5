import { CrmError } from '../../domain/errors.ts';
import type { RecordData } from '../../domain/types.ts';
import type { FieldRef, RecordWrite, UniqueClaim } from '../../domain/store/port.ts';
import { uniqueValueTaken } from './conflicts.ts';
import type { Tx } from './connection.ts';
import * as Q from './cypher/records.ts';
import { fieldValues, searchText } from './encoding.ts';
import { bind } from './statement.ts';

/**
 * The derived nodes and edges of live records: unique claims, field relations (RELATES_TO with
 * source 'field') and the value index (FieldValue nodes, search text). Every helper takes a list,
 * so one record and a whole batch are written by the same statements.
 */

/** A live record about to get its derived nodes: distinct claims and refs, in the order given. */
export interface Derived {
  id: string;
  workspace_id: string;
  object_type_id: string;
  data: RecordData;
  claims: UniqueClaim[];
  refs: FieldRef[];
}

const distinct = <T>(items: readonly T[], key: (item: T) => string): T[] => [...new Map(items.map((item) => [key(item), item])).values()];

export function derivedOf(id: string, workspaceId: string, objectTypeId: string, write: Pick<RecordWrite, 'data' | 'uniques' | 'refs'>): Derived {
  return {
    id, workspace_id: workspaceId, object_type_id: objectTypeId, data: write.data,
    claims: distinct(write.uniques, (c) => `${c.field}\u0000${c.value}`).map((c) => ({ field: c.field, value: c.value })),
    refs: distinct(write.refs, (r) => `${r.field}\u0000${r.to_id}`).map((r) => ({ field: r.field, to_id: r.to_id })),
  };
}

function refNotFound(ref: FieldRef): CrmError {
  return new CrmError('not_found', `The record ${JSON.stringify(ref.to_id)} referenced by ${ref.field} was not found`, {
    param: `data.${ref.field}`, resource: 'record', id: ref.to_id,
  });
}

/**
 * The first reason the records cannot be written, as the SQLite store finds it writing them one
 * by one: for each record in order, its first claim on a value that another record of the type
 * (or an earlier one of these) holds (`conflict`), then its first ref whose target is not a record
 * of the workspace (`not_found`; deleted records and records of these count as there).
 */
async function firstProblem(tx: Tx, items: readonly Derived[]): Promise<{ index: number; error: CrmError } | undefined> {
  const claims = items.flatMap((item) => item.claims.map((c) => ({ object_type_id: item.object_type_id, record_id: item.id, field: c.field, value: c.value })));
  const taken = new Set(claims.length === 0 ? [] : (await tx.rows(bind(Q.TAKEN_CLAIMS, { claims }))).map((row) => Number(row.i)));
  const refs = items.flatMap((item) => item.refs);
  const missing = new Set(refs.length === 0 ? [] : (await tx.rows(bind(Q.MISSING_TARGETS, { workspace_id: items[0]!.workspace_id, refs }))).map((row) => String(row.to_id)));
  const claimed = new Set<string>();
  let position = 0;
  for (const [index, item] of items.entries()) {
    for (const claim of item.claims) {
      const key = `${item.object_type_id}\u0000${claim.field}\u0000${claim.value}`;
      if (taken.has(position++) || claimed.has(key)) return { index, error: uniqueValueTaken(claim.field) };
      claimed.add(key);
    }
    const ref = item.refs.find((r) => missing.has(r.to_id));
    if (ref) return { index, error: refNotFound(ref) };
  }
  return undefined;
}

async function writeClaims(tx: Tx, items: readonly Derived[]): Promise<void> {
  const claims = items.flatMap((item) => item.claims.map((c) => ({ record_id: item.id, field: c.field, value: c.value })));
  if (claims.length > 0) await tx.rows(bind(Q.WRITE_CLAIMS, { claims }));
}

/** Adds the field edges of the records' refs that are not there yet. */
async function addFieldRelations(tx: Tx, items: readonly Derived[], at: string): Promise<void> {
  const refs = items.flatMap((item) => item.refs.map((r) => ({ from_id: item.id, field: r.field, to_id: r.to_id })));
  if (refs.length > 0) await tx.rows(bind(Q.ADD_FIELD_RELATIONS, { refs, now: at }));
}

async function writeIndex(tx: Tx, items: readonly Derived[]): Promise<void> {
  const records = items.map((item) => ({
    id: item.id, values: fieldValues(item.data), search_text: searchText(item.workspace_id, item.object_type_id, item.data),
  }));
  if (records.length > 0) await tx.rows(bind(Q.WRITE_INDEX, { records }));
}

/**
 * Checks and writes the claims, field relations and index of written records (the claims and
 * index of an updated one are cleared first). `problem` words a failure of the record at `index`;
 * `replaceEdges` first drops the field edges a record no longer has (updates; new records have none).
 */
export async function writeDerived(
  tx: Tx, items: readonly Derived[], at: string,
  opts: { problem?: (index: number, error: CrmError) => CrmError; replaceEdges?: boolean } = {},
): Promise<void> {
  const problem = await firstProblem(tx, items);
  if (problem) throw opts.problem ? opts.problem(problem.index, problem.error) : problem.error;
  await writeClaims(tx, items);
  if (opts.replaceEdges) {
    for (const item of items) await tx.rows(bind(Q.DROP_FIELD_RELATIONS, { id: item.id, refs: item.refs }));
  }
  await addFieldRelations(tx, items, at);
  await writeIndex(tx, items);
}

export async function clearDerived(tx: Tx, recordId: string): Promise<void> {
  await tx.rows(bind(Q.RELEASE_CLAIMS, { record_id: recordId }));
  await tx.rows(bind(Q.CLEAR_INDEX, { id: recordId }));
}
