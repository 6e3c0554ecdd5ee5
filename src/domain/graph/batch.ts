import type { GraphStore } from '../store/port-graph.ts';
import type { GraphEdge, GraphRecord } from './types.ts';

type Expansion = Awaited<ReturnType<GraphStore['expandGraph']>>;

interface Pending {
  ids: readonly string[];
  resolve: (value: Expansion) => void;
  reject: (error: unknown) => void;
}

/**
 * An expandGraph that merges the calls made while one batch is gathered (until the event loop
 * turns, `setImmediate`) into one store round trip, and hands each caller the edges touching its
 * own ids. Walks started together (GraphQL's `neighbors` on every record of a page) then cost one
 * round trip per level between them, not one per record.
 */
export function batchExpansions(store: Pick<GraphStore, 'expandGraph' | 'edgesAmong'>, workspaceId: string): Pick<GraphStore, 'expandGraph' | 'edgesAmong'> {
  let queue: Pending[] = [];
  const flush = async () => {
    const batch = queue;
    queue = [];
    try {
      const all = await store.expandGraph(workspaceId, [...new Set(batch.flatMap((p) => p.ids))]);
      const records = new Map(all.records.map((r) => [r.id, r]));
      for (const pending of batch) pending.resolve(slice(all.edges, records, new Set(pending.ids)));
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  };
  return {
    edgesAmong: (ws, ids) => store.edgesAmong(ws, ids),
    expandGraph(ws: string, ids: readonly string[]): Promise<Expansion> {
      if (ws !== workspaceId) return store.expandGraph(ws, ids);
      return new Promise((resolve, reject) => {
        if (queue.length === 0) setImmediate(() => void flush());
        queue.push({ ids, resolve, reject });
      });
    },
  };
}

function slice(edges: readonly GraphEdge[], records: ReadonlyMap<string, GraphRecord>, ids: ReadonlySet<string>): Expansion {
  const mine = edges.filter((e) => ids.has(e.source) || ids.has(e.target));
  const ends = new Set(mine.flatMap((e) => [e.source, e.target]));
  return { edges: mine, records: [...ends].map((id) => records.get(id)!) };
}
