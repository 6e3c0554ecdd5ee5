import { displayName } from '../../domain/fields.ts';
import { SlotSet } from '../../domain/graph/slot-set.ts';
import { compare } from '../../domain/graph/walk.ts';
import { writeRecordIdKeys } from '../../domain/ids.ts';
import type { GraphEdge, GraphRecord } from '../../domain/graph/types.ts';
import type { GraphView } from '../../domain/graph/view.ts';
import type { RecordSummary, RelatedRecord } from '../../domain/store/port.ts';
import type { ObjectType, Relation } from '../../domain/types.ts';
import { perConnection, type Connection } from './connection.ts';
import { pausedGraphLogs } from './graph-log.ts';
import { translateError } from './errors.ts';
import { cachedObjectType } from './object-types.ts';
import { relationsOf } from './relations.ts';

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
 * How long a workspace's preload waits after the workspace was dropped (a bulk write, or the
 * cache reaching a bound) before it starts over: an import writes a batch every fraction of a
 * second, and each batch's '*' made the preload read the workspace's first records again.
 */
export const PRELOAD_QUIET_MS = 1000;
/**
 * Relations kept in answer order (getRelations) per workspace, about 150 bytes each; past this
 * many every record's are dropped and read again as asked for (a record with more is never kept).
 */
export const MAX_CACHED_RELATIONS = 250_000;

const OUT = 1; // this record is the edge's from end
const LINK = 2; // origin 'link' (else 'field')

/** The pool's first size, in numbers (two per edge end). */
const POOL_START = 4096;

type AdjacencyRow = [id: string, out: 0 | 1, other: string, type: string, origin: GraphEdge['origin']];

/** A record's stored edges as getRelations answers them, in its order, and the slot of each one's other end. */
interface HeldRelations {
  readonly relations: readonly Relation[];
  readonly others: Int32Array;
}

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

/**
 * One workspace's part of the cache. Each record id met gets a slot (a small integer) for as long
 * as the workspace is held; adjacency lists hold slots, and what is known of a record sits at its
 * slot, so a walk's inner loops read typed arrays instead of hashing ids.
 */
class WorkspaceGraph {
  constructor(readonly workspaceId: string) {}

  readonly #slots = new Map<string, number>();
  /** The record id of each slot. */
  ids: string[] = [];
  /** Three numbers per slot ordered as the record ids are (writeRecordIdKeys): sorting slots by id reads no strings. */
  #idKeys = new Float64Array(3 * 1024);
  /**
   * The stored edges at every cached record, as read from `relations`, in one pool: two numbers per
   * edge end, the slot at the other end and a tag (the edge's type, an index into typeNames, with
   * the OUT and LINK flags). A record's ends are contiguous, the edges it is the from end of first
   * (`outs` of them), so a scan for each edge once, at its from end, reads only those. One pool
   * rather than an object and two arrays per record: a walk reaches a record's edges in two reads
   * (its entry in `lists`, then the pool), where every object on the way was a cache miss of its own.
   */
  pool = new Int32Array(POOL_START);
  /** Numbers of the pool handed out; those beyond twice `ends` belong to lists dropped or read again since. */
  poolUsed = 0;
  /**
   * Four numbers per slot, side by side so one read brings them all: where the record's list starts
   * in the pool plus one (0: not cached), its edge ends, how many of them are outgoing, and a spare.
   */
  lists = new Int32Array(4 * 1024);
  /** Live records of the workspace, as GraphRecords; a record absent here is looked up again. */
  nodes: (GraphRecord | undefined)[] = [];
  /** Live records of the workspace as answers name them (recordSummaries); absent ones are read again. */
  summaries: (RecordSummary | undefined)[] = [];
  /** The display name of each summary, by slot: graph.query names 500 records without reading 500 summary objects. */
  names: (string | undefined)[] = [];
  /**
   * Each record's edges in the order and form getRelations gives them, for records it was asked
   * about (the adjacency in the pool has neither their creation order nor their timestamps).
   */
  related: (HeldRelations | undefined)[] = [];
  /** The relations `related` holds, over all records. */
  relatedCount = 0;
  /** One copy of each edge type and object type name the held relations use. */
  readonly #words = new Map<string, string>();
  readonly typeNames: string[] = [];
  readonly typeIndex = new Map<string, number>();
  /** Slots with an adjacency list. */
  records = 0;
  ends = 0;
  /** Moves on every clear(), so a preload running through the workspace knows to start over. */
  generation = 0;
  /** When clear() last ran (performance.now()), so the preload can wait for the writes to settle. */
  clearedAt = Number.NEGATIVE_INFINITY;
  /** True while a background preload of the workspace is scheduled. */
  preloading = false;
  /** The GraphView of this graph, made on first use (GraphCache.view). */
  view: CacheView | undefined;
  /** Scratch sets for one scan (they are never held across a read of SQL that could re-enter). */
  readonly scanA = new SlotSet();
  readonly scanB = new SlotSet();

  clear(): void {
    this.generation++;
    this.clearedAt = performance.now();
    this.#slots.clear();
    this.ids = [];
    this.#idKeys = new Float64Array(3 * 1024);
    this.pool = new Int32Array(POOL_START);
    this.poolUsed = 0;
    this.lists = new Int32Array(4 * 1024);
    this.nodes = [];
    this.summaries = [];
    this.names = [];
    this.dropRelated();
    this.records = 0;
    this.ends = 0;
  }

  /** Drops every record's held relations. */
  dropRelated(): void {
    this.related = Array.from({ length: this.ids.length }, () => undefined);
    this.relatedCount = 0;
    this.#words.clear();
  }

  /** The one copy of a type name the held relations use. */
  word(text: string): string {
    const known = this.#words.get(text);
    if (known !== undefined) return known;
    this.#words.set(text, text);
    return text;
  }

  get idCount(): number {
    return this.ids.length;
  }

  /** The slot of a record id, given one if it has none. */
  slot(id: string): number {
    const known = this.#slots.get(id);
    if (known !== undefined) return known;
    this.#slots.set(id, this.ids.length);
    // Every array grows with the slots, so none has holes past its length: an element set far past
    // it would turn the array into a dictionary, a hash lookup per access.
    this.nodes.push(undefined);
    this.summaries.push(undefined);
    this.names.push(undefined);
    this.related.push(undefined);
    const slot = this.ids.push(id) - 1;
    if (this.#idKeys.length < 3 * (slot + 1)) {
      const grown = new Float64Array(this.#idKeys.length * 2);
      grown.set(this.#idKeys);
      this.#idKeys = grown;
    }
    writeRecordIdKeys(id, this.#idKeys, 3 * slot);
    if (4 * slot >= this.lists.length) {
      const grown = new Int32Array(this.lists.length * 2);
      grown.set(this.lists);
      this.lists = grown;
    }
    return slot;
  }

  /** True when the record at the slot has its edges cached. */
  cached(slot: number): boolean {
    return this.lists[4 * slot]! !== 0;
  }

  /** Where the slot's list starts in the pool (-1 when not cached). */
  first(slot: number): number {
    return this.lists[4 * slot]! - 1;
  }

  /** The edge ends in the slot's list. */
  count(slot: number): number {
    return this.lists[4 * slot + 1]!;
  }

  /** How many of them, the first ones, are edges the record is the from end of. */
  outs(slot: number): number {
    return this.lists[4 * slot + 2]!;
  }

  /** Drops the slot's list (the pool space it took is reclaimed by the next compaction). */
  #dropList(slot: number): void {
    this.ends -= this.count(slot);
    this.lists[4 * slot] = 0;
  }

  /**
   * Gives the slot a list of `all` edge ends, `outs` of them outgoing, in pool space reserved by
   * reserve(); answers where it starts. A list it had is dropped.
   */
  newList(slot: number, all: number, outs: number): number {
    if (this.cached(slot)) this.#dropList(slot);
    else this.records++;
    const at = this.poolUsed;
    this.poolUsed += 2 * all;
    this.lists[4 * slot] = at + 1;
    this.lists[4 * slot + 1] = all;
    this.lists[4 * slot + 2] = outs;
    this.ends += all;
    return at;
  }

  /**
   * Makes room at the end of the pool for `numbers` more. When it is full, the lists are copied
   * into a new pool, without the dropped ones (so every record's list start moves), twice the size of
   * what is live and asked for: each copy is paid for by as many numbers handed out after it.
   */
  reserve(numbers: number): void {
    if (this.poolUsed + numbers <= this.pool.length) return;
    const live = 2 * this.ends;
    let size = POOL_START;
    while (size < 2 * (live + numbers)) size *= 2;
    const pool = new Int32Array(size);
    let at = 0;
    for (let slot = 0; slot < this.ids.length; slot++) {
      const from = this.first(slot);
      if (from < 0) continue;
      const length = 2 * this.count(slot);
      pool.set(this.pool.subarray(from, from + length), at);
      this.lists[4 * slot] = at + 1;
      at += length;
    }
    this.pool = pool;
    this.poolUsed = at;
  }

  /** The code-unit order of the two slots' record ids. */
  compareSlots(a: number, b: number): number {
    const keys = this.#idKeys;
    const first = keys[3 * a]! - keys[3 * b]!;
    // NaN: an id of another shape than new ids have.
    if (Number.isNaN(first)) return compare(this.ids[a]!, this.ids[b]!);
    return first || keys[3 * a + 1]! - keys[3 * b + 1]! || keys[3 * a + 2]! - keys[3 * b + 2]!;
  }

  slotOf(id: string): number | undefined {
    return this.#slots.get(id);
  }

  forget(id: string): void {
    const slot = this.#slots.get(id);
    if (slot === undefined) return;
    if (this.cached(slot)) {
      this.#dropList(slot);
      this.records--;
    }
    this.nodes[slot] = undefined;
    this.summaries[slot] = undefined;
    this.names[slot] = undefined;
    const held = this.related[slot];
    if (held) {
      this.relatedCount -= held.relations.length;
      this.related[slot] = undefined;
    }
  }

  /** The stored edge behind adjacency entry `tag` of the record at slot `here`, whose other end is at slot `there`. */
  edge(here: number, there: number, tag: number): GraphEdge {
    const type = this.typeNames[tag >> 2]!;
    const origin = tag & LINK ? 'link' : 'field';
    const id = this.ids[here]!;
    const other = this.ids[there]!;
    return tag & OUT ? { source: id, target: other, type, origin } : { source: other, target: id, type, origin };
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
 * change log; with it the display summaries answers name records by (`recordSummaries`) and each
 * asked-for record's relations in the order `getRelations` answers them.
 *
 * Exactness: triggers (migration 16) and, for an inserted edge, its writer (graph-log.ts, since
 * migration 28) append to `graph_changes`, in the writing transaction, the
 * record ids whose edges or walk facts a write changed: both ends of a relation inserted, deleted
 * or updated, a record deleted, restored, retyped or purged, a contact's classification saved or
 * removed. Before every read the cache applies the entries it has not seen (by `seq`), dropping
 * what it holds for those records, whichever connection or process wrote them (the log is read
 * only when something may have written to it: see #readAt); a bulk write logs
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
  /**
   * `writtenRows` and `othersVersion` as they stood when the log was last read. Only a write
   * appends to the log, and any write moves one of them (this connection's rows, trigger programs
   * included; another connection's commit, seen with calls in flight from the next call begun), so
   * while both stand the log holds nothing new and is not read: a statement that takes the WAL's
   * read lock saved on every call.
   */
  #readAt = '';
  readonly #workspaces = new Map<string, WorkspaceGraph>();
  readonly #maxEnds: number;
  readonly #maxIds: number;
  readonly #maxRelations: number;
  readonly #preload: boolean;
  readonly #preloadQuietMs: number;

  /**
   * `preload`: fill a workspace in the background from its first use on (see #preloadFrom); off
   * unless asked. `preloadQuietMs`: how long it waits after the workspace was dropped.
   */
  constructor(
    private readonly c: Connection,
    options: { maxEnds?: number; maxIds?: number; maxRelations?: number; preload?: boolean; preloadQuietMs?: number } = {},
  ) {
    this.#maxEnds = options.maxEnds ?? MAX_CACHED_ENDS;
    this.#maxIds = options.maxIds ?? MAX_CACHED_IDS;
    this.#maxRelations = options.maxRelations ?? MAX_CACHED_RELATIONS;
    this.#preload = options.preload ?? false;
    this.#preloadQuietMs = options.preloadQuietMs ?? PRELOAD_QUIET_MS;
    // What a lost group wrote may be held here, and its log positions come back with other rows.
    c.onLostGroup(() => {
      this.#workspaces.clear();
      this.#seq = -1;
      this.#readAt = '';
    });
  }

  /** What the cache holds of a workspace: records with adjacency, edge ends, distinct ids. */
  size(workspaceId: string): { records: number; ends: number; ids: number } {
    const graph = this.#workspaces.get(workspaceId);
    return { records: graph?.records ?? 0, ends: graph?.ends ?? 0, ids: graph?.idCount ?? 0 };
  }

  /** How many relations the workspace holds in answer order for getRelations. */
  relationsHeld(workspaceId: string): number {
    return this.#workspaces.get(workspaceId)?.relatedCount ?? 0;
  }

  /**
   * The workspace's edge pool: its size, the numbers handed out, and how many of those no cached
   * list holds (counted over the lists, so a test can hold them against `size().ends`).
   */
  poolOf(workspaceId: string): { size: number; used: number; garbage: number } {
    const graph = this.#workspaces.get(workspaceId);
    if (!graph) return { size: 0, used: 0, garbage: 0 };
    let held = 0;
    for (let slot = 0; slot < graph.idCount; slot++) if (graph.cached(slot)) held += 2 * graph.count(slot);
    return { size: graph.pool.length, used: graph.poolUsed, garbage: graph.poolUsed - held };
  }

  /** False inside a transaction that may roll back on its own (Connection.cacheable): the caller reads SQL instead. */
  usable(): boolean {
    return this.c.cacheable;
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
   * the records its walks meet; a bulk write's clear() starts it over from the first record, once
   * the workspace has gone PRELOAD_QUIET_MS without another.
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
          const quiet = graph.clearedAt + this.#preloadQuietMs - performance.now();
          if (quiet > 0) {
            setTimeout(step, quiet).unref();
            return;
          }
          // In id order through records_live_graph, so a step's ids span one stretch of the relation indexes.
          const ids = this.c.rows<[id: string]>(
            'SELECT id FROM records WHERE id > ? AND workspace_id = ? AND deleted_at IS NULL ORDER BY id LIMIT +?', after, graph.workspaceId, PRELOAD_STEP,
          ).map((row) => row[0]);
          if (ids.length === 0) {
            graph.preloading = false;
            return;
          }
          after = ids[ids.length - 1]!;
          this.#adjacencyInSpan(graph, ids);
          this.nodesOf(graph, ids);
          this.#summariesOf(graph, ids);
          // A step that reached a bound cleared the workspace itself: starting over would fill the
          // same step and clear again, so the workspace is too large to preload.
          if (graph.generation !== generation) {
            graph.preloading = false;
            return;
          }
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
    const stamp = `${this.c.writtenRows()}:${this.c.othersVersion()}`;
    if (stamp === this.#readAt) return;
    this.#applyLog();
    this.#readAt = stamp;
  }

  #applyLog(): void {
    if (this.#seq < 0) {
      this.#restart();
      return;
    }
    const changes = this.c.rows<[seq: number, workspaceId: string, a: string, b: string | null]>(
      'SELECT seq, workspace_id, a, b FROM graph_changes WHERE seq > ? ORDER BY seq LIMIT +?', this.#seq, MAX_CHANGES_APPLIED + 1,
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

  /**
   * The slots of the ids (each once, in first-seen order), with the adjacency of every one of them
   * cached: those not cached yet are read in one statement.
   */
  withAdjacency(graph: WorkspaceGraph, ids: readonly string[]): number[] {
    const slots: number[] = [];
    const uniqueIds: string[] = [];
    const missing: string[] = [];
    const unique = graph.scanA.begin();
    for (const id of ids) {
      const slot = graph.slot(id);
      if (!unique.add(slot)) continue;
      slots.push(slot);
      uniqueIds.push(id);
      if (!graph.cached(slot)) missing.push(id);
    }
    if (missing.length === 0) return slots;
    if (!this.#install(graph, missing, this.#readAdjacency(graph, missing))) return slots;
    // The workspace started over (a bound reached), dropping what it held: the ids that were
    // cached before are read again into it, whatever its bounds, for this one answer.
    const lost = uniqueIds.filter((id) => !graph.cached(graph.slot(id)));
    if (lost.length) this.#install(graph, lost, this.#readAdjacency(graph, lost), false);
    return uniqueIds.map((id) => graph.slot(id));
  }

  /** The rows of `relations` at each id (both directions); ids of other workspaces get none. */
  #readAdjacency(graph: WorkspaceGraph, ids: readonly string[]): AdjacencyRow[] {
    // Only records of the workspace (live or not) are expanded: relations never cross workspaces,
    // so another workspace's id gets no edges.
    return this.c.rows<AdjacencyRow>(
      `WITH f(id) AS (SELECT r.id FROM json_each(?) j JOIN records r ON r.id = j.value WHERE r.workspace_id = ?)
       SELECT f.id, 1, rel.to_id, rel.type, rel.source FROM f JOIN relations rel ON rel.from_id = f.id
       UNION ALL
       SELECT f.id, 0, rel.from_id, rel.type, rel.source FROM f JOIN relations rel ON rel.to_id = f.id`,
      JSON.stringify(ids), graph.workspaceId,
    );
  }

  /**
   * Fills the adjacency of the ids not cached yet, given in id order, from two index range scans
   * over the span they cover (from_id leads the primary key of relations, to_id relations_by_to,
   * which covers the rest): far fewer page reads than a seek per id, for the preload's steps.
   * Rows of ids outside the set (other records in the span) are dropped.
   */
  #adjacencyInSpan(graph: WorkspaceGraph, sortedIds: readonly string[]): void {
    const missing = new Set(sortedIds.filter((id) => {
      const slot = graph.slotOf(id);
      return slot === undefined || !graph.cached(slot);
    }));
    if (missing.size === 0) return;
    const [first, last] = [sortedIds[0]!, sortedIds[sortedIds.length - 1]!];
    const rows = this.c.rows<AdjacencyRow>(
      `SELECT from_id, 1, to_id, type, source FROM relations WHERE from_id BETWEEN ? AND ?
       UNION ALL
       SELECT to_id, 0, from_id, type, source FROM relations WHERE to_id BETWEEN ? AND ?`,
      first, last, first, last,
    ).filter((row) => missing.has(row[0]));
    this.#install(graph, [...missing], rows);
  }

  /**
   * Caches the rows read for `ids` as their adjacency (an id without rows gets an empty one), the
   * edges each record is the from end of first. True when the workspace had to start over first
   * (a bound reached; unless `mayClear` is false), which takes every slot handed out before.
   */
  #install(graph: WorkspaceGraph, ids: readonly string[], rows: readonly AdjacencyRow[], mayClear = true): boolean {
    const cleared = mayClear && (graph.ends + rows.length > this.#maxEnds || graph.idCount + rows.length > this.#maxIds);
    if (cleared) graph.clear();
    // Counted first, so each record's list is one stretch of the pool, its outgoing edges first.
    const lists = new Map<string, { all: number; outs: number; outAt: number; inAt: number }>(ids.map((id) => [id, { all: 0, outs: 0, outAt: 0, inAt: 0 }]));
    for (const row of rows) {
      const list = lists.get(row[0])!;
      list.all++;
      if (row[1]) list.outs++;
    }
    graph.reserve(2 * rows.length);
    for (const [id, list] of lists) {
      list.outAt = graph.newList(graph.slot(id), list.all, list.outs);
      list.inAt = list.outAt + 2 * list.outs;
    }
    const { pool } = graph;
    for (const [id, isOut, other, type, origin] of rows) {
      const list = lists.get(id)!;
      const at = isOut ? (list.outAt += 2) - 2 : (list.inAt += 2) - 2;
      pool[at] = graph.slot(other);
      pool[at + 1] = (graph.typeOf(type) << 2) | (isOut ? OUT : 0) | (origin === 'link' ? LINK : 0);
    }
    return cleared;
  }

  /** Caches the live records of the workspace among the slots' records, read in one statement for those not cached. */
  nodesAt(graph: WorkspaceGraph, slots: Iterable<number>): void {
    const missing: string[] = [];
    for (const slot of slots) if (!graph.nodes[slot]) missing.push(graph.ids[slot]!);
    if (missing.length === 0) return;
    for (const record of liveGraphRecords(this.c, graph.workspaceId, missing)) {
      const slot = graph.slot(record.id);
      graph.nodes[slot] = { ...record, id: graph.ids[slot]! };
    }
  }

  /** nodesAt for the slots' records and every record at the other end of their (cached) adjacency. */
  #nodesAround(graph: WorkspaceGraph, slots: readonly number[]): void {
    const unknown: number[] = [];
    const met = graph.scanA.begin();
    const note = (slot: number): void => {
      if (!graph.nodes[slot] && met.add(slot)) unknown.push(slot);
    };
    const { pool } = graph;
    for (const slot of slots) {
      note(slot);
      for (let i = graph.first(slot), to = i + 2 * graph.count(slot); i < to; i += 2) note(pool[i]!);
    }
    this.nodesAt(graph, unknown);
  }

  /** nodesAt for ids (the preload's steps). */
  nodesOf(graph: WorkspaceGraph, ids: readonly string[]): void {
    this.nodesAt(graph, ids.map((id) => graph.slot(id)));
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
    // Ids not named yet take no slot unless they turn out to be live records of the workspace.
    const missing = new Set<string>();
    const unique = graph.scanA.begin();
    for (const id of recordIds) {
      const slot = graph.slotOf(id);
      const hit = slot === undefined ? undefined : graph.summaries[slot];
      if (!hit) missing.add(id);
      else if (unique.add(slot!)) out.push(hit);
    }
    if (missing.size === 0) return out;
    const fresh = readSummaries(this.c, graph.workspaceId, [...missing]);
    if (graph.idCount + fresh.length > this.#maxIds) graph.clear();
    for (const summary of fresh) out.push(keepSummary(graph, summary));
    return out;
  }

  /**
   * getRelations of the Store port: the record's edges in both directions, in their stored order
   * (relationsOf), with the summary of each live other end. A record's edges are read from SQL the
   * first time it is asked about and kept until the log names it (any edge at it inserted, deleted
   * or updated, or the record itself changed); the other ends' summaries come from the cache as
   * recordSummaries' do. Undefined for an id that is no record of the workspace: the caller reads SQL.
   */
  relatedRecords(workspaceId: string, recordId: string): RelatedRecord[] | undefined {
    const graph = this.graph(workspaceId);
    const known = graph.slotOf(recordId);
    const held = (known === undefined ? undefined : graph.related[known]) ?? this.#holdRelated(graph, recordId, known);
    if (!held) return undefined;
    const { relations, others } = held;
    this.#summariesAt(graph, others);
    const { summaries } = graph;
    const out: RelatedRecord[] = [];
    for (let i = 0; i < relations.length; i++) {
      const other = summaries[others[i]!];
      if (!other) continue;
      const r = relations[i]!;
      out.push({
        type: r.type, source: r.source, from_id: r.from_id, from_object: r.from_object, to_id: r.to_id, to_object: r.to_object,
        created_at: r.created_at, other,
      });
    }
    return out;
  }

  /**
   * Reads and keeps the edges of a record of the workspace (undefined for any other id). The
   * reads come after the log was caught up, so a write they see and the log does not yet show
   * only makes the next read drop them.
   */
  #holdRelated(graph: WorkspaceGraph, recordId: string, known: number | undefined): HeldRelations | undefined {
    // A record with a summary here is a live record of the workspace; any other id is looked up.
    const named = known !== undefined && graph.summaries[known] !== undefined;
    if (!named && !this.c.get('SELECT 1 AS one FROM records WHERE id = ? AND workspace_id = ?', recordId, graph.workspaceId)) return undefined;
    const rows = relationsOf(this.c, recordId);
    if (graph.idCount + rows.length + 1 > this.#maxIds) graph.clear();
    if (graph.relatedCount + rows.length > this.#maxRelations && rows.length <= this.#maxRelations) graph.dropRelated();
    const here = graph.slot(recordId);
    const relations: Relation[] = [];
    const others = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const [type, source, fromId, fromObject, toId, toObject, created_at] = rows[i]!;
      const outgoing = fromId === recordId;
      const there = graph.slot(outgoing ? toId : fromId);
      const from_id = graph.ids[outgoing ? here : there]!;
      const to_id = graph.ids[outgoing ? there : here]!;
      relations.push({
        type: graph.word(type), source: source === 'link' ? 'link' : 'field', from_id, from_object: graph.word(fromObject),
        to_id, to_object: graph.word(toObject), created_at,
      });
      others[i] = there;
    }
    // Never handed out: answers copy them into objects of their own.
    const held: HeldRelations = { relations, others };
    if (rows.length > this.#maxRelations) return held;
    graph.related[here] = held;
    graph.relatedCount += rows.length;
    return held;
  }

  /**
   * graphView of the Store port: the workspace's graph as this cache holds it, with the log caught
   * up, filled from SQL as a walk asks (the fills expand does). Slots stay valid until the cache
   * starts the workspace over; `load` says when a fill had to (a bound reached).
   */
  view(workspaceId: string): GraphView {
    const graph = this.graph(workspaceId);
    const view = (graph.view ??= new CacheView(this, graph));
    view.generation = graph.generation;
    return view;
  }

  /** GraphView.load of a view made at `generation` (see CacheView). */
  fillView(graph: WorkspaceGraph, generation: number, slots: readonly number[], withEnds: boolean): boolean {
    const held = (): boolean => graph.generation === generation && this.#workspaces.get(graph.workspaceId) === graph;
    if (!held()) return false;
    const missing: string[] = [];
    for (const slot of slots) if (!graph.cached(slot)) missing.push(graph.ids[slot]!);
    if (missing.length > 0 && this.#install(graph, missing, this.#readAdjacency(graph, missing))) return false;
    if (!withEnds) return true;
    this.#nodesAround(graph, slots);
    return held();
  }

  /** GraphView.names: the display names of the slots' records, reading those not cached. */
  namesAt(graph: WorkspaceGraph, slots: readonly number[]): string[] {
    this.#summariesAt(graph, slots);
    const { names } = graph;
    return slots.map((slot) => names[slot] ?? '');
  }

  /** Reads and keeps the summaries of the slots' records that have none cached (deleted or foreign ones stay without). */
  #summariesAt(graph: WorkspaceGraph, slots: ArrayLike<number>): void {
    const { summaries } = graph;
    let missing: string[] | undefined;
    for (let i = 0; i < slots.length; i++) if (summaries[slots[i]!] === undefined) (missing ??= []).push(graph.ids[slots[i]!]!);
    // Every record named has a slot already, so keeping these takes no new one (no bound to check).
    if (missing) for (const summary of readSummaries(this.c, graph.workspaceId, missing)) keepSummary(graph, summary);
  }

  /** expandGraph of the Store port, from the cache (see the port for the contract). */
  expand(workspaceId: string, recordIds: readonly string[]): { edges: GraphEdge[]; records: GraphRecord[] } {
    const graph = this.graph(workspaceId);
    const frontier = this.withAdjacency(graph, recordIds);
    this.#nodesAround(graph, frontier);
    const inFrontier = graph.scanA.begin();
    for (const slot of frontier) inFrontier.add(slot);
    const included = graph.scanB.begin();
    const edges: GraphEdge[] = [];
    const records: GraphRecord[] = [];
    const { pool } = graph;
    for (const here of frontier) {
      const node = graph.nodes[here];
      if (!node) continue;
      for (let i = graph.first(here), to = i + 2 * graph.count(here); i < to; i += 2) {
        const there = pool[i]!;
        const m = pool[i + 1]!;
        if (there === here) continue;
        // An edge between two frontier records is given once, from its from end.
        if (!(m & OUT) && inFrontier.has(there)) continue;
        const other = graph.nodes[there];
        if (!other) continue;
        edges.push(graph.edge(here, there, m));
        if (included.add(here)) records.push(node);
        if (included.add(there)) records.push(other);
      }
    }
    return { edges, records };
  }

  /**
   * edgesAmong of the Store port: every stored edge between two of the ids, each given once, at its
   * from end. Records not cached yet have their whole adjacency read (one statement), as expand
   * does: a walk's last level is mostly records it never expands, and the next walk that meets them
   * needs no SQL.
   */
  among(workspaceId: string, recordIds: readonly string[]): GraphEdge[] {
    const graph = this.graph(workspaceId);
    const slots = this.withAdjacency(graph, recordIds);
    const set = graph.scanA.begin();
    for (const slot of slots) set.add(slot);
    const edges: GraphEdge[] = [];
    const { pool } = graph;
    for (const here of slots) {
      for (let i = graph.first(here), to = i + 2 * graph.outs(here); i < to; i += 2) {
        const there = pool[i]!;
        if (there !== here && set.has(there)) edges.push(graph.edge(here, there, pool[i + 1]!));
      }
    }
    return edges;
  }
}

/**
 * Keeps a summary read from SQL at its record's slot (frozen: answers share it), and returns it.
 * Built as a literal before freezing: V8 gives a frozen copy of a spread object a hidden class of
 * its own, and every summary with its own class made each property read of them (answers,
 * serialising) miss its inline cache and look the property up from scratch.
 */
function keepSummary(graph: WorkspaceGraph, summary: RecordSummary): RecordSummary {
  const slot = graph.slot(summary.record_id);
  const kept = Object.freeze({ record_id: graph.ids[slot]!, object_type_slug: summary.object_type_slug, display_name: summary.display_name });
  graph.summaries[slot] = kept;
  graph.names[slot] = kept.display_name;
  return kept;
}

/**
 * The GraphView of one workspace graph (GraphCache.view): one object per workspace graph, made
 * once, so the calls a walk makes into it see one receiver and one set of methods (a fresh object
 * of closures per walk made every call site polymorphic). `generation` is the graph's at the last
 * view() call: a fill after the graph started over answers false. Fills read SQL outside the
 * store's async wrapper, so their failures are translated here.
 */
class CacheView implements GraphView {
  generation = 0;

  constructor(private readonly cache: GraphCache, private readonly graph: WorkspaceGraph) {}

  slot(id: string): number {
    return this.graph.slot(id);
  }

  id(slot: number): string {
    return this.graph.ids[slot]!;
  }

  compare(a: number, b: number): number {
    return this.graph.compareSlots(a, b);
  }

  load(slots: readonly number[], withEnds = true): boolean {
    try {
      return this.cache.fillView(this.graph, this.generation, slots, withEnds);
    } catch (err) {
      translateError(err);
    }
  }

  record(slot: number): GraphRecord | undefined {
    return this.graph.nodes[slot];
  }

  ends(): Int32Array {
    return this.graph.pool;
  }

  first(slot: number): number {
    return this.graph.first(slot);
  }

  count(slot: number): number {
    return this.graph.count(slot);
  }

  outs(slot: number): number {
    return this.graph.outs(slot);
  }

  edge(here: number, there: number, tag: number): GraphEdge {
    return this.graph.edge(here, there, tag);
  }

  names(slots: readonly number[]): string[] {
    try {
      return this.cache.namesAt(this.graph, slots);
    } catch (err) {
      translateError(err);
    }
  }
}

/** The log entry of a bulk write: every cache drops what it holds of the workspace. */
const WHOLE_WORKSPACE = '*';

/**
 * Runs a bulk write of a workspace's relations (or classifications) with one log entry for the
 * whole workspace instead of one per row (migration 16). Only inside the writing transaction: the
 * pause mark is never committed, so other connections' writes are always logged. The mark is a
 * row of `graph_changes_paused` for the classification triggers and an entry of pausedGraphLogs
 * for the edge inserts (graph-log.ts), which have no trigger since migration 28.
 */
export function withGraphLogPaused<T>(c: Connection, workspaceId: string, write: () => T): T {
  if (!c.db.inTransaction) throw new Error('withGraphLogPaused runs inside a transaction');
  const paused = c.run('INSERT OR IGNORE INTO graph_changes_paused (workspace_id) VALUES (?)', workspaceId).changes === 1;
  if (!paused) return write();
  const marks = pausedGraphLogs(c);
  marks.add(workspaceId);
  let result: T;
  try {
    result = write();
  } finally {
    marks.delete(workspaceId);
  }
  c.run('DELETE FROM graph_changes_paused WHERE workspace_id = ?', workspaceId);
  c.run('INSERT INTO graph_changes (workspace_id, a, b) VALUES (?, ?, NULL)', workspaceId, WHOLE_WORKSPACE);
  return result;
}

/** The graph cache of a connection, preloading each workspace from its first use on. */
export const graphCache = perConnection((c) => new GraphCache(c, { preload: true }));
