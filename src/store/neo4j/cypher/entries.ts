import { statement } from '../statement.ts';
import { createValues } from './records.ts';

/**
 * List entries: `(:ListEntry {list_id, record_id, data})-[:ENTRY_OF]->(:Record)`, with FieldValue
 * nodes of their data shaped exactly like a record's (`HAS_VALUE`), so the filter translator serves
 * both. `data` is a JSON string; `seq` numbers a list's entries in the order added. Entries are
 * bound to `r`, as records are, for the translator.
 */

export const ENTRY = 'r {.id, .workspace_id, .list_id, .record_id, .data, .created_by, .created_at, .updated_at}';

/**
 * `$entries`: maps of {id, record_id, data, values}, every record already checked to be live.
 * Numbers them after the list's `entry_seq` and moves it on.
 */
export const ADD_ENTRIES = statement('addListEntries', ['list_id', 'entries', 'created_by', 'now'], `
MATCH (l:List {id: $list_id})
SET l.entry_seq = coalesce(l.entry_seq, 0) + size($entries)
WITH l, l.entry_seq - size($entries) AS base
UNWIND range(0, size($entries) - 1) AS i
WITH l, base + i AS seq, $entries[i] AS entry
MATCH (held:Record {id: entry.record_id, workspace_id: l.workspace_id})
CREATE (r:ListEntry {id: entry.id, workspace_id: l.workspace_id, list_id: l.id, record_id: held.id, data: entry.data,
                     created_by: $created_by, seq: seq, created_at: $now, updated_at: $now})
CREATE (r)-[:ENTRY_OF]->(held)
${createValues('entry.values')}`);

export const GET_ENTRY = statement('getListEntry', ['workspace_id', 'id'], `
MATCH (r:ListEntry {id: $id, workspace_id: $workspace_id})
RETURN ${ENTRY} AS entry`);

/** The entries of these records in the list, whatever the state of the records, in the order added. */
export const FIND_ENTRIES = statement('findListEntries', ['workspace_id', 'list_id', 'record_ids'], `
MATCH (r:ListEntry {list_id: $list_id, workspace_id: $workspace_id})
WHERE r.record_id IN $record_ids
RETURN ${ENTRY} AS entry
ORDER BY r.seq, r.id`);

/** Takes the entry's write lock for the rest of the transaction, as LOCK_RECORD does a record's. */
export const LOCK_ENTRY = statement('lockListEntry', ['workspace_id', 'id'], `
MATCH (r:ListEntry {id: $id, workspace_id: $workspace_id})
SET r.write_lock = true
REMOVE r.write_lock`);

/** Replaces the data and its FieldValue nodes. */
export const UPDATE_ENTRY = statement('updateListEntry', ['id', 'data', 'values', 'now'], `
MATCH (r:ListEntry {id: $id})
SET r.data = $data, r.updated_at = $now
WITH r
OPTIONAL MATCH (r)-[:HAS_VALUE]->(old:FieldValue)
WITH r, collect(old) AS olds
FOREACH (stale IN olds | DETACH DELETE stale)
${createValues('$values')}`);

/** Removes the entry for good, with its FieldValue nodes. */
export const REMOVE_ENTRY = statement('removeListEntry', ['id'], `
MATCH (r:ListEntry {id: $id})
OPTIONAL MATCH (r)-[:HAS_VALUE]->(old:FieldValue)
WITH r, collect(old) AS olds
FOREACH (stale IN olds | DETACH DELETE stale)
DETACH DELETE r`);
