import { statement, type Statement } from '../statement.ts';
import { ENTRY } from './entries.ts';
import { LIST } from './lists.ts';
import { NOTE } from './notes.ts';
import { RETURN_OBJECT_TYPE } from './object-types.ts';
import { RECORD } from './records.ts';
import { API_KEY, USER } from './settings.ts';
import { TASK } from './tasks.ts';
import { EVENT } from './timeline.ts';
import { VIEW } from './views.ts';
import { REPORT } from './reports.ts';
import { COMM } from './comms.ts';

/**
 * Reading a workspace out for `dumpWorkspace` (dump.ts): one page of one kind per statement, in
 * id order after an id cursor (`$after`, '' for the first page), so that each page is a short read
 * transaction of its own and a page never repeats or skips a row because rows before it changed.
 * The projections are those of the normal reads, so the rows map through the same mappers.
 */

export type DumpPage = Statement<'workspace_id' | 'after' | 'limit'>;

/**
 * The page of `label` nodes (bound to `variable`) after the cursor. The page is cut first and
 * projected after, so pattern comprehensions (fields, links) run for the page only.
 */
function page(name: string, label: string, variable: string, returns: string): DumpPage {
  return statement(`dump${name}`, ['workspace_id', 'after', 'limit'], `
MATCH (${variable}:${label} {workspace_id: $workspace_id})
WHERE ${variable}.id > $after
WITH ${variable}
ORDER BY ${variable}.id
LIMIT toInteger($limit)
${returns}
ORDER BY ${variable}.id`);
}

export const DUMP_USERS = page('Users', 'User', 'u', `RETURN ${USER} AS user`);
export const DUMP_API_KEYS = page('ApiKeys', 'ApiKey', 'k', `RETURN ${API_KEY} AS key`);
/** Every object type, deleted ones included, with all its fields (archived ones included). */
export const DUMP_OBJECT_TYPES = page('ObjectTypes', 'ObjectType', 'o', RETURN_OBJECT_TYPE);
/** Every record, soft-deleted ones included. */
export const DUMP_RECORDS = page('Records', 'Record', 'r', `RETURN ${RECORD} AS record`);
export const DUMP_LISTS = page('Lists', 'List', 't', `RETURN ${LIST} AS list`);
export const DUMP_ENTRIES = page('ListEntries', 'ListEntry', 'r', `RETURN ${ENTRY} AS entry`);
export const DUMP_VIEWS = page('Views', 'View', 't', `RETURN ${VIEW} AS view`);
export const DUMP_NOTES = page('Notes', 'Note', 't', `RETURN ${NOTE} AS note`);
export const DUMP_TASKS = page('Tasks', 'Task', 't', `RETURN ${TASK} AS task`);
export const DUMP_REPORTS = page('Reports', 'Report', 't', `RETURN ${REPORT} AS report`);
export const DUMP_EVENTS = page('Events', 'Event', 'e', `RETURN ${EVENT} AS event`);
export const DUMP_COMMS = page('Comms', 'Comm', 't', `RETURN ${COMM} AS comm`);

/**
 * Every field edge (RELATES_TO with source 'field'; links are dumped as link rows) of the workspace, deleted ends included, ordered as SQLite dumps its
 * relations table (from_id, to_id, type, source), after the cursor `($from_id, $to_id, $type,
 * $source)` ('' each for the first page). `from_object`/`to_object` are the ends' object types, as
 * every read of relations has them. The cursor is a key because a record has at most one edge of a
 * type and source to another (field edges are kept distinct, the load refuses twins); graph.link
 * must keep it so for link edges.
 */
export const DUMP_RELATIONS = statement('dumpRelations', ['workspace_id', 'from_id', 'to_id', 'type', 'source', 'limit'], `
MATCH (a:Record {workspace_id: $workspace_id})-[e:RELATES_TO {source: 'field'}]->(b:Record {workspace_id: $workspace_id})
WHERE a.id >= $from_id
  AND (a.id > $from_id OR b.id > $to_id
       OR (b.id = $to_id AND (e.type > $type OR (e.type = $type AND e.source > $source))))
RETURN {type: e.type, source: e.source, from_id: a.id, from_object: a.object_type_slug, to_id: b.id,
        to_object: b.object_type_slug, created_at: e.created_at} AS relation
ORDER BY a.id, b.id, e.type, e.source
LIMIT toInteger($limit)`);
