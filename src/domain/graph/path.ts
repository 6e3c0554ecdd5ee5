import type { GraphStore } from '../store/port-graph.ts';
import { nextTurn } from '../turns.ts';
import type { GraphEdge, GraphRecord, Strength } from './types.ts';
import { EXPAND_CHUNK, VISIT_MAX, compare, edgeKey, node, orderEdges, type WalkNode } from './walk.ts';

export interface GraphPath {
  nodes: WalkNode[];
  edges: GraphEdge[];
  length: number;
  score: number;
}

/** Points a person on the way adds to a path: warm introductions rank first. */
export const STRENGTH_POINTS: Readonly<Record<Strength, number>> = { strong: 3, warm: 2, weak: 1, cold: 0 };

/** At most this many shortest paths are ranked; the enumeration is bounded whatever the graph. */
export const PATH_CANDIDATES = 1000;

/**
 * The most records both ends of one search reach together before it gives up with `truncated:
 * true` (but for a level of at most one chunk of records, taken all the same): graph.query's
 * VISIT_MAX for each end. Between two hubs of a large workspace a search for a
 * path that does not exist would otherwise walk both components whole, up to max_depth.
 */
export const PATH_VISIT_MAX = 2 * VISIT_MAX;

export interface PathSearch {
  paths: GraphPath[];
  /** The search stopped at PATH_VISIT_MAX records before it found a path or reached max_depth: a longer search might find one. */
  truncated: boolean;
}

interface Side {
  dist: Map<string, number>;
  parents: Map<string, string[]>;
  frontier: string[];
}

/**
 * The shortest paths between two live records (edges undirected), at most `maxDepth` edges long:
 * a breadth-first search from both ends, one store round trip per level (the smaller frontier grows
 * first). Only paths of the shortest length are returned, ranked by `score` (the STRENGTH_POINTS of
 * the records between the ends) descending, then by their record ids in order; at most `limit`.
 * Empty when none exists within maxDepth, or when the two sides reached `visitMax` records between
 * them first (`truncated`: a level left part-way answers no path, so none is reported as the shortest
 * while others of its length, or a warmer one, may be unread).
 */
export async function shortestPaths(
  store: GraphStore, workspaceId: string, from: GraphRecord, to: GraphRecord, maxDepth: number, limit: number,
  visitMax = PATH_VISIT_MAX,
): Promise<PathSearch> {
  const records = new Map<string, GraphRecord>([[from.id, from], [to.id, to]]);
  const edges = new Map<string, GraphEdge[]>();
  const side = (id: string): Side => ({ dist: new Map([[id, 0]]), parents: new Map(), frontier: [id] });
  const fwd = side(from.id);
  const bwd = side(to.id);
  let meeting: string[] = [];
  const reached = (): number => fwd.dist.size + bwd.dist.size;
  for (let length = 1; length <= maxDepth && meeting.length === 0; length++) {
    const grow = fwd.frontier.length <= bwd.frontier.length ? fwd : bwd;
    const other = grow === fwd ? bwd : fwd;
    if (grow.frontier.length === 0) break;
    // Past the bound, a level of one chunk is still taken: from a hub of 100,000 neighbours the
    // other end's own few relations are one cheap round trip, and may close the path.
    if (reached() >= visitMax && grow.frontier.length > EXPAND_CHUNK) return { paths: [], truncated: true };
    const next = new Set<string>();
    const depth = grow.dist.get(grow.frontier[0]!)! + 1;
    for (let start = 0; start < grow.frontier.length; start += EXPAND_CHUNK) {
      // Other calls run between two chunks: on the embedded store each read answers at once, and
      // a search that finds no path walks both ends' components up to visitMax (104k contacts: 1.1 s).
      if (start > 0 || length > 1) await nextTurn();
      if (start > 0 && reached() >= visitMax) return { paths: [], truncated: true };
      const chunk = grow.frontier.slice(start, start + EXPAND_CHUNK);
      const inChunk = new Set(chunk);
      const step = await store.expandGraph(workspaceId, chunk);
      for (const r of step.records) records.set(r.id, r);
      for (const edge of step.edges) {
        for (const [here, there] of [[edge.source, edge.target], [edge.target, edge.source]] as const) {
          if (!inChunk.has(here)) continue;
          const pair = pairKey(here, there);
          const known = edges.get(pair) ?? [];
          if (!known.some((e) => edgeKey(e) === edgeKey(edge))) edges.set(pair, [...known, edge]);
          const seenAt = grow.dist.get(there);
          if (seenAt !== undefined && seenAt !== depth) continue;
          grow.dist.set(there, depth);
          const parents = grow.parents.get(there) ?? [];
          if (!parents.includes(here)) grow.parents.set(there, [...parents, here]);
          next.add(there);
        }
      }
    }
    grow.frontier = [...next].sort(compare);
    const sums = grow.frontier.filter((id) => other.dist.has(id)).map((id) => [id, depth + other.dist.get(id)!] as const);
    const best = Math.min(...sums.map(([, sum]) => sum));
    meeting = sums.filter(([, sum]) => sum === best).map(([id]) => id);
  }
  if (meeting.length === 0) return { paths: [], truncated: false };

  const candidates: string[][] = [];
  for (const m of meeting.sort(compare)) {
    for (const head of routes(fwd, m, from.id)) {
      for (const tail of routes(bwd, m, to.id)) {
        if (candidates.length >= PATH_CANDIDATES) break;
        candidates.push([...head, ...tail.reverse().slice(1)]);
      }
    }
  }
  const scored = candidates.map((ids) => ({ ids, score: ids.slice(1, -1).reduce((sum, id) => sum + points(records.get(id)), 0) }));
  scored.sort((a, b) => b.score - a.score || compare(a.ids.join(' '), b.ids.join(' ')));
  const paths = scored.slice(0, limit).map(({ ids, score }) => {
    const nodes = ids.map((id, i) => node(records.get(id)!, i, i === 0 ? null : ids[i - 1]!));
    const pathEdges = ids.slice(1).flatMap((id, i) => edges.get(pairKey(ids[i]!, id)) ?? []);
    return { nodes, edges: orderEdges(pathEdges, nodes), length: ids.length - 1, score };
  });
  return { paths, truncated: false };
}

const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

const points = (r: GraphRecord | undefined): number => (r?.strength ? STRENGTH_POINTS[r.strength] : 0);

/** Every route from the side's start to `id` through its parents, as ids from the start; bounded by PATH_CANDIDATES. */
function routes(side: Side, id: string, start: string): string[][] {
  if (id === start) return [[start]];
  const out: string[][] = [];
  for (const parent of [...(side.parents.get(id) ?? [])].sort(compare)) {
    for (const route of routes(side, parent, start)) {
      if (out.length >= PATH_CANDIDATES) return out;
      out.push([...route, id]);
    }
  }
  return out;
}
