import type { GraphStore } from '../store/port-graph.ts';
import type { Category, GraphEdge, GraphRecord, Strength } from './types.ts';

/** A node of a walk's answer. `via` is the record it was first reached through (null for the root). */
export interface WalkNode {
  record_id: string;
  object_type_slug: string;
  depth: number;
  via: string | null;
  category: Category | null;
  strength: Strength | null;
}

export interface WalkOptions {
  depth: number;
  limit: number;
  /** Object type slugs whose records are returned (all when absent). */
  types?: readonly string[];
  /** Contact categories whose records are returned (all when absent). */
  categories?: readonly string[];
  /** false: nodes only, one round trip fewer (GraphQL `Record.neighbors`). Default true. */
  edges?: boolean;
}

export interface WalkResult {
  nodes: WalkNode[];
  edges: GraphEdge[];
  truncated: boolean;
}

/** How many frontier records one expansion asks for; larger levels take several round trips. */
export const EXPAND_CHUNK = 500;

/**
 * The most records one walk reaches before it stops with `truncated: true`: a rare `types` or
 * `categories` filter at depth 4 could otherwise walk a whole large workspace for one call.
 */
export const VISIT_MAX = 50_000;

/**
 * Breadth-first walk from `root` (a live GraphRecord), treating every edge as undirected for
 * reachability, with one store round trip per level (per EXPAND_CHUNK records of a level).
 *
 * Order, identical on every store because it is decided here:
 * - the root first (depth 0), then depth 1, 2, … (nearest first);
 * - within a depth, by the position of `via` in the previous depth, then by record id; `via` is the
 *   earliest record of the previous depth adjacent to the node. The walk passes through every live
 *   record; `types`/`categories` only choose which are returned (the root always is).
 * - `truncated` is true when a further matching record exists within `depth` beyond `limit`, or
 *   when the walk reached VISIT_MAX records before finishing.
 * - edges: every stored edge between two returned nodes, ordered by the position of the earlier
 *   end, then of the later end, then type, then origin.
 */
export async function walk(store: Pick<GraphStore, 'expandGraph' | 'edgesAmong'>, workspaceId: string, root: GraphRecord, opts: WalkOptions): Promise<WalkResult> {
  const wanted = wantedBy(opts);
  const seen = new Map<string, WalkNode>([[root.id, node(root, 0, null)]]);
  const returned: WalkNode[] = [seen.get(root.id)!];
  const returnedIds = new Set([root.id]);
  let level: WalkNode[] = [returned[0]!];
  let truncated = false;
  // Edges of the answer met while expanding: every edge touching an expanded record is in its
  // expansion, so only the edges among records never expanded are read again at the end.
  const expanded = new Set<string>();
  const known = new Map<string, GraphEdge>();

  // Wanted records found per record expanded, as last seen: sizes the next chunk (see chunkSize).
  let yieldPerRecord = 0;
  for (let depth = 1; depth <= opts.depth && level.length > 0 && !truncated; depth++) {
    const next: WalkNode[] = [];
    for (let start = 0, size = 0; start < level.length && !truncated; start += size) {
      size = chunkSize(opts.limit - returned.length + 1, yieldPerRecord);
      const chunk = level.slice(start, start + size);
      const before = returned.length;
      const position = new Map(chunk.map((n, i) => [n.record_id, start + i]));
      const step = await store.expandGraph(workspaceId, chunk.map((n) => n.record_id));
      const records = new Map(step.records.map((r) => [r.id, r]));
      const found = new Map<string, { via: string; at: number }>();
      // Each edge from both of its ends (no pair arrays: a level has thousands of edges).
      const reach = (here: string, there: string): void => {
        const at = position.get(here);
        if (at === undefined || seen.has(there)) return;
        const best = found.get(there);
        if (!best || at < best.at) found.set(there, { via: here, at });
      };
      for (const edge of step.edges) {
        reach(edge.source, edge.target);
        reach(edge.target, edge.source);
      }
      const discovered = [...found.entries()]
        .sort(([a, x], [b, y]) => x.at - y.at || compare(a, b))
        .map(([id, { via }]) => node(records.get(id)!, depth, via));
      for (const n of discovered) {
        seen.set(n.record_id, n);
        next.push(n);
        if (!wanted(records.get(n.record_id)!)) continue;
        if (returned.length >= opts.limit) {
          truncated = true;
          break;
        }
        returned.push(n);
        returnedIds.add(n.record_id);
      }
      // Both ends' places in the answer are final now: an end is older than this step or was met in it.
      for (const n of chunk) expanded.add(n.record_id);
      for (const edge of step.edges) {
        if (returnedIds.has(edge.source) && returnedIds.has(edge.target)) known.set(edgeKey(edge), edge);
      }
      yieldPerRecord = (returned.length - before) / chunk.length;
      if (seen.size >= VISIT_MAX && !truncated) truncated = true;
    }
    level = next;
  }

  if (returned.length < 2 || opts.edges === false) return { nodes: returned, edges: [], truncated };
  // The rest of the answer's edges, those between two records never expanded (the last depth's
  // among them), in one more round trip of at most limit ≤ 1000 ids.
  const unexpanded = returned.filter((n) => !expanded.has(n.record_id)).map((n) => n.record_id);
  const edges = [...known.values(), ...(unexpanded.length > 1 ? await store.edgesAmong(workspaceId, unexpanded) : [])];
  return { nodes: returned, edges: orderEdges(edges, returned), truncated };
}

/** Whether a record reached is returned: of one of `types` and `categories` when they are given. */
export function wantedBy(opts: Pick<WalkOptions, 'types' | 'categories'>): (r: GraphRecord) => boolean {
  return (r) => (!opts.types || opts.types.includes(r.object_type_slug)) && (!opts.categories || (r.category !== null && opts.categories.includes(r.category)));
}

/**
 * How many records of a level to expand next. Chunks are cut in level order, so the answer does
 * not depend on them; they only save work when the limit is near: with `needed` more records to
 * find and `yieldPerRecord` found per record expanded so far, about needed / yield records (with
 * half again as margin, at least 8) are expanded, else EXPAND_CHUNK.
 */
export function chunkSize(needed: number, yieldPerRecord: number): number {
  if (yieldPerRecord <= 0) return EXPAND_CHUNK;
  return Math.min(EXPAND_CHUNK, Math.max(8, Math.ceil((needed / yieldPerRecord) * 1.5)));
}

export function node(r: GraphRecord, depth: number, via: string | null): WalkNode {
  return { record_id: r.id, object_type_slug: r.object_type_slug, depth, via, category: r.category, strength: r.strength };
}

export const edgeKey = (e: GraphEdge): string => `${e.source}\u0000${e.target}\u0000${e.type}\u0000${e.origin}`;

/** Code-unit order, the same as SQLite's BINARY collation and Cypher's string order. */
export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Edges by the position of their earlier end among `nodes`, then of the later end, then type and origin. */
export function orderEdges(edges: GraphEdge[], nodes: readonly { record_id: string }[]): GraphEdge[] {
  const pos = new Map(nodes.map((n, i) => [n.record_id, i]));
  // Each edge's two positions are looked up once, not on every comparison.
  return orderEdgesAt(edges, edges.map((edge) => pos.get(edge.source)!), edges.map((edge) => pos.get(edge.target)!));
}

/** orderEdges with the positions of each edge's two ends given (aligned with `edges`, either end first). */
export function orderEdgesAt(edges: GraphEdge[], aAt: readonly number[], bAt: readonly number[]): GraphEdge[] {
  const n = edges.length;
  // One number per edge: both positions and, below them, the edge's index, so a typed-array sort
  // with no comparator orders them; edges between the same two records are then in index order, and
  // such runs are put in order by type, origin and source.
  if (n >= INDEXES) return orderEdgesByComparison(edges, aAt, bAt);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = aAt[i]!;
    const b = bAt[i]!;
    if (a >= PAIR || b >= PAIR) return orderEdgesByComparison(edges, aAt, bAt);
    keys[i] = (a < b ? a * PAIR + b : b * PAIR + a) * INDEXES + i;
  }
  keys.sort();
  const sorted = new Array<GraphEdge>(n);
  for (let k = 0; k < n; ) {
    const pair = Math.floor(keys[k]! / INDEXES);
    let end = k + 1;
    while (end < n && Math.floor(keys[end]! / INDEXES) === pair) end++;
    for (let j = k; j < end; j++) sorted[j] = edges[keys[j]! % INDEXES]!;
    if (end - k > 1) {
      const run = sorted.slice(k, end).sort(sameEnds);
      for (let j = k; j < end; j++) sorted[j] = run[j - k]!;
    }
    k = end;
  }
  for (let i = 0; i < n; i++) edges[i] = sorted[i]!;
  return edges;
}

/** orderEdgesAt for more edges, or positions further on, than its keys hold. */
function orderEdgesByComparison(edges: GraphEdge[], aAt: readonly number[], bAt: readonly number[]): GraphEdge[] {
  const pairOf = (i: number): number => Math.min(aAt[i]!, bAt[i]!) * PAIR + Math.max(aAt[i]!, bAt[i]!);
  const order = edges.map((_, i) => i);
  order.sort((i, j) => pairOf(i) - pairOf(j) || sameEnds(edges[i]!, edges[j]!));
  const sorted = order.map((i) => edges[i]!);
  for (let i = 0; i < sorted.length; i++) edges[i] = sorted[i]!;
  return edges;
}

/** Positions below PAIR and edge indexes below INDEXES make keys below 2^52, exact in a double. */
const PAIR = 2 ** 18;
const INDEXES = 2 ** 16;

/** The order of two edges between the same two records: type, origin, then which end is the source. */
const sameEnds = (x: GraphEdge, y: GraphEdge): number => compare(x.type, y.type) || compare(x.origin, y.origin) || compare(x.source, y.source);
