import { pagedStatement, statement } from '../statement.ts';

/**
 * The timeline: append-only `:Event` nodes, newest first by id (ids are monotonic, so they sort in
 * the order written). `record_ids` keeps the records an event names, as given; each of them that
 * is a record of the workspace also gets a `(:Event)-[:CONCERNS]->(:Record)` edge, which the
 * per-record timeline walks from the record. `diff` is a JSON string (or null).
 */

export const EVENT = 'e {.id, .workspace_id, .at, .actor_id, .key_id, .via, .tool, .action, .resource_type, .resource_id, .record_ids, .diff}';

/**
 * `$events`: maps of {id, at, actor_id, key_id, via, tool, action, resource_type, resource_id, record_ids,
 * concerns, diff}: the events of a change (one `at`), or a batch of an import (each its own).
 */
export const WRITE_EVENTS = statement('writeEvents', ['workspace_id', 'events'], `
UNWIND $events AS event
CREATE (e:Event {id: event.id, workspace_id: $workspace_id, at: event.at, actor_id: event.actor_id, key_id: event.key_id,
                 via: event.via, tool: event.tool, action: event.action, resource_type: event.resource_type,
                 resource_id: event.resource_id, record_ids: event.record_ids, diff: event.diff})
WITH e, event
UNWIND event.concerns AS record_id
MATCH (r:Record {id: record_id, workspace_id: $workspace_id})
CREATE (e)-[:CONCERNS]->(r)`);

/** Whether the id is a record of the workspace (deleted ones count): its events are reached by edge. */
export const IS_RECORD = statement('isRecord', ['workspace_id', 'id'], `
MATCH (r:Record {id: $id, workspace_id: $workspace_id})
RETURN count(r) > 0 AS found`);

/**
 * Newest first; `$since` ('' for none) keeps only the events after that id, `$before` (NO_BEFORE
 * for none) only those before that one.
 */
const SHAPE = { variable: 'e', returns: `${EVENT} AS event`, orderBy: 'e.id DESC' };

/** `$before` when the caller gave none: above every id (ids are `evt_` and Crockford base32). */
export const NO_BEFORE = '~';

/** A workspace's events. */
export const EVENT_PAGE = pagedStatement('Events', ['workspace_id', 'since', 'before'], `MATCH (e:Event {workspace_id: $workspace_id})
WHERE e.id > $since AND e.id < $before`, SHAPE);

/** The events about one record, walked from the record. */
export const RECORD_EVENT_PAGE = pagedStatement('RecordEvents', ['workspace_id', 'record_id', 'since', 'before'], `MATCH (:Record {id: $record_id, workspace_id: $workspace_id})<-[:CONCERNS]-(e:Event)
WHERE e.id > $since AND e.id < $before`, SHAPE);

/**
 * Events naming an id that is no record of the workspace (there are no edges to walk): found by
 * their `record_ids`, as the SQLite store finds them by its event_records rows.
 */
export const NAMED_EVENT_PAGE = pagedStatement('NamedEvents', ['workspace_id', 'record_id', 'since', 'before'], `MATCH (e:Event {workspace_id: $workspace_id})
WHERE e.id > $since AND e.id < $before AND $record_id IN e.record_ids`, SHAPE);
