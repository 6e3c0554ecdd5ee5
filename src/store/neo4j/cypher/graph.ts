import { statement } from '../statement.ts';

/**
 * The relationship graph: links are `RELATES_TO {source: 'link', id, type, properties (JSON),
 * created_by, created_at}` edges beside the field edges; a contact's classification lives on its
 * Record node (`category`, `strength`, `score`, `reasons` (JSON), `classified_at`).
 */

const LINK = `{id: e.id, workspace_id: a.workspace_id, from_id: a.id, to_id: b.id, type: e.type, properties: e.properties,
        created_by: e.created_by, created_at: e.created_at} AS link`;

const GRAPH_RECORD = (v: string) => `{id: ${v}.id, object_type_slug: ${v}.object_type_slug, category: ${v}.category, strength: ${v}.strength}`;

/** The object type of a live record of the workspace (no row: none). */
export const LIVE_RECORD_TYPE = statement('liveRecordType', ['workspace_id', 'id'], `
MATCH (r:Record {id: $id, workspace_id: $workspace_id})
WHERE r.deleted_at IS NULL
RETURN r.object_type_slug AS object_type_slug`);

export const FIND_LINK = statement('findLink', ['workspace_id', 'from_id', 'to_id', 'type'], `
MATCH (a:Record {id: $from_id, workspace_id: $workspace_id})-[e:RELATES_TO {source: 'link', type: $type}]->(b:Record {id: $to_id})
RETURN ${LINK}`);

/** Found through the relationship index on RELATES_TO.id (schema/neo4j/006-graph.cypher). */
export const GET_LINK = statement('getLink', ['workspace_id', 'id'], `
MATCH (a:Record)-[e:RELATES_TO {id: $id}]->(b:Record)
WHERE a.workspace_id = $workspace_id
RETURN ${LINK}`);

export const CREATE_LINK = statement('createLink', ['workspace_id', 'id', 'from_id', 'to_id', 'type', 'properties', 'created_by', 'created_at'], `
MATCH (a:Record {id: $from_id, workspace_id: $workspace_id})
MATCH (b:Record {id: $to_id, workspace_id: $workspace_id})
CREATE (a)-[e:RELATES_TO {id: $id, type: $type, source: 'link', properties: $properties, created_by: $created_by, created_at: $created_at}]->(b)
RETURN e.id AS id`);

/** The bulk path: `$rows` ({id, from_id, to_id, type, properties (JSON), created_by}); existing links and missing ends are skipped. */
export const CREATE_LINKS = statement('createLinks', ['workspace_id', 'rows', 'created_at'], `
UNWIND $rows AS row
MATCH (a:Record {id: row.from_id, workspace_id: $workspace_id})
MATCH (b:Record {id: row.to_id, workspace_id: $workspace_id})
WHERE a <> b AND NOT EXISTS { MATCH (a)-[old:RELATES_TO {source: 'link'}]->(b) WHERE old.type = row.type }
CREATE (a)-[:RELATES_TO {id: row.id, type: row.type, source: 'link', properties: row.properties, created_by: row.created_by, created_at: $created_at}]->(b)
RETURN count(*) AS written`);

export const DELETE_LINK = statement('deleteLink', ['workspace_id', 'id'], `
MATCH (a:Record)-[e:RELATES_TO {id: $id}]->(:Record)
WHERE a.workspace_id = $workspace_id
DELETE e`);

export const HAS_FIELD_EDGE = statement('hasFieldEdge', ['workspace_id', 'from_id', 'to_id', 'type'], `
MATCH (a:Record {id: $from_id, workspace_id: $workspace_id})-[e:RELATES_TO {source: 'field', type: $type}]->(b:Record {id: $to_id})
RETURN count(e) AS n`);

/** One level of a walk: the edges touching `$ids` (either direction) between two live records, with both ends. */
export const EXPAND_GRAPH = statement('expandGraph', ['workspace_id', 'ids'], `
UNWIND $ids AS id
MATCH (r:Record {id: id, workspace_id: $workspace_id})-[e:RELATES_TO]-(o:Record)
WHERE r.deleted_at IS NULL AND o.deleted_at IS NULL AND o.id <> r.id
WITH DISTINCT e, startNode(e) AS a, endNode(e) AS b
RETURN a.id AS source, b.id AS target, e.type AS type, e.source AS origin, ${GRAPH_RECORD('a')} AS a_record, ${GRAPH_RECORD('b')} AS b_record`);

/** The edges whose two ends are among `$ids` (the answer of a walk), walked from each start. */
export const EDGES_AMONG = statement('edgesAmong', ['workspace_id', 'ids'], `
UNWIND $ids AS id
MATCH (a:Record {id: id, workspace_id: $workspace_id})-[e:RELATES_TO]->(b:Record)
WHERE b.id IN $ids AND b.id <> a.id
RETURN a.id AS source, b.id AS target, e.type AS type, e.source AS origin`);

export const GRAPH_RECORDS = statement('graphRecords', ['workspace_id', 'ids'], `
UNWIND $ids AS id
MATCH (r:Record {id: id, workspace_id: $workspace_id})
WHERE r.deleted_at IS NULL
RETURN ${GRAPH_RECORD('r')} AS record`);

/**
 * Live notes (at created_at), tasks (at updated_at) and comms (at `at`) attached to the records;
 * `$comm_kinds` maps the comm kinds that are interactions to their interaction kind (COMM_INTERACTIONS).
 */
export const INTERACTIONS = statement('interactions', ['workspace_id', 'ids', 'comm_kinds'], `
UNWIND $ids AS id
MATCH (r:Record {id: id, workspace_id: $workspace_id})<-[:ABOUT]-(t)
WHERE (t:Note OR t:Task OR (t:Comm AND $comm_kinds[t.kind] IS NOT NULL)) AND t.deleted_at IS NULL
RETURN r.id AS record_id, CASE WHEN t:Note THEN 'notes' WHEN t:Task THEN 'tasks' ELSE $comm_kinds[t.kind] END AS kind,
       CASE WHEN t:Note THEN t.created_at WHEN t:Task THEN t.updated_at ELSE t.at END AS at`);

export const RECORD_IDS_OF = statement('recordIdsOf', ['workspace_id', 'object_type_slug', 'after', 'limit'], `
MATCH (r:Record {workspace_id: $workspace_id, object_type_slug: $object_type_slug})
WHERE r.deleted_at IS NULL AND r.id > $after
RETURN r.id AS id
ORDER BY r.id
LIMIT toInteger($limit)`);

/** `$items`: {record_id, category, strength, score, reasons (JSON), classified_at}. */
export const SAVE_CLASSIFICATIONS = statement('saveClassifications', ['workspace_id', 'items'], `
UNWIND $items AS item
MATCH (r:Record {id: item.record_id, workspace_id: $workspace_id})
SET r.category = item.category, r.strength = item.strength, r.score = toInteger(item.score), r.reasons = item.reasons,
    r.classified_at = item.classified_at`);

const CLASSIFICATION = `{record_id: r.id, workspace_id: r.workspace_id, category: r.category, strength: r.strength, score: r.score,
        reasons: r.reasons, classified_at: r.classified_at} AS classification`;

export const GET_CLASSIFICATIONS = statement('getClassifications', ['workspace_id', 'ids'], `
UNWIND $ids AS id
MATCH (r:Record {id: id, workspace_id: $workspace_id})
WHERE r.classified_at IS NOT NULL
RETURN ${CLASSIFICATION}
ORDER BY r.id`);

/** Dump pages: the workspace's links by id, classified records by id, after the cursor `$after`. */
export const DUMP_LINKS = statement('dumpLinks', ['workspace_id', 'after', 'limit'], `
MATCH (a:Record {workspace_id: $workspace_id})-[e:RELATES_TO {source: 'link'}]->(b:Record)
WHERE e.id > $after
RETURN ${LINK}
ORDER BY e.id
LIMIT toInteger($limit)`);

export const DUMP_CLASSIFICATIONS = statement('dumpClassifications', ['workspace_id', 'after', 'limit'], `
MATCH (r:Record {workspace_id: $workspace_id})
WHERE r.classified_at IS NOT NULL AND r.id > $after
RETURN ${CLASSIFICATION}
ORDER BY r.id
LIMIT toInteger($limit)`);

/** Load: `$rows` are links as dumped (properties as JSON); both ends checked to be records of the workspace. */
export const LOAD_LINKS = statement('loadLinks', ['workspace_id', 'rows'], `
UNWIND $rows AS row
MATCH (a:Record {id: row.from_id, workspace_id: $workspace_id})
MATCH (b:Record {id: row.to_id, workspace_id: $workspace_id})
CREATE (a)-[:RELATES_TO {id: row.id, type: row.type, source: 'link', properties: row.properties, created_by: row.created_by,
                         created_at: row.created_at}]->(b)`);

/** For each of `$rows` ({from_id, to_id}) by position: whether both ends are records of the workspace. */
export const CHECK_LINK_ENDS = statement('checkLinkEnds', ['workspace_id', 'rows'], `
UNWIND range(0, size($rows) - 1) AS i
WITH i, $rows[i] AS row
OPTIONAL MATCH (a:Record {id: row.from_id, workspace_id: $workspace_id})
OPTIONAL MATCH (b:Record {id: row.to_id, workspace_id: $workspace_id})
RETURN i, a IS NOT NULL AS from_found, b IS NOT NULL AS to_found`);
