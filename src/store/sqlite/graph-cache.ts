import type { GraphEdge, GraphRecord } from '../../domain/graph/types.ts';
import { perConnection, type Connection } from './connection.ts';

/** A workspace's cached adjacency starts over past this many edge ends (each edge counts at both ends). */
export const MAX_CACHED_ENDS = 4_000_000;
/** ...or past this many distinct record ids held (forgotten records keep their id until then). */
export const MAX_CACHED_IDS = 1_000_000;
/**
 * More unread changes than this and the whole cache starts over: cheaper than applying them one by
 * one, and what keeps the cache exact when the log is trimmed (migration 16 keeps at least 90,000
 * entries after any it deletes, so a cache that missed one is always this far behind).
 */
export const MAX_CHANGES_APPLIED = 10_000;

/**
 * The stored edges at one record, as read from `relations`: for edge i, the record at the other end,
 * its type (an index into the workspace's type names) and two flags.
 */
interface Adjacency {
  others: string[];
  meta: Int32Array;
}
const OUT = 1; // this record is the edge's from end
const LINK = 2; // origin 'link' (else 'field')

type AdjacencyRow = [id: string, out: 0 | 1, other: string, type: string, origin: GraphEdge['origin']];

/** The GraphRecords of the live records of the workspace among the ids (Store `graphRecords`, and the cache's fills). */
export function liveGraphRecords(c: Connection, workspaceId: string, recordIds: readonly string[]): GraphRecord[] {
  return c.all<GraphRecord>(
    `SELECT r.id, r.object_type_slug, k.category, k.strength FROM records r
       LEFT JOIN contact_classifications k ON k.record_id = r.id
     WHERE r.id IN (SELECT value FROM json_each(?)) AND r.workspace_id = ? AND r.deleted_at IS NULL`,
    JSON.stringify([...new Set(recordIds)]), workspaceId,
  );
}

/** One workspace's part of the cache. */
class WorkspaceGraph {
  constructor(readonly workspaceId: string) {}

  readonly adjacency = new Map<string, Adjacency>();
  /** Live records of the workspace, as GraphRecords; a record absent here is looked up again. */
  readonly nodes = new Map<string, GraphRecord>();
  readonly typeNames: string[] = [];
  readonly typeIndex = new Map<string, number>();
  /** One string per record id: every adjacency list shares it rather than holding its own copy. */
  readonly #ids = new Map<string, string>();
  ends = 0;

  clear(): void {
    this.adjacency.clear();
    this.nodes.clear();
    this.#ids.clear();
    this.ends = 0;
  }

  get idCount(): number {
    return this.#ids.size;
  }

  intern(id: string): string {
    const known = this.#ids.get(id);
    if (known !== undefined) return known;
    this.#ids.set(id, id);
    return id;
  }

  forget(id: string): void {
    const adjacency = this.adjacency.get(id);
    if (adjacency) this.ends -= adjacency.others.length;
    this.adjacency.delete(id);
    this.nodes.delete(id);
  }

  /** The stored edge behind adjacency entry `meta` of record `id`, whose other end is `other`. */
  edge(id: string, other: string, meta: number): GraphEdge {
    const type = this.typeNames[meta >> 2]!;
    const origin = meta & LINK ? 'link' : 'field';
    return meta & OUT ? { source: id, target: other, type, origin } : { source: other, target: id, type, origin };
  }

  typeOf(name: string): number {
    let index = this.typeIndex.get(name);
    if (index === undefined) {
      index = this.typeNames.push(name) - 1;
      this.typeIndex.set(name, index);
    }
    return index;
  }
}

/**
 * The relationship graph read by walks (`expandGraph`, `edgesAmong`), kept in memory per workspace
 * as records are reached, so a walk over records seen before costs no SQL beyond one read of the
 * change log.
 *
 * Exactness: triggers (migration 16) append to `graph_changes`, in the writing transaction, the
 * record ids whose edges or walk facts a write changed: both ends of a relation inserted, deleted
 * or updated, a record deleted, restored, retyped or purged, a contact's classification saved or
 * removed. Before every read the cache applies the entries it has not seen (by `seq`), dropping
 * what it holds for those records, whichever connection or process wrote them; a bulk write logs
 * '*' once and the workspace is dropped whole. A cache more than MAX_CHANGES_APPLIED entries behind
 * starts over, which also covers entries trimmed from the log. Reads inside an open transaction go
 * to SQL, since it may still roll back what they would cache.
 *
 * Only records a walk reaches are cached (a first walk costs what the SQL reads cost), up to
 * MAX_CACHED_ENDS edge ends per workspace, after which the workspace starts over.
 *
 * What is cached is only ever what the SQL reads returned, read after the log position it holds,
 * so a write the log has not yet shown makes the cache drop newer data, never keep older data.
 */
export class GraphCache {
  #seq = -1;
  readonly #workspaces = new Map<string, WorkspaceGraph>();
  readonly #maxEnds: number;
  readonly #maxIds: number;

  constructor(private readonly c: Connection, bounds: { maxEnds?: number; maxIds?: number } = {}) {
    this.#maxEnds = bounds.maxEnds ?? MAX_CACHED_ENDS;
    this.#maxIds = bounds.maxIds ?? MAX_CACHED_IDS;
  }

  /** What the cache holds of a workspace: records with adjacency, edge ends, distinct ids. */
  size(workspaceId: string): { records: number; ends: number; ids: number } {
    const graph = this.#workspaces.get(workspaceId);
    return { records: graph?.adjacency.size ?? 0, ends: graph?.ends ?? 0, ids: graph?.idCount ?? 0 };
  }

  /** False inside an open transaction: the caller reads SQL instead. */
  usable(): boolean {
    return !this.c.db.inTransaction;
  }

  /** The workspace's graph with every logged change applied. */
  graph(workspaceId: string): WorkspaceGraph {
    this.#catchUp();
    let graph = this.#workspaces.get(workspaceId);
    if (!graph) {
      graph = new WorkspaceGraph(workspaceId);
      this.#workspaces.set(workspaceId, graph);
    }
    return graph;
  }

  #catchUp(): void {
    if (this.#seq < 0) {
      this.#restart();
      return;
    }
    const changes = this.c.rows<[seq: number, workspaceId: string, a: string, b: string | null]>(
      'SELECT seq, workspace_id, a, b FROM graph_changes WHERE seq > ? ORDER BY seq LIMIT ?', this.#seq, MAX_CHANGES_APPLIED + 1,
    );
    if (changes.length > MAX_CHANGES_APPLIED) {
      this.#restart();
      return;
    }
    for (const [seq, workspaceId, a, b] of changes) {
      const graph = this.#workspaces.get(workspaceId);
      if (a === WHOLE_WORKSPACE) graph?.clear();
      else graph?.forget(a);
      if (b !== null) graph?.forget(b);
      this.#seq = seq;
    }
  }

  /** Drops everything; the position is read before any data that will be cached. */
  #restart(): void {
    this.#workspaces.clear();
    this.#seq = this.c.get<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'graph_changes'")?.seq ?? 0;
  }

  /** The adjacency of each id, read in one statement for those not cached. */
  adjacencyOf(graph: WorkspaceGraph, ids: readonly string[]): Map<string, Adjacency> {
    const out = new Map<string, Adjacency>();
    const missing: string[] = [];
    for (const id of ids) {
      const hit = graph.adjacency.get(id);
      if (hit) out.set(id, hit);
      else if (!out.has(id)) missing.push(id);
    }
    if (missing.length === 0) return out;
    // Only records of the workspace (live or not) are expanded: relations never cross workspaces,
    // so another workspace's id gets no edges.
    const rows = this.c.rows<AdjacencyRow>(
      `WITH f(id) AS (SELECT r.id FROM json_each(?) j JOIN records r ON r.id = j.value WHERE r.workspace_id = ?)
       SELECT f.id, 1, rel.to_id, rel.type, rel.source FROM f JOIN relations rel ON rel.from_id = f.id
       UNION ALL
       SELECT f.id, 0, rel.from_id, rel.type, rel.source FROM f JOIN relations rel ON rel.to_id = f.id`,
      JSON.stringify([...new Set(missing)]), graph.workspaceId,
    );
    if (graph.ends + rows.length > this.#maxEnds || graph.idCount + rows.length > this.#maxIds) graph.clear();
    // Sized exactly (a count first): a large workspace's cache is mostly these lists.
    const counts = new Map<string, number>(missing.map((id) => [id, 0]));
    for (const row of rows) counts.set(row[0], counts.get(row[0])! + 1);
    const filled = new Map<string, number>();
    for (const [id, count] of counts) {
      const fresh: Adjacency = { others: new Array<string>(count), meta: new Int32Array(count) };
      out.set(id, fresh);
      filled.set(id, 0);
      graph.adjacency.set(graph.intern(id), fresh);
    }
    for (const [id, isOut, other, type, origin] of rows) {
      const adjacency = out.get(id)!;
      const at = filled.get(id)!;
      filled.set(id, at + 1);
      adjacency.others[at] = graph.intern(other);
      adjacency.meta[at] = (graph.typeOf(type) << 2) | (isOut ? OUT : 0) | (origin === 'link' ? LINK : 0);
    }
    graph.ends += rows.length;
    return out;
  }

  /** The live records of the workspace among the ids, read in one statement for those not cached. */
  nodesOf(graph: WorkspaceGraph, ids: Iterable<string>): void {
    const missing: string[] = [];
    for (const id of ids) if (!graph.nodes.has(id)) missing.push(id);
    if (missing.length === 0) return;
    for (const record of liveGraphRecords(this.c, graph.workspaceId, missing)) {
      const key = graph.intern(record.id);
      graph.nodes.set(key, { ...record, id: key });
    }
  }

  /** expandGraph of the Store port, from the cache (see the port for the contract). */
  expand(workspaceId: string, recordIds: readonly string[]): { edges: GraphEdge[]; records: GraphRecord[] } {
    const graph = this.graph(workspaceId);
    const frontier = new Set(recordIds);
    const adjacency = this.adjacencyOf(graph, [...frontier]);
    const ends = new Set<string>(frontier);
    for (const list of adjacency.values()) for (const other of list.others) ends.add(other);
    this.nodesOf(graph, ends);
    const edges: GraphEdge[] = [];
    const records = new Map<string, GraphRecord>();
    for (const [id, list] of adjacency) {
      const here = graph.nodes.get(id);
      if (!here) continue;
      for (let i = 0; i < list.others.length; i++) {
        const other = list.others[i]!;
        const meta = list.meta[i]!;
        if (other === id) continue;
        // An edge between two frontier records is given once, from its from end.
        if (!(meta & OUT) && frontier.has(other)) continue;
        const there = graph.nodes.get(other);
        if (!there) continue;
        edges.push(graph.edge(id, other, meta));
        records.set(id, here);
        records.set(other, there);
      }
    }
    return { edges, records: [...records.values()] };
  }

  /**
   * edgesAmong of the Store port: every stored edge between two of the ids, each read at its from
   * end. Records with cached adjacency give theirs from memory; for the others `read` gets only
   * their outgoing edges into the set from SQL, rather than filling their whole adjacency (a walk's
   * last level is mostly records it never expands).
   */
  among(workspaceId: string, recordIds: readonly string[], read: (fromIds: string[], toIds: readonly string[]) => GraphEdge[]): GraphEdge[] {
    const graph = this.graph(workspaceId);
    const set = new Set(recordIds);
    const edges: GraphEdge[] = [];
    const uncached: string[] = [];
    for (const id of set) {
      const list = graph.adjacency.get(id);
      if (!list) {
        uncached.push(id);
        continue;
      }
      for (let i = 0; i < list.others.length; i++) {
        const other = list.others[i]!;
        const meta = list.meta[i]!;
        if (!(meta & OUT) || other === id || !set.has(other)) continue;
        edges.push(graph.edge(id, other, meta));
      }
    }
    if (uncached.length > 0) edges.push(...read(uncached, [...set]));
    return edges;
  }
}

/** The log entry of a bulk write: every cache drops what it holds of the workspace. */
const WHOLE_WORKSPACE = '*';

/**
 * Runs a bulk write of a workspace's relations (or classifications) with one log entry for the
 * whole workspace instead of one per row (migration 16). Only inside the writing transaction: the
 * pause mark is never committed, so other connections' writes are always logged.
 */
export function withGraphLogPaused<T>(c: Connection, workspaceId: string, write: () => T): T {
  if (!c.db.inTransaction) throw new Error('withGraphLogPaused runs inside a transaction');
  const paused = c.run('INSERT OR IGNORE INTO graph_changes_paused (workspace_id) VALUES (?)', workspaceId).changes === 1;
  const result = write();
  if (paused) {
    c.run('DELETE FROM graph_changes_paused WHERE workspace_id = ?', workspaceId);
    c.run('INSERT INTO graph_changes (workspace_id, a, b) VALUES (?, ?, NULL)', workspaceId, WHOLE_WORKSPACE);
  }
  return result;
}

/** The graph cache of a connection. */
export const graphCache = perConnection((c) => new GraphCache(c));
