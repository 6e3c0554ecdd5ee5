import { statement, type Statement } from '../statement.ts';

/**
 * The soft-deletable resources of a workspace addressed by a public id (lists, views, notes,
 * tasks) share three statements, made here per label. Labels and projections come from code,
 * never from data. Every resource is bound to `t`.
 */
export type ResourceLabel = 'List' | 'View' | 'Note' | 'Task' | 'Report';

export interface ResourceStatements {
  /** The resource, soft-deleted or not, as `<projection> AS resource`. */
  get: Statement<'workspace_id' | 'id'>;
  /** Sets `$patch` (null removes a property) and updated_at on a live resource; returns its id. */
  update: Statement<'workspace_id' | 'id' | 'patch' | 'now'>;
  /** Soft delete of a live resource; returns its id. */
  remove: Statement<'workspace_id' | 'id' | 'now'>;
}

export function resourceStatements(label: ResourceLabel, projection: string): ResourceStatements {
  const live = `MATCH (t:${label} {id: $id, workspace_id: $workspace_id})\nWHERE t.deleted_at IS NULL`;
  return {
    get: statement(`get${label}`, ['workspace_id', 'id'], `
MATCH (t:${label} {id: $id, workspace_id: $workspace_id})
RETURN ${projection} AS resource`),
    update: statement(`update${label}`, ['workspace_id', 'id', 'patch', 'now'], `
${live}
SET t += $patch, t.updated_at = $now
RETURN t.id AS id`),
    remove: statement(`delete${label}`, ['workspace_id', 'id', 'now'], `
${live}
SET t.deleted_at = $now, t.updated_at = $now
RETURN t.id AS id`),
  };
}

/**
 * A note's or task's linked records, `(t)-[:ABOUT {position}]->(:Record)`, in a projection: the
 * ids with their positions (deleted records included, as linked), put in order by rows.ts.
 */
export const LINKED = 'links: [(t)-[a:ABOUT]->(linked:Record) | {position: a.position, id: linked.id}]';

/**
 * Of `$ids`, those a Note, Task or Comm may be linked to: records of the workspace, live or already
 * linked to it (a record in the trash stays on what it was on).
 */
export function linkableRecords(label: 'Note' | 'Task' | 'Comm'): Statement<'workspace_id' | 'id' | 'ids'> {
  return statement(`linkable${label}Records`, ['workspace_id', 'id', 'ids'], `
MATCH (r:Record)
WHERE r.id IN $ids AND r.workspace_id = $workspace_id
  AND (r.deleted_at IS NULL OR EXISTS { MATCH (:${label} {id: $id})-[:ABOUT]->(r) })
RETURN r.id AS id`);
}

/** Makes the owner's (note, task, comm) ABOUT edges equal to `$record_ids` (distinct, already checked), positions in order. */
export function replaceLinks(label: 'Note' | 'Task' | 'Comm'): Statement<'id' | 'record_ids'> {
  return statement(`replace${label}Links`, ['id', 'record_ids'], `
MATCH (t:${label} {id: $id})
OPTIONAL MATCH (t)-[old:ABOUT]->(:Record)
WITH t, collect(old) AS olds
FOREACH (edge IN olds | DELETE edge)
WITH t
UNWIND range(0, size($record_ids) - 1) AS position
MATCH (r:Record {id: $record_ids[position], workspace_id: t.workspace_id})
CREATE (t)-[:ABOUT {position: position}]->(r)`);
}
