import { CrmError } from '../../domain/errors.ts';
import { COMM_INTERACTIONS } from '../../domain/graph/scoring.ts';
import type { Category, Classification, GraphEdge, GraphRecord, Interaction, Link, Strength } from '../../domain/graph/types.ts';
import type { GraphView } from '../../domain/graph/view.ts';
import type { NewLink } from '../../domain/store/port-graph.ts';
import type { NewEvent } from '../../domain/store/port-work.ts';
import type { Connection, Tx } from './connection.ts';
import * as Q from './cypher/graph.ts';
import { idFor, now } from './stamps.ts';
import { bind } from './statement.ts';
import { writeEvents, writeWithEvents } from './timeline.ts';

type P = Record<string, unknown>;

/** A link as stored (properties are a JSON string on the edge). */
export const toLink = (p: P): Link => ({
  id: String(p.id), workspace_id: String(p.workspace_id), from_id: String(p.from_id), to_id: String(p.to_id), type: String(p.type),
  properties: p.properties ? JSON.parse(String(p.properties)) as Record<string, unknown> : {},
  created_by: p.created_by === null || p.created_by === undefined ? null : String(p.created_by), created_at: String(p.created_at),
});

export const toClassification = (p: P): Classification => ({
  record_id: String(p.record_id), workspace_id: String(p.workspace_id), category: p.category as Category, strength: p.strength as Strength,
  score: Number(p.score), reasons: JSON.parse(String(p.reasons)) as Classification['reasons'], classified_at: String(p.classified_at),
});

const toGraphRecord = (p: P): GraphRecord => ({
  id: String(p.id), object_type_slug: String(p.object_type_slug),
  category: (p.category ?? null) as Category | null, strength: (p.strength ?? null) as Strength | null,
});

const unique = (ids: readonly string[]): string[] => [...new Set(ids)];

/** Graph methods of the Store on Neo4j: links, one-level expansions, interactions, classifications. */
export function graphMethods(conn: Connection) {
  const findLink = async (tx: Tx, workspaceId: string, fromId: string, toId: string, type: string): Promise<Link | null> => {
    const row = await tx.first(bind(Q.FIND_LINK, { workspace_id: workspaceId, from_id: fromId, to_id: toId, type }));
    return row ? toLink(row.link as P) : null;
  };
  const getLink = async (tx: Tx, workspaceId: string, linkId: string): Promise<Link | null> => {
    const row = await tx.first(bind(Q.GET_LINK, { workspace_id: workspaceId, id: linkId }));
    return row ? toLink(row.link as P) : null;
  };
  const requireLive = async (tx: Tx, workspaceId: string, id: string, param: string): Promise<void> => {
    if (!(await tx.first(bind(Q.LIVE_RECORD_TYPE, { workspace_id: workspaceId, id })))) {
      throw new CrmError('not_found', `${param}: the record ${JSON.stringify(id)} was not found`, { param, resource: 'record', id });
    }
  };

  return {
    async createLink(workspaceId: string, input: NewLink, events: NewEvent[]): Promise<{ link: Link; created: boolean }> {
      return conn.write(async (tx) => {
        await requireLive(tx, workspaceId, input.from_id, 'from_record_id');
        await requireLive(tx, workspaceId, input.to_id, 'to_record_id');
        const existing = await findLink(tx, workspaceId, input.from_id, input.to_id, input.type);
        if (existing) return { link: existing, created: false };
        const link: Link = {
          id: idFor('relation', input), workspace_id: workspaceId, from_id: input.from_id, to_id: input.to_id, type: input.type,
          properties: input.properties, created_by: input.created_by, created_at: now(),
        };
        await tx.rows(bind(Q.CREATE_LINK, { ...link, properties: JSON.stringify(link.properties) }));
        await writeEvents(tx, workspaceId, events);
        return { link, created: true };
      });
    },

    async createLinks(workspaceId: string, inputs: readonly NewLink[]): Promise<number> {
      // Twins within the batch are dropped here: the existence check does not see the batch's own writes.
      const distinct = [...new Map(inputs.map((i) => [`${i.from_id} ${i.to_id} ${i.type}`, i])).values()];
      const rows = distinct.map((i) => ({
        id: idFor('relation', i), from_id: i.from_id, to_id: i.to_id, type: i.type, properties: JSON.stringify(i.properties), created_by: i.created_by,
      }));
      const row = await conn.write((tx) => tx.first(bind(Q.CREATE_LINKS, { workspace_id: workspaceId, rows, created_at: now() })));
      return Number(row?.written ?? 0);
    },

    getLink: (workspaceId: string, linkId: string) => conn.read((tx) => getLink(tx, workspaceId, linkId)),
    findLink: (workspaceId: string, fromId: string, toId: string, type: string) => conn.read((tx) => findLink(tx, workspaceId, fromId, toId, type)),

    async hasFieldEdge(workspaceId: string, fromId: string, toId: string, type: string): Promise<boolean> {
      const row = await conn.read((tx) => tx.first(bind(Q.HAS_FIELD_EDGE, { workspace_id: workspaceId, from_id: fromId, to_id: toId, type })));
      return Number(row?.n ?? 0) > 0;
    },

    deleteLink(workspaceId: string, linkId: string, events: NewEvent[]): Promise<Link> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const link = await getLink(tx, workspaceId, linkId);
        if (!link) throw new CrmError('not_found', `link_id ${JSON.stringify(linkId)}: no such link`, { param: 'link_id', resource: 'link', id: linkId });
        await tx.rows(bind(Q.DELETE_LINK, { workspace_id: workspaceId, id: linkId }));
        return link;
      });
    },

    /** Neo4j walks level by level in Cypher (expandGraph): no graph is held in the gateway's memory. */
    async graphView(): Promise<GraphView | null> {
      return null;
    },

    async expandGraph(workspaceId: string, recordIds: readonly string[]): Promise<{ edges: GraphEdge[]; records: GraphRecord[] }> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.EXPAND_GRAPH, { workspace_id: workspaceId, ids: unique(recordIds) })));
      const records = new Map<string, GraphRecord>();
      const edges = rows.map((row) => {
        for (const end of [row.a_record, row.b_record] as P[]) records.set(String(end.id), toGraphRecord(end));
        return { source: String(row.source), target: String(row.target), type: String(row.type), origin: row.origin as GraphEdge['origin'] };
      });
      return { edges, records: [...records.values()] };
    },

    async edgesAmong(workspaceId: string, recordIds: readonly string[]): Promise<GraphEdge[]> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.EDGES_AMONG, { workspace_id: workspaceId, ids: unique(recordIds) })));
      return rows.map((row) => ({ source: String(row.source), target: String(row.target), type: String(row.type), origin: row.origin as GraphEdge['origin'] }));
    },

    async graphRecords(workspaceId: string, recordIds: readonly string[]): Promise<GraphRecord[]> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.GRAPH_RECORDS, { workspace_id: workspaceId, ids: unique(recordIds) })));
      return rows.map((row) => toGraphRecord(row.record as P));
    },

    async interactions(workspaceId: string, recordIds: readonly string[]): Promise<Interaction[]> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.INTERACTIONS, { workspace_id: workspaceId, ids: unique(recordIds), comm_kinds: COMM_INTERACTIONS })));
      return rows.map((row) => ({ record_id: String(row.record_id), kind: String(row.kind), at: String(row.at) }));
    },

    async recordIdsOf(workspaceId: string, objectSlug: string, after: string | null, limit: number): Promise<string[]> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.RECORD_IDS_OF, { workspace_id: workspaceId, object_type_slug: objectSlug, after: after ?? '', limit })));
      return rows.map((row) => String(row.id));
    },

    saveClassifications(workspaceId: string, items: readonly Omit<Classification, 'workspace_id'>[], events: NewEvent[]): Promise<void> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        await tx.rows(bind(Q.SAVE_CLASSIFICATIONS, { workspace_id: workspaceId, items: items.map((i) => ({ ...i, reasons: JSON.stringify(i.reasons) })) }));
      });
    },

    async getClassifications(workspaceId: string, recordIds: readonly string[]): Promise<Classification[]> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.GET_CLASSIFICATIONS, { workspace_id: workspaceId, ids: unique(recordIds) })));
      return rows.map((row) => toClassification(row.classification as P));
    },
  };
}
