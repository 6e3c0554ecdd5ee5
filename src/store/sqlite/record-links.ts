import { CrmError } from '../../domain/errors.ts';
import type { Connection } from './connection.ts';

/** A join table linking a resource (note, task) to records, in the order the records were given. */
export interface RecordLinks {
  table: 'note_records' | 'task_records' | 'comm_records';
  owner: 'note_id' | 'task_id' | 'comm_id';
}

export const NOTE_LINKS: RecordLinks = { table: 'note_records', owner: 'note_id' };
export const TASK_LINKS: RecordLinks = { table: 'task_records', owner: 'task_id' };
export const COMM_LINKS: RecordLinks = { table: 'comm_records', owner: 'comm_id' };

/**
 * Makes the owner's links equal to `recordIds` (duplicates kept once). Each must be a record of the
 * workspace, live or already linked to the owner (a record in the trash stays on what it was on,
 * so a list sent back as read is taken): otherwise `not_found` naming `record_ids[<i>]`, so
 * nothing links across workspaces or gains a deleted record. The caller provides the transaction.
 */
export function setLinks(c: Connection, links: RecordLinks, workspaceId: string, ownerId: string, recordIds: readonly string[]): void {
  const ids = [...new Set(recordIds)];
  const live = new Set(c.all<{ id: string }>(
    `SELECT id FROM records WHERE id IN (SELECT value FROM json_each(?)) AND workspace_id = ?
       AND (deleted_at IS NULL OR id IN (SELECT record_id FROM ${links.table} WHERE ${links.owner} = ?))`,
    JSON.stringify(ids), workspaceId, ownerId,
  ).map((row) => row.id));
  const missing = recordIds.findIndex((id) => !live.has(id));
  if (missing >= 0) {
    const id = recordIds[missing]!;
    throw new CrmError('not_found', `record_ids[${missing}]: the record ${JSON.stringify(id)} was not found`, {
      param: `record_ids[${missing}]`, resource: 'record', id,
    });
  }
  c.run(`DELETE FROM ${links.table} WHERE ${links.owner} = ?`, ownerId);
  insertLinks(c, links, ownerId, ids);
}

/** Writes the owner's links in the order given (no checks: set and load call it). */
export function insertLinks(c: Connection, links: RecordLinks, ownerId: string, recordIds: readonly string[]): void {
  recordIds.forEach((id, position) => c.run(`INSERT INTO ${links.table} (${links.owner}, record_id, position) VALUES (?, ?, ?)`, ownerId, id, position));
}

/** A select-list column `record_ids`: the JSON array of the linked record ids of the owner `t`, in link order. */
export function linkedIdsColumn(links: RecordLinks): string {
  return `(SELECT json_group_array(l.record_id ORDER BY l.position) FROM ${links.table} l WHERE l.${links.owner} = t.id) AS record_ids`;
}

/** The rows with the ids of their linked records (as linked, deleted records included), in link order. */
export function withLinks<Row extends { id: string }>(c: Connection, links: RecordLinks, rows: readonly Row[]): Array<Row & { record_ids: string[] }> {
  if (rows.length === 0) return [];
  const byOwner = new Map<string, string[]>();
  const found = c.all<{ owner: string; record_id: string }>(
    `SELECT ${links.owner} AS owner, record_id FROM ${links.table}
     WHERE ${links.owner} IN (SELECT value FROM json_each(?)) ORDER BY ${links.owner}, position`,
    JSON.stringify(rows.map((row) => row.id)),
  );
  for (const { owner, record_id } of found) byOwner.set(owner, [...(byOwner.get(owner) ?? []), record_id]);
  return rows.map((row) => ({ ...row, record_ids: byOwner.get(row.id) ?? [] }));
}

/** Condition on alias `t`: the resource is linked to the record. */
export function linkedTo(links: RecordLinks, recordId: string | undefined) {
  return recordId === undefined
    ? undefined
    : { sql: `t.id IN (SELECT ${links.owner} FROM ${links.table} WHERE record_id = ?)`, params: [recordId] };
}
