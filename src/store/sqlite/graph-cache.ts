import { displayName } from '../../domain/fields.ts';
import type { GraphEdge, GraphRecord } from '../../domain/graph/types.ts';
import type { RecordSummary } from '../../domain/store/port.ts';
import type { ObjectType } from '../../domain/types.ts';
import { perConnection, type Connection } from './connection.ts';
import { cachedObjectType } from './object-types.ts';

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
 * Live records a preload step fills (adjacency, walk facts and summary): about 17 edge rows each in
 * a workspace of 100k records and 1M relations, a few milliseconds of one turn of the event loop.
 */
export const PRELOAD_STEP = 200;

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

/** The summaries of the live records of the workspace among the ids, read from SQL (recordSummaries). */
export function readSummaries(c: Connection, workspaceId: string, recordIds: readonly string[]): RecordSummary[] {
  const types = new Map<string, ObjectType | null>();
  return c.rows<[string, string, string]>(
    `SELECT r.id, r.object_type_slug, r.data FROM records r
     WHERE r.id IN (SELECT value FROM json_each(?)) AND r.workspace_id = ? AND r.deleted_at IS NULL`,
    JSON.stringify([...new Set(recordIds)]), workspaceId,
  ).map(([id, slug, data]) => {
    let type = types.get(slug);
    if (type === undefined) types.set(slug, (type = cachedObjectType(c, workspaceId, slug)));
    return { record_id: id, object_type_slug: slug, display_name: type ? displayName(type, JSON.parse(data)) : '' };
  });
}

/** One workspace's part of the cache. */
class WorkspaceGraph {
  constructor(readonly workspaceId: string) {}

  readonly adjacency = new Map<string, Adjacency>();
  /** Live records of the workspace, as GraphRecords; a record absent here is looked up again. */
  readonly nodes = new Map<string, GraphRecord>();
  /** Live records of the workspace as answers name them (recordSummaries); absent ones are read again. */
  readonly summaries = new Map<string, RecordSummary>();
  readonly typeNames: string[] = [];
  readonly typeIndex = new Map<string, number>();
  /** One string per record id: every adjacency list shares it rather than holding its own copy. */
  readonly #ids = new Map<string, string>();
  ends = 0;
  /** Moves on every clear(), so a preload running through the workspace knows to start over. */
  generation = 0;
  /** True while a background preload of the workspace is scheduled. */
  preloading = false;

  clear(): void {
    this.generation++;
    this.adjacency.clear();
    this.nodes.clear();
    this.summaries.clear();
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
    this.summaries.delete(id);
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
  readonly #preload: boolean;

  /** `preload`: fill a workspace in the background from its first use on (see #preloadFrom); off unless asked. */
  constructor(private readonly c: Connection, options: { maxEnds?: number; maxIds?: number; preload?: boolean } = {}) {
    this.#maxEnds = options.maxEnds ?? MAX_CACHED_ENDS;
    this.#maxIds = options.maxIds ?? MAX_CACHED_IDS;
    this.#preload = options.preload ?? false;
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
      this.#preloadFrom(graph);
    }
    return graph;
  }

  /**
   * Fills the workspace's cache in the background, PRELOAD_STEP live records (by id) per turn of the
   * event loop, each step exactly the fill a walk would do for those records (adjacency, walk facts,
   * summary), so it needs no rules of its own to stay exact. Without it a walk from a record no walk
   * met before reads every record of its answer, ~30 ms at depth 3 and limit 500 on a graph of 1M
   * relations. It stops when the store closes, when the cache starts over (the new workspace graph
   * preloads itself), and at half of either bound, so a workspace too large to hold keeps room for
   * the records its walks meet; a bulk write's clear() starts it over from the first record.
   */
  #preloadFrom(graph: WorkspaceGraph): void {
    if (!this.#preload || graph.preloading) return;
    graph.preloading = true;
    let generation = graph.generation;
    let after = '';
    const step = (): void => {
      if (!this.c.isOpen || this.#workspaces.get(graph.workspaceId) !== graph) {
        graph.preloading = false;
        return;
      }
      try {
        if (this.usable()) {
          this.#catchUp();
          if (this.#workspaces.get(graph.workspaceId) !== graph || graph.ends > this.#maxEnds / 2 || graph.idCount > this.#maxIds / 2) {
            graph.preloading = false;
            return;
          }
          if (graph.generation !== generation) [generation, after] = [graph.generation, ''];
          // In id order through records_live_graph, so a step's ids span one stretch of the relation indexes.
          const ids = this.c.rows<[id: string]>(
            'SELECT id FROM records WHERE id > ? AND workspace_id = ? AND deleted_at IS NULL ORDER BY id LIMIT ?', after, graph.workspaceId, PRELOAD_STEP,
          ).map((row) => row[0]);
          if (ids.length === 0) {
            graph.preloading = false;
            return;
          }
          after = ids[ids.length - 1]!;
          this.#adjacencyInSpan(graph, ids);
          this.nodesOf(graph, ids);
          this.#summariesOf(graph, ids);
        }
      } catch {
        // A read that failed (the file closed or locked underneath) only ends the preload; walks read what they need.
        graph.preloading = false;
        return;
      }
      setTimeout(step, 0).unref();
    };
    setTimeout(step, 0).unref();
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
      if (a === WHOLE_WORKSPACE && graph) {
        graph.clear();
        this.#preloadFrom(graph);
      } else graph?.forget(a);
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
    return this.#install(graph, missing, rows, out);
  }

  /**
   * Fills the adjacency of the ids not cached yet, given in id order, from two index range scans
   * over the span they cover (from_id leads the primary key of relations, to_id relations_by_to,
   * which covers the rest): far fewer page reads than a seek per id, for the preload's steps.
   * Rows of ids outside the set (other records in the span) are dropped.
   */
  #adjacencyInSpan(graph: WorkspaceGraph, sortedIds: readonly string[]): void {
    const missing = new Set(sortedIds.filter((id) => !graph.adjacency.has(id)));
    if (missing.size === 0) return;
    const [first, last] = [sortedIds[0]!, sortedIds[sortedIds.length - 1]!];
    const rows = this.c.rows<AdjacencyRow>(
      `SELECT from_id, 1, to_id, type, source FROM relations WHERE from_id BETWEEN ? AND ?
       UNION ALL
       SELECT to_id, 0, from_id, type, source FROM relations WHERE to_id BETWEEN ? AND ?`,
      first, last, first, last,
    ).filter((row) => missing.has(row[0]));
    this.#install(graph, [...missing], rows, new Map());
  }

  /** Caches the rows read for `ids` as their adjacency (an id without rows gets an empty one), and adds them to `out`. */
  #install(graph: WorkspaceGraph, ids: readonly string[], rows: readonly AdjacencyRow[], out: Map<string, Adjacency>): Map<string, Adjacency> {
    if (graph.ends + rows.length > this.#maxEnds || graph.idCount + rows.length > this.#maxIds) graph.clear();
    // Sized exactly (a count first): a large workspace's cache is mostly these lists.
    const counts = new Map<string, number>(ids.map((id) => [id, 0]));
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

  /**
   * recordSummaries of the Store port: the cached summaries of the ids, read from SQL (live records
   * only) for the others, which are then kept. A record's summary is dropped with the rest of what
   * the cache holds of it when the log names it (migration 18 logs a change of its data, and the
   * whole workspace when a field definition changes, since display names follow the fields).
   */
  summaries(workspaceId: string, recordIds: readonly string[]): RecordSummary[] {
    return this.#summariesOf(this.graph(workspaceId), recordIds);
  }

  #summariesOf(graph: WorkspaceGraph, recordIds: readonly string[]): RecordSummary[] {
    const out: RecordSummary[] = [];
    const missing: string[] = [];
    for (const id of new Set(recordIds)) {
      const hit = graph.summaries.get(id);
      if (hit) out.push(hit);
      else missing.push(id);
    }
    if (missing.length === 0) return out;
    const fresh = readSummaries(this.c, graph.workspaceId, missing);
    if (graph.idCount + fresh.length > this.#maxIds) graph.clear();
    for (const summary of fresh) {
      const kept = Object.freeze({ ...summary, record_id: graph.intern(summary.record_id) });
      graph.summaries.set(kept.record_id, kept);
      out.push(kept);
    }
    return out;
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
   * edgesAmong of the Store port: every stored edge between two of the ids, each given once, at its
   * from end. Records not cached yet have their whole adjacency read (one statement), as expand
   * does: a walk's last level is mostly records it never expands, and the next walk that meets them
   * needs no SQL.
   */
  among(workspaceId: string, recordIds: readonly string[]): GraphEdge[] {
    const graph = this.graph(workspaceId);
    const set = new Set(recordIds);
    const edges: GraphEdge[] = [];
    for (const [id, list] of this.adjacencyOf(graph, [...set])) {
      for (let i = 0; i < list.others.length; i++) {
        const other = list.others[i]!;
        const meta = list.meta[i]!;
        if (!(meta & OUT) || other === id || !set.has(other)) continue;
        edges.push(graph.edge(id, other, meta));
      }
    }
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

/** The graph cache of a connection, preloading each workspace from its first use on. */
export const graphCache = perConnection((c) => new GraphCache(c, { preload: true }));
