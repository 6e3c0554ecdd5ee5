import { CrmError } from '../../domain/errors.ts';
import type { Relation } from '../../domain/types.ts';
import type { FieldRef } from '../../domain/store/port.ts';
import { insertSql, type Connection } from './connection.ts';
import { logInsertedEdge } from './graph-log.ts';
import { RELATION_COLUMNS } from './rows.ts';

export interface RelationSource {
  id: string;
  workspace_id: string;
  object_type_slug: string;
}

const edgeKey = (field: string, toId: string): string => `${field}\u0000${toId}`;

/** The object type slug of a record of the workspace by id, or undefined when there is none. */
export type TargetLookup = (toId: string) => string | undefined;

/** Looks targets up in the store (soft-deleted records included). */
export function storedTargets(c: Connection, workspaceId: string): TargetLookup {
  return (toId) => c.get<{ object_type_slug: string }>(
    'SELECT object_type_slug FROM records WHERE id = ? AND workspace_id = ?', toId, workspaceId,
  )?.object_type_slug;
}

/**
 * Makes the record's `source: 'field'` edges equal to `refs`: edges that stay keep their
 * created_at, gone ones are deleted, new ones are written. A target must be a record of the same
 * workspace (soft-deleted targets are accepted: the edge is hidden until the target is restored).
 */
export function replaceFieldRelations(c: Connection, from: RelationSource, refs: readonly FieldRef[], at: string): void {
  const wanted = new Map(refs.map((ref) => [edgeKey(ref.field, ref.to_id), ref]));
  const existing = c.all<{ type: string; to_id: string }>(
    "SELECT type, to_id FROM relations WHERE from_id = ? AND source = 'field'", from.id,
  );
  for (const edge of existing) {
    const key = edgeKey(edge.type, edge.to_id);
    if (wanted.has(key)) wanted.delete(key);
    else c.run("DELETE FROM relations WHERE from_id = ? AND source = 'field' AND type = ? AND to_id = ?", from.id, edge.type, edge.to_id);
  }
  const target = storedTargets(c, from.workspace_id);
  for (const ref of wanted.values()) insertFieldRelation(c, from, ref, at, target);
}

/** The field edges of a record that has none yet (a create): each distinct ref once, its target found by `target`. */
export function addFieldRelations(c: Connection, from: RelationSource, refs: readonly FieldRef[], at: string, target: TargetLookup): void {
  const wanted = refs.length > 1 ? new Map(refs.map((ref) => [edgeKey(ref.field, ref.to_id), ref])).values() : refs;
  for (const ref of wanted) insertFieldRelation(c, from, ref, at, target);
}

/** Writes one `source: 'field'` edge; `not_found` naming the field when the target is not a record of the workspace. */
function insertFieldRelation(c: Connection, from: RelationSource, ref: FieldRef, at: string, target: TargetLookup): void {
  const toObject = target(ref.to_id);
  if (toObject === undefined) {
    throw new CrmError('not_found', `The record ${JSON.stringify(ref.to_id)} referenced by ${ref.field} was not found`, {
      param: `data.${ref.field}`, resource: 'record', id: ref.to_id,
    });
  }
  insertRelationRow(c, {
    workspace_id: from.workspace_id, from_id: from.id, to_id: ref.to_id, type: ref.field, source: 'field',
    from_object: from.object_type_slug, to_object: toObject, created_at: at,
  });
}

const INSERT_RELATION = insertSql('relations', `workspace_id, ${RELATION_COLUMNS}`);

/** Writes an edge as given (field edges and load alike) and logs it for the graph caches. */
export function insertRelationRow(c: Connection, rel: Relation & { workspace_id: string }): void {
  c.run(
    INSERT_RELATION,
    rel.workspace_id, rel.type, rel.source, rel.from_id, rel.from_object, rel.to_id, rel.to_object, rel.created_at,
  );
  logInsertedEdge(c, rel.workspace_id, rel.from_id, rel.to_id);
}

/** An edge as `relationsOf` reads it: the columns of RELATION_COLUMNS, in that order. */
export type RelationValues = [
  type: string, source: Relation['source'], from_id: string, from_object: string, to_id: string, to_object: string, created_at: string,
];

const RELATIONS_OF = `SELECT ${RELATION_COLUMNS} FROM relations WHERE from_id = ?
  UNION ALL
  SELECT ${RELATION_COLUMNS} FROM relations WHERE to_id = ? AND from_id <> to_id
  ORDER BY created_at, from_id, type, to_id`;

/**
 * Edges from and to the record, as stored, in stored order: outgoing ones are a range of the
 * primary key, incoming ones a range of `relations_by_to`, which carries every column read here.
 * As arrays: the caller builds its answer's objects from them, once (a row object per edge,
 * then spread into another, was about a third of getRelations in-process). Whether the other
 * end is live, and in the workspace, is the caller's to check.
 */
export function relationsOf(c: Connection, recordId: string): RelationValues[] {
  return c.rows<RelationValues>(RELATIONS_OF, recordId, recordId);
}
