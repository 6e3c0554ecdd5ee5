import { statement } from '../statement.ts';
import { ABOUT } from './load.ts';
import { linkableRecords, replaceLinks } from './resources.ts';

/**
 * Communications, `(:Comm {kind})-[:ABOUT {position}]->(:Record)`: emails, messages, meetings,
 * tickets, integrations and webhook deliveries share one label and one shape. `data` is a JSON
 * string. Usage counters are `(:Usage {workspace_id, period, style, count})`.
 */

export const COMM = `t {.id, .workspace_id, .kind, .status, .tag, .thread_id, .at, .data, .attempts, .next_attempt_at, .created_by,
   .created_at, .updated_at, .deleted_at, links: [(t)-[a:ABOUT]->(linked:Record) | {position: a.position, id: linked.id}]}`;

/** `$comm`: a map of every property (`data` already JSON), as created or as loaded. */
export const CREATE_COMM = statement('createComm', ['comm'], `
CREATE (t:Comm)
SET t = $comm
RETURN t.id AS id`);

export const COMM_LINKS = { replace: replaceLinks('Comm'), linkable: linkableRecords('Comm') };

export const GET_COMM = statement('getComm', ['workspace_id', 'kind', 'id'], `
MATCH (t:Comm {id: $id, workspace_id: $workspace_id, kind: $kind})
RETURN ${COMM} AS comm`);

/** Sets `$patch` (null removes a property) and updated_at; returns the id. */
export const UPDATE_COMM = statement('updateComm', ['workspace_id', 'kind', 'id', 'patch', 'now'], `
MATCH (t:Comm {id: $id, workspace_id: $workspace_id, kind: $kind})
SET t += $patch, t.updated_at = $now
RETURN t.id AS id`);

/** Live items matching every given criterion (a null parameter is no criterion). */
const MATCHING = `WHERE t.deleted_at IS NULL
  AND ($statuses IS NULL OR t.status IN $statuses)
  AND ($tag IS NULL OR t.tag = $tag)
  AND ($thread_id IS NULL OR t.thread_id = $thread_id)
  AND ($from IS NULL OR t.at >= $from)
  AND ($to IS NULL OR t.at <= $to)
  AND ($record_id IS NULL OR EXISTS { (t)-[:ABOUT]->(:Record {id: $record_id}) })`;
const CRITERIA = ['workspace_id', 'kind', 'statuses', 'tag', 'thread_id', 'from', 'to', 'record_id'] as const;

export const LIST_COMMS_ASC = statement('listCommsAscending', [...CRITERIA, 'offset', 'limit'], `
MATCH (t:Comm {workspace_id: $workspace_id, kind: $kind})
${MATCHING}
RETURN ${COMM} AS comm
ORDER BY t.at, t.id
SKIP toInteger($offset) LIMIT toInteger($limit)`);

export const LIST_COMMS_DESC = statement('listCommsDescending', [...CRITERIA, 'offset', 'limit'], `
MATCH (t:Comm {workspace_id: $workspace_id, kind: $kind})
${MATCHING}
RETURN ${COMM} AS comm
ORDER BY t.at DESC, t.id DESC
SKIP toInteger($offset) LIMIT toInteger($limit)`);

export const COUNT_COMMS = statement('countComms', CRITERIA, `
MATCH (t:Comm {workspace_id: $workspace_id, kind: $kind})
${MATCHING}
RETURN count(t) AS total`);

/**
 * Claims due work in every workspace by moving next_attempt_at to the lease's end. Workspaces take
 * turns: each one's oldest due item (the oldest of those first), then each one's second, and so on.
 */
export const CLAIM_DUE_COMMS = statement('claimDueComms', ['kind', 'statuses', 'now', 'lease_until', 'limit'], `
MATCH (t:Comm {kind: $kind})
WHERE t.next_attempt_at IS NOT NULL AND t.next_attempt_at <= $now AND t.deleted_at IS NULL AND t.status IN $statuses
WITH t ORDER BY t.next_attempt_at, t.id
WITH t.workspace_id AS workspace, collect(t)[..toInteger($limit)] AS due
UNWIND range(0, size(due) - 1) AS turn
WITH due[turn] AS t, turn
ORDER BY turn, t.next_attempt_at, t.id
LIMIT toInteger($limit)
SET t.next_attempt_at = $lease_until
RETURN ${COMM} AS comm`);

export const COMMS_EVERYWHERE = statement('commsEverywhere', ['kind', 'status', 'tag'], `
MATCH (t:Comm {kind: $kind, status: $status, tag: $tag})
WHERE t.deleted_at IS NULL
RETURN ${COMM} AS comm
ORDER BY t.id`);

export const EVENTS_AFTER = statement('eventsAfter', ['workspace_id', 'cursor', 'limit'], `
MATCH (e:Event {workspace_id: $workspace_id})
WHERE e.id > $cursor
RETURN e {.id, .workspace_id, .at, .actor_id, .key_id, .via, .tool, .action, .resource_type, .resource_id, .record_ids, .diff} AS event
ORDER BY e.id
LIMIT toInteger($limit)`);

/** `$counts`: maps of {workspace_id, period, style, count}, added to the stored counts. */
export const ADD_USAGE = statement('addUsage', ['counts'], `
UNWIND $counts AS u
MERGE (n:Usage {workspace_id: u.workspace_id, period: u.period, style: u.style})
ON CREATE SET n.count = 0
SET n.count = n.count + u.count`);

export const GET_USAGE = statement('getUsage', ['workspace_id', 'period'], `
MATCH (n:Usage {workspace_id: $workspace_id, period: $period})
RETURN n.style AS style, n.count AS count`);

/** Every usage counter of a workspace (a few per month), for the dump. */
export const DUMP_USAGE = statement('dumpUsage', ['workspace_id'], `
MATCH (n:Usage {workspace_id: $workspace_id})
RETURN n.workspace_id AS workspace_id, n.period AS period, n.style AS style, n.count AS count
ORDER BY n.period, n.style`);

/** `$rows`: {props (every property, data as JSON), record_ids (distinct, checked)}, as dumped. */
export const LOAD_COMMS = statement('loadComms', ['workspace_id', 'rows'], `
UNWIND $rows AS row
CREATE (t:Comm)
SET t = row.props
${ABOUT}`);

/** `$rows`: usage counters as dumped. */
export const LOAD_USAGE = statement('loadUsage', ['workspace_id', 'rows'], `
UNWIND $rows AS row
CREATE (:Usage {workspace_id: $workspace_id, period: row.period, style: row.style, count: toInteger(row.count)})`);
