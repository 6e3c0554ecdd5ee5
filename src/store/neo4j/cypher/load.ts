import { statement } from '../statement.ts';
import { createValues } from './records.ts';

/**
 * Writing a dump for `loadDump` (load.ts): one statement per kind, each taking a batch of rows
 * (`$rows`, maps prepared by load.ts) through UNWIND. Every node gets exactly the properties the
 * normal create statement gives it (plus those later writes set: deleted_at, revoked_at, ...), so
 * the rest of the adapter cannot tell a loaded node from a created one; `workspace_id` always comes
 * from `$workspace_id`, so the compensating purge finds every node written. Derived data is
 * rebuilt here the way the write paths build it: FieldValue nodes, search text, unique claims,
 * HAS_FIELD, ENTRY_OF and ABOUT edges. Events are written by the timeline's own WRITE_EVENTS
 * (with their CONCERNS edges), each with the `at` it was dumped with.
 */

/** Whether the workspace id is taken, and whether by an import that is writing it (or was interrupted). */
export const FIND_WORKSPACE = statement('findWorkspaceForLoad', ['id'], `
MATCH (w:Workspace {id: $id})
RETURN w.loading IS NOT NULL AS loading`);

/** The workspace node, hidden (`loading`) until FINISH_LOAD; `seq` as createWorkspace numbers it. */
export const LOAD_WORKSPACE = statement('loadWorkspace', ['workspace'], `
WITH $workspace AS row, COUNT { MATCH (x:Workspace) } AS seq
CREATE (w:Workspace {id: row.id, workspace_id: row.id, name: row.name, plan: row.plan, trial_ends_at: row.trial_ends_at,
                     seq: seq, loading: true, created_at: row.created_at, updated_at: row.updated_at})`);

/** The last write of an import: the workspace becomes visible with everything in it. */
export const FINISH_LOAD = statement('finishLoad', ['id'], `
MATCH (w:Workspace {id: $id})
REMOVE w.loading`);

/** `$rows`: {id, email, email_key, name, role, seq, created_at}. */
export const LOAD_USERS = statement('loadUsers', ['workspace_id', 'rows'], `
UNWIND $rows AS row
CREATE (u:User {id: row.id, workspace_id: $workspace_id, email: row.email, email_key: row.email_key, name: row.name,
                role: row.role, seq: toInteger(row.seq), created_at: row.created_at})`);

/** `$rows`: ApiKey rows with `seq`. */
export const LOAD_API_KEYS = statement('loadApiKeys', ['workspace_id', 'rows'], `
UNWIND $rows AS row
CREATE (k:ApiKey {id: row.id, workspace_id: $workspace_id, user_id: row.user_id, name: row.name, scopes: row.scopes,
                  hash: row.hash, last_four: row.last_four, seq: toInteger(row.seq), created_at: row.created_at,
                  last_used_at: row.last_used_at, revoked_at: row.revoked_at})`);

/** `$rows`: object types with `live_slug` (null once deleted), `seq` and `fields` (config as a JSON string). */
export const LOAD_OBJECT_TYPES = statement('loadObjectTypes', ['workspace_id', 'rows'], `
UNWIND $rows AS row
CREATE (o:ObjectType {id: row.id, workspace_id: $workspace_id, slug: row.slug, live_slug: row.live_slug, name: row.name,
                      icon: row.icon, color: row.color, description: row.description, standard: row.standard,
                      seq: toInteger(row.seq), created_at: row.created_at, updated_at: row.updated_at,
                      deleted_at: row.deleted_at})
FOREACH (f IN row.fields |
  CREATE (o)-[:HAS_FIELD]->(:Field {id: f.id, workspace_id: $workspace_id, object_type_id: o.id, slug: f.slug,
                                    name: f.name, type: f.type, description: f.description, required: f.required,
                                    unique: f.unique, archived: f.archived, config: f.config, position: f.position,
                                    created_at: f.created_at}))`);

/**
 * `$rows`: records with the id of the object type they belong to, `data` as a JSON string, and
 * (live records only) `search_text` and `values`, the FieldValue maps of encoding.ts.
 */
export const LOAD_RECORDS = statement('loadRecords', ['workspace_id', 'rows'], `
UNWIND $rows AS row
CREATE (r:Record {id: row.id, workspace_id: $workspace_id, object_type_id: row.object_type_id,
                  object_type_slug: row.object_type_slug, data: row.data, search_text: row.search_text,
                  assignee_id: row.assignee_id, created_by: row.created_by, created_at: row.created_at,
                  updated_at: row.updated_at, deleted_at: row.deleted_at})
${createValues('row.values')}`);

/**
 * `$claims`: {object_type_id, field, value, record_id} of live records of live object types, in
 * dump order. A value already claimed (by an earlier record: a field made unique after its values
 * were written may hold duplicates) stays with its holder, as SQLite's load keeps the first.
 */
export const LOAD_CLAIMS = statement('loadClaims', ['workspace_id', 'claims'], `
UNWIND $claims AS claim
MERGE (c:UniqueClaim {object_type_id: claim.object_type_id, field: claim.field, value: claim.value})
  ON CREATE SET c.workspace_id = $workspace_id, c.record_id = claim.record_id`);

/** The positions in `$ids` of the ids that are no record of the workspace (deleted records count as there). */
export const MISSING_RECORDS = statement('missingRecordsForLoad', ['workspace_id', 'ids'], `
UNWIND range(0, size($ids) - 1) AS i
WITH i
WHERE NOT EXISTS { MATCH (r:Record {id: $ids[i], workspace_id: $workspace_id}) }
RETURN i`);

/**
 * For each of `$rows` ({from_id, to_id, type, source}) by position: the object types of its ends
 * (null for an end that is no record of the workspace) and how many edges like it exist already.
 */
export const CHECK_RELATIONS = statement('checkRelationsForLoad', ['workspace_id', 'rows'], `
UNWIND range(0, size($rows) - 1) AS i
WITH i, $rows[i] AS row
OPTIONAL MATCH (a:Record {id: row.from_id, workspace_id: $workspace_id})
OPTIONAL MATCH (b:Record {id: row.to_id, workspace_id: $workspace_id})
OPTIONAL MATCH (a)-[e:RELATES_TO {type: row.type, source: row.source}]->(b)
RETURN i, a.object_type_slug AS from_object, b.object_type_slug AS to_object, count(e) AS taken`);

/** `$rows`: {from_id, to_id, type, source, created_at}, both ends checked to be records of the workspace. */
export const LOAD_RELATIONS = statement('loadRelations', ['workspace_id', 'rows'], `
UNWIND $rows AS row
MATCH (a:Record {id: row.from_id, workspace_id: $workspace_id})
MATCH (b:Record {id: row.to_id, workspace_id: $workspace_id})
CREATE (a)-[:RELATES_TO {type: row.type, source: row.source, created_at: row.created_at}]->(b)`);

/** `$rows`: lists with `fields` as a JSON string and `seq`; `entry_seq` is set as their entries arrive. */
export const LOAD_LISTS = statement('loadLists', ['workspace_id', 'rows'], `
UNWIND $rows AS row
CREATE (t:List {id: row.id, workspace_id: $workspace_id, object_type_slug: row.object_type_slug, name: row.name,
                description: row.description, fields: row.fields, created_by: row.created_by, seq: toInteger(row.seq),
                entry_seq: 0, created_at: row.created_at, updated_at: row.updated_at, deleted_at: row.deleted_at})`);

/** `$rows`: entries with `data` as a JSON string, `seq` within their list and `values`; every record checked. */
export const LOAD_ENTRIES = statement('loadListEntries', ['workspace_id', 'rows'], `
UNWIND $rows AS row
MATCH (held:Record {id: row.record_id, workspace_id: $workspace_id})
CREATE (r:ListEntry {id: row.id, workspace_id: $workspace_id, list_id: row.list_id, record_id: held.id, data: row.data,
                     created_by: row.created_by, seq: toInteger(row.seq), created_at: row.created_at,
                     updated_at: row.updated_at})
CREATE (r)-[:ENTRY_OF]->(held)
${createValues('row.values')}`);

/** `$lists`: {id, entry_seq}: how many entries each list has been given so far. */
export const SET_ENTRY_SEQ = statement('setListEntrySeq', ['workspace_id', 'lists'], `
UNWIND $lists AS list
MATCH (t:List {id: list.id, workspace_id: $workspace_id})
SET t.entry_seq = toInteger(list.entry_seq)`);

/** `$rows`: views with `filters` (or null) and `sorts` as JSON strings and `seq`. */
export const LOAD_VIEWS = statement('loadViews', ['workspace_id', 'rows'], `
UNWIND $rows AS row
CREATE (t:View {id: row.id, workspace_id: $workspace_id, name: row.name, object_type_slug: row.object_type_slug,
                list_id: row.list_id, filters: row.filters, sorts: row.sorts, visible_fields: row.visible_fields,
                created_by: row.created_by, seq: toInteger(row.seq), created_at: row.created_at,
                updated_at: row.updated_at, deleted_at: row.deleted_at})`);

/** `$rows`: reports with `config` as a JSON string and `seq`. */
export const LOAD_REPORTS = statement('loadReports', ['workspace_id', 'rows'], `
UNWIND $rows AS row
CREATE (t:Report {id: row.id, workspace_id: $workspace_id, name: row.name, config: row.config, created_by: row.created_by,
                  seq: toInteger(row.seq), created_at: row.created_at, updated_at: row.updated_at, deleted_at: row.deleted_at})`);

/** Gives the owner `t` one ABOUT edge per id of `row.record_ids` (distinct, checked), positions in order. */
export const ABOUT = `WITH t, row
UNWIND range(0, size(row.record_ids) - 1) AS position
MATCH (r:Record {id: row.record_ids[position], workspace_id: $workspace_id})
CREATE (t)-[:ABOUT {position: position}]->(r)`;

export const LOAD_NOTES = statement('loadNotes', ['workspace_id', 'rows'], `
UNWIND $rows AS row
CREATE (t:Note {id: row.id, workspace_id: $workspace_id, kind: row.kind, title: row.title, body: row.body,
                format: row.format, created_by: row.created_by, created_at: row.created_at, updated_at: row.updated_at,
                deleted_at: row.deleted_at})
${ABOUT}`);

export const LOAD_TASKS = statement('loadTasks', ['workspace_id', 'rows'], `
UNWIND $rows AS row
CREATE (t:Task {id: row.id, workspace_id: $workspace_id, title: row.title, body: row.body, status: row.status,
                due_at: row.due_at, assignee_id: row.assignee_id, completed_at: row.completed_at,
                created_by: row.created_by, created_at: row.created_at, updated_at: row.updated_at,
                deleted_at: row.deleted_at})
${ABOUT}`);
