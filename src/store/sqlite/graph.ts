import { CrmError } from '../../domain/errors.ts';
import { COMM_INTERACTIONS } from '../../domain/graph/scoring.ts';
import type { Category, Classification, GraphEdge, GraphRecord, Interaction, Link, Strength } from '../../domain/graph/types.ts';
import type { GraphView } from '../../domain/graph/view.ts';
import type { NewEvent } from '../../domain/store/port-work.ts';
import type { NewLink } from '../../domain/store/port-graph.ts';
import { insertSql, type Connection } from './connection.ts';
import { graphCache, liveGraphRecords, withGraphLogPaused } from './graph-cache.ts';
import { logInsertedEdge } from './graph-log.ts';
import { idFor, now } from './rows.ts';
import { withEvents } from './timeline.ts';

/** Links are rows of `relations` with source 'link' (migration 7). */
export const LINK_COLUMNS = 'link_id AS id, workspace_id, from_id, to_id, type, properties, created_by, created_at';
export type LinkRow = Omit<Link, 'properties'> & { properties: string | null };

export const toLink = (row: LinkRow): Link => ({ ...row, properties: row.properties ? JSON.parse(row.properties) as Record<string, unknown> : {} });

export const CLASSIFICATION_COLUMNS = 'record_id, workspace_id, category, strength, score, reasons, classified_at';
export type ClassificationRow = Omit<Classification, 'reasons'> & { reasons: string };
export const toClassification = (row: ClassificationRow): Classification => ({ ...row, reasons: JSON.parse(row.reasons) as Classification['reasons'] });

/** An edge of expandGraph with the GraphRecord of each end: source, target, type, origin, then (type, category, strength) of each end. */
type ExpandRow = [string, string, string, GraphEdge['origin'], string, Category | null, Strength | null, string, Category | null, Strength | null];
const EXPAND_COLUMNS = 'rel.from_id, rel.to_id, rel.type, rel.source, a.object_type_slug, ka.category, ka.strength, b.object_type_slug, kb.category, kb.strength';

/** A JSON array parameter read with json_each, so one statement takes any number of ids. */
const ids = (values: readonly string[]): string => JSON.stringify([...new Set(values)]);

/** Writes a link row as given (create and load alike). */
export function insertLinkRow(c: Connection, link: Link, fromObject: string, toObject: string): void {
  c.run(
    insertSql('relations', 'workspace_id, type, source, from_id, from_object, to_id, to_object, created_at, link_id, properties, created_by'),
    link.workspace_id, link.type, 'link', link.from_id, fromObject, link.to_id, toObject, link.created_at, link.id,
    JSON.stringify(link.properties), link.created_by,
  );
  logInsertedEdge(c, link.workspace_id, link.from_id, link.to_id);
}

/** Writes a classification row, replacing the contact's previous one (save and load alike). */
export function upsertClassification(c: Connection, item: Classification): void {
  c.run(
    `INSERT OR REPLACE INTO contact_classifications (${CLASSIFICATION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    item.record_id, item.workspace_id, item.category, item.strength, item.score, JSON.stringify(item.reasons), item.classified_at,
  );
}

/** Synchronous graph methods of the Store: links, one-level expansions, interactions, classifications. */
export function graphMethods(c: Connection) {
  const cache = graphCache(c);
  const liveType = (workspaceId: string, id: string, param: string): string => {
    const row = c.get<{ object_type_slug: string }>(
      'SELECT object_type_slug FROM records WHERE id = ? AND workspace_id = ? AND deleted_at IS NULL', id, workspaceId,
    );
    if (!row) throw new CrmError('not_found', `${param}: the record ${JSON.stringify(id)} was not found`, { param, resource: 'record', id });
    return row.object_type_slug;
  };
  const findLink = (workspaceId: string, fromId: string, toId: string, type: string): Link | null => {
    const row = c.get<LinkRow>(
      `SELECT ${LINK_COLUMNS} FROM relations WHERE from_id = ? AND source = 'link' AND type = ? AND to_id = ? AND workspace_id = ?`,
      fromId, type, toId, workspaceId,
    );
    return row ? toLink(row) : null;
  };
  const getLink = (workspaceId: string, linkId: string): Link | null => {
    const row = c.get<LinkRow>(`SELECT ${LINK_COLUMNS} FROM relations WHERE link_id = ? AND workspace_id = ?`, linkId, workspaceId);
    return row ? toLink(row) : null;
  };

  /** One index range scan per from id (from_id leads the key); the other end is checked against `toIds`. */
  const outgoingAmong = (workspaceId: string, fromIds: readonly string[], toIds: readonly string[]): GraphEdge[] => c.all<GraphEdge>(
    `WITH f(id) AS (SELECT value FROM json_each(?))
     SELECT rel.from_id AS source, rel.to_id AS target, rel.type, rel.source AS origin FROM f JOIN relations rel ON rel.from_id = f.id
     WHERE rel.workspace_id = ? AND rel.to_id <> rel.from_id AND rel.to_id IN (SELECT value FROM json_each(?))`,
    ids(fromIds), workspaceId, ids(toIds),
  );

  return {
    createLink(workspaceId: string, input: NewLink, events: NewEvent[]): { link: Link; created: boolean } {
      return c.tx(() => {
        const fromObject = liveType(workspaceId, input.from_id, 'from_record_id');
        const toObject = liveType(workspaceId, input.to_id, 'to_record_id');
        const existing = findLink(workspaceId, input.from_id, input.to_id, input.type);
        if (existing) return { link: existing, created: false };
        return withEvents(c, workspaceId, events, () => {
          const link: Link = {
            id: idFor('relation', input), workspace_id: workspaceId, from_id: input.from_id, to_id: input.to_id, type: input.type,
            properties: input.properties, created_by: input.created_by, created_at: now(),
          };
          insertLinkRow(c, link, fromObject, toObject);
          return { link, created: true };
        });
      });
    },

    /**
     * The ends' object types come from one lookup for the whole batch; the rows then go in
     * relations_by_to order (the primary key side is usually the batch's own new records, already
     * close together), so a large graph's index is walked once per batch, not a random page per link.
     */
    createLinks(workspaceId: string, inputs: readonly NewLink[]): number {
      return c.tx(() => {
        const ends = new Map(c.all<{ id: string; object_type_slug: string }>(
          'SELECT id, object_type_slug FROM records WHERE id IN (SELECT value FROM json_each(?)) AND workspace_id = ?',
          ids(inputs.flatMap((input) => [input.from_id, input.to_id])), workspaceId,
        ).map((row) => [row.id, row.object_type_slug]));
        const rows = inputs.filter((input) => input.from_id !== input.to_id && ends.has(input.from_id) && ends.has(input.to_id));
        rows.sort((a, b) => (a.to_id < b.to_id ? -1 : a.to_id > b.to_id ? 1 : 0));
        const insert = c.stmt(`INSERT OR IGNORE INTO relations (workspace_id, type, source, from_id, from_object, to_id, to_object, created_at, link_id, properties, created_by)
           VALUES (?, ?, 'link', ?, ?, ?, ?, ?, ?, ?, ?)`);
        const at = now();
        return withGraphLogPaused(c, workspaceId, () => {
          let written = 0;
          for (const input of rows) {
            // The log is paused: the whole workspace is logged once at the end (no logInsertedEdge per row).
            written += insert.run(
              workspaceId, input.type, input.from_id, ends.get(input.from_id)!, input.to_id, ends.get(input.to_id)!, at, idFor('relation', input),
              JSON.stringify(input.properties), input.created_by,
            ).changes;
          }
          return written;
        });
      });
    },

    getLink,
    findLink,

    hasFieldEdge(workspaceId: string, fromId: string, toId: string, type: string): boolean {
      return !!c.get(
        "SELECT 1 FROM relations WHERE from_id = ? AND source = 'field' AND type = ? AND to_id = ? AND workspace_id = ?",
        fromId, type, toId, workspaceId,
      );
    },

    deleteLink(workspaceId: string, linkId: string, events: NewEvent[]): Link {
      return withEvents(c, workspaceId, events, () => {
        const link = getLink(workspaceId, linkId);
        if (!link) throw new CrmError('not_found', `link_id ${JSON.stringify(linkId)}: no such link`, { param: 'link_id', resource: 'link', id: linkId });
        c.run('DELETE FROM relations WHERE link_id = ?', linkId);
        return link;
      });
    },

    /**
     * From the graph cache (graph-cache.ts) outside transactions; inside one, from SQL:
     * two index range scans per frontier id (from_id leads the primary key, to_id relations_by_to,
     * which covers from_id, type and source); an edge met from both ends is read once, on its
     * from side. Each end's liveness, workspace, object type and classification come from
     * records_live_graph and contact_classifications in the same statement, so the records of the
     * answer need no second read; the workspace is checked on the records, not on each relation.
     */
    expandGraph(workspaceId: string, recordIds: readonly string[]): { edges: GraphEdge[]; records: GraphRecord[] } {
      if (cache.usable()) return cache.expand(workspaceId, recordIds);
      const ends = `
          JOIN records a ON a.id = rel.from_id AND a.workspace_id = ? AND a.deleted_at IS NULL
          JOIN records b ON b.id = rel.to_id AND b.workspace_id = ? AND b.deleted_at IS NULL
          LEFT JOIN contact_classifications ka ON ka.record_id = rel.from_id
          LEFT JOIN contact_classifications kb ON kb.record_id = rel.to_id`;
      const rows = c.rows<ExpandRow>(
        `WITH f(id) AS (SELECT value FROM json_each(?))
         SELECT ${EXPAND_COLUMNS} FROM f JOIN relations rel ON rel.from_id = f.id ${ends}
         WHERE rel.to_id <> rel.from_id
         UNION ALL
         SELECT ${EXPAND_COLUMNS} FROM f JOIN relations rel ON rel.to_id = f.id ${ends}
         WHERE rel.from_id NOT IN (SELECT id FROM f) AND rel.to_id <> rel.from_id`,
        ids(recordIds), workspaceId, workspaceId, workspaceId, workspaceId,
      );
      const edges: GraphEdge[] = [];
      const records = new Map<string, GraphRecord>();
      for (const [source, target, type, origin, sourceType, sourceCategory, sourceStrength, targetType, targetCategory, targetStrength] of rows) {
        edges.push({ source, target, type, origin });
        if (!records.has(source)) records.set(source, { id: source, object_type_slug: sourceType, category: sourceCategory, strength: sourceStrength });
        if (!records.has(target)) records.set(target, { id: target, object_type_slug: targetType, category: targetCategory, strength: targetStrength });
      }
      return { edges, records: [...records.values()] };
    },

    /** The graph cache's view outside transactions; inside one, null (the walk reads SQL, which sees the open transaction). */
    graphView(workspaceId: string): GraphView | null {
      return cache.usable() ? cache.view(workspaceId) : null;
    },

    graphRecords(workspaceId: string, recordIds: readonly string[]): GraphRecord[] {
      return liveGraphRecords(c, workspaceId, recordIds);
    },

    /** Through the graph cache outside transactions (it reads the adjacency of records it has not cached); inside one, SQL. */
    edgesAmong(workspaceId: string, recordIds: readonly string[]): GraphEdge[] {
      if (cache.usable()) return cache.among(workspaceId, recordIds);
      return outgoingAmong(workspaceId, recordIds, recordIds);
    },

    interactions(workspaceId: string, recordIds: readonly string[]): Interaction[] {
      return c.all<Interaction>(
        `SELECT l.record_id, 'notes' AS kind, n.created_at AS at FROM note_records l JOIN notes n ON n.id = l.note_id
           WHERE l.record_id IN (SELECT value FROM json_each(?)) AND n.workspace_id = ? AND n.deleted_at IS NULL
         UNION ALL
         SELECT l.record_id, 'tasks' AS kind, t.updated_at AS at FROM task_records l JOIN tasks t ON t.id = l.task_id
           WHERE l.record_id IN (SELECT value FROM json_each(?)) AND t.workspace_id = ? AND t.deleted_at IS NULL
         UNION ALL
         SELECT l.record_id, k.value AS kind, m.at FROM comm_records l JOIN comms m ON m.id = l.comm_id JOIN json_each(?) k ON k.key = m.kind
           WHERE l.record_id IN (SELECT value FROM json_each(?)) AND m.workspace_id = ? AND m.deleted_at IS NULL`,
        ids(recordIds), workspaceId, ids(recordIds), workspaceId, JSON.stringify(COMM_INTERACTIONS), ids(recordIds), workspaceId,
      );
    },

    recordIdsOf(workspaceId: string, objectSlug: string, after: string | null, limit: number): string[] {
      return c.all<{ id: string }>(
        `SELECT r.id FROM records r
         WHERE r.object_type_pk = (SELECT pk FROM object_types WHERE workspace_id = ? AND slug = ? AND deleted_at IS NULL)
           AND r.deleted_at IS NULL AND r.id > ? ORDER BY r.id LIMIT +?`,
        workspaceId, objectSlug, after ?? '', limit,
      ).map((row) => row.id);
    },

    saveClassifications(workspaceId: string, items: readonly Omit<Classification, 'workspace_id'>[], events: NewEvent[]): void {
      withEvents(c, workspaceId, events, () => {
        for (const item of items) upsertClassification(c, { ...item, workspace_id: workspaceId });
      });
    },

    getClassifications(workspaceId: string, recordIds: readonly string[]): Classification[] {
      return c.all<ClassificationRow>(
        `SELECT ${CLASSIFICATION_COLUMNS} FROM contact_classifications WHERE record_id IN (SELECT value FROM json_each(?)) AND workspace_id = ? ORDER BY record_id`,
        ids(recordIds), workspaceId,
      ).map(toClassification);
    },
  };
}
