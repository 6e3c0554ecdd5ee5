import { statement } from '../statement.ts';

/**
 * Records, their derived nodes (FieldValue, UniqueClaim) and their field relations. A record
 * carries `object_type_id` (what it belongs to; a soft-deleted type's records never leak into a
 * new type reusing the slug) and `object_type_slug` (what callers see).
 */

export const RECORD = 'r {.id, .workspace_id, .object_type_slug, .data, .assignee_id, .created_by, .created_at, .updated_at, .deleted_at}';
/** RECORD of the node bound to `o`. */
const OTHER = RECORD.replace(/^r /, 'o ');

/** `$records`: maps of {id, object_type_id, object_type_slug, data, assignee_id, created_by}; one or a whole batch. */
export const CREATE_RECORDS = statement('createRecords', ['workspace_id', 'records', 'now'], `
UNWIND $records AS rec
CREATE (r:Record {id: rec.id, workspace_id: $workspace_id, object_type_id: rec.object_type_id,
                  object_type_slug: rec.object_type_slug, data: rec.data, assignee_id: rec.assignee_id,
                  created_by: rec.created_by, created_at: $now, updated_at: $now})`);

/**
 * Takes the record's write lock for the rest of the transaction, before a write reads it: a write
 * to a node locks it until commit, and a read after the lock sees the last committed write, so the
 * read, the `unchanged_since` check and the write are one step (Neo4j reads committed data, and
 * two transactions that read a node unlocked could both write it as they read it). The property
 * is set and removed at once; the lock stays.
 */
export const LOCK_RECORD = statement('lockRecord', ['workspace_id', 'id'], `
MATCH (r:Record {id: $id, workspace_id: $workspace_id})
SET r.write_lock = true
REMOVE r.write_lock`);

/** With `object_type_id`: the type the record belongs to. Soft-deleted records included. */
export const GET_RECORD = statement('getRecord', ['workspace_id', 'id'], `
MATCH (r:Record {id: $id, workspace_id: $workspace_id})
RETURN ${RECORD} AS record, r.object_type_id AS object_type_id`);

export const GET_RECORDS = statement('getRecords', ['workspace_id', 'ids'], `
MATCH (r:Record)
WHERE r.id IN $ids AND r.workspace_id = $workspace_id AND r.deleted_at IS NULL
RETURN ${RECORD} AS record`);

/** `$assignee_id` is applied only when `$set_assignee` is true. */
export const UPDATE_RECORD = statement('updateRecord', ['id', 'data', 'set_assignee', 'assignee_id', 'now'], `
MATCH (r:Record {id: $id})
SET r.data = $data, r.updated_at = $now,
    r.assignee_id = CASE WHEN $set_assignee THEN $assignee_id ELSE r.assignee_id END`);

export const MARK_DELETED = statement('markRecordDeleted', ['id', 'now'], `
MATCH (r:Record {id: $id})
SET r.deleted_at = $now, r.updated_at = $now`);

export const MARK_RESTORED = statement('markRecordRestored', ['id', 'now'], `
MATCH (r:Record {id: $id})
SET r.deleted_at = null, r.updated_at = $now`);

export const COUNT_RECORDS = statement('countRecords', ['object_type_id'], `
MATCH (r:Record {object_type_id: $object_type_id})
WHERE r.deleted_at IS NULL
RETURN count(r) AS total`);

// ---- unique claims

/**
 * The positions in `$claims` ({object_type_id, record_id, field, value}) of the claims whose value
 * another record of the type holds.
 */
export const TAKEN_CLAIMS = statement('takenClaims', ['claims'], `
UNWIND range(0, size($claims) - 1) AS i
WITH i, $claims[i] AS claim
MATCH (c:UniqueClaim {object_type_id: claim.object_type_id, field: claim.field, value: claim.value})
WHERE c.record_id <> claim.record_id
RETURN DISTINCT i`);

/** `$claims`: maps of {record_id, field, value}; the record gives the scope. */
export const WRITE_CLAIMS = statement('writeClaims', ['claims'], `
UNWIND $claims AS claim
MATCH (r:Record {id: claim.record_id})
CREATE (:UniqueClaim {workspace_id: r.workspace_id, object_type_id: r.object_type_id, field: claim.field,
                      value: claim.value, record_id: r.id})`);

/** The data of the type's live records, for a field that starts claiming the values they hold. */
export const HELD_VALUES = statement('heldValues', ['object_type_id'], `
MATCH (r:Record {object_type_id: $object_type_id})
WHERE r.deleted_at IS NULL
RETURN r.id AS record_id, r.data AS data`);

/** Every claim of one field of the type: it stops claiming values, or takes them again whole. */
export const RELEASE_FIELD_CLAIMS = statement('releaseFieldClaims', ['object_type_id', 'field'], `
MATCH (c:UniqueClaim {object_type_id: $object_type_id, field: $field})
DELETE c`);

export const RELEASE_CLAIMS = statement('releaseClaims', ['record_id'], `
MATCH (c:UniqueClaim {record_id: $record_id})
DELETE c`);

// ---- value index and search text

/**
 * Cypher that gives the item `r` (a record or a list entry) one FieldValue node for each map
 * ({field, t, lt, n}, see encoding.ts) in the list expression `values`.
 */
export function createValues(values: string): string {
  return `FOREACH (value IN ${values} |
  CREATE (r)-[:HAS_VALUE]->(:FieldValue {workspace_id: r.workspace_id, field: value.field, t: value.t, lt: value.lt,
                                         n: value.n}))`;
}

/** `$records`: maps of {id, values (FieldValue property maps), search_text (may be null)}. */
export const WRITE_INDEX = statement('writeIndex', ['records'], `
UNWIND $records AS rec
MATCH (r:Record {id: rec.id})
SET r.search_text = rec.search_text
${createValues('rec.values')}`);

export const CLEAR_INDEX = statement('clearIndex', ['id'], `
MATCH (r:Record {id: $id})
REMOVE r.search_text
WITH r
OPTIONAL MATCH (r)-[:HAS_VALUE]->(v:FieldValue)
DETACH DELETE v`);

// ---- field relations

/** The `$refs` ({field, to_id}) whose target is not a record of the workspace (deleted ones count). */
export const MISSING_TARGETS = statement('missingTargets', ['workspace_id', 'refs'], `
UNWIND $refs AS ref
OPTIONAL MATCH (t:Record {id: ref.to_id, workspace_id: $workspace_id})
WITH ref, t
WHERE t IS NULL
RETURN ref.field AS field, ref.to_id AS to_id`);

/** Drops the record's field edges that are not among `$refs`; the others keep their created_at. */
export const DROP_FIELD_RELATIONS = statement('dropFieldRelations', ['id', 'refs'], `
MATCH (r:Record {id: $id})-[e:RELATES_TO {source: 'field'}]->(t:Record)
WHERE NOT {field: e.type, to_id: t.id} IN $refs
DELETE e`);

/** `$refs`: maps of {from_id, field, to_id}, distinct; an edge already there is kept. */
export const ADD_FIELD_RELATIONS = statement('addFieldRelations', ['refs', 'now'], `
UNWIND $refs AS ref
MATCH (r:Record {id: ref.from_id})
MATCH (t:Record {id: ref.to_id, workspace_id: r.workspace_id})
WHERE NOT EXISTS { MATCH (r)-[e:RELATES_TO {source: 'field'}]->(t) WHERE e.type = ref.field }
CREATE (r)-[:RELATES_TO {type: ref.field, source: 'field', created_at: $now}]->(t)`);

/** Both directions, other end live; a self-loop is reported once. Sorted by the caller. */
/** Each edge with the live record at its other end, `o` (see RECORD). */
export const GET_RELATIONS = statement('getRelations', ['workspace_id', 'id'], `
MATCH (r:Record {id: $id})-[e:RELATES_TO]->(o:Record)
WHERE o.workspace_id = $workspace_id AND o.deleted_at IS NULL
RETURN {type: e.type, source: e.source, from_id: r.id, from_object: r.object_type_slug, to_id: o.id,
        to_object: o.object_type_slug, created_at: e.created_at} AS relation, ${OTHER} AS other
UNION ALL
MATCH (r:Record {id: $id})<-[e:RELATES_TO]-(o:Record)
WHERE o.workspace_id = $workspace_id AND o.deleted_at IS NULL AND o.id <> r.id
RETURN {type: e.type, source: e.source, from_id: o.id, from_object: o.object_type_slug, to_id: r.id,
        to_object: r.object_type_slug, created_at: e.created_at} AS relation, ${OTHER} AS other`);
