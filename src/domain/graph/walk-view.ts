import { SlotMap, SlotSet } from './slot-set.ts';
import type { GraphEdge, GraphRecord } from './types.ts';
import type { GraphView } from './view.ts';
import { chunkSize, node, orderEdgesAt, VISIT_MAX, wantedBy, type WalkNode, type WalkOptions, type WalkResult } from './walk.ts';

/**
 * Scratch sets of the walk. A walk over a view runs synchronously from start to end, so one set of
 * each serves every walk in the process.
 */
const seen = new SlotSet();
/** The answer position of each returned record, by slot. */
const position = new SlotMap();

/**
 * The walk of walk.ts over a GraphView: the same rules, the same answer, without a store round
 * trip per level or a hash of a record id per edge. Null when the view dropped what it held
 * midway (see GraphView.load): the caller then walks over the store's expansions instead.
 *
 * The rules are walk.ts's, met here as follows: expanding the previous depth's records in order,
 * the first time a record is met is from the earliest record of that depth adjacent to it, which
 * is its `via`; the records first met from one `via` are taken in id order. Chunks are cut exactly
 * as walk.ts cuts them, since the VISIT_MAX cut is checked between chunks.
 */
export function walkView(view: GraphView, root: GraphRecord, opts: WalkOptions): (WalkResult & { slots: number[] }) | null {
  const wanted = wantedBy(opts);
  const rootSlot = view.slot(root.id);
  const nodes: WalkNode[] = [node(root, 0, null)];
  const slots = [rootSlot];
  seen.begin().add(rootSlot);
  let seenCount = 1;
  let level = [rootSlot];
  let truncated = false;
  let yieldPerRecord = 0;
  const met: number[] = [];
  const byId = (a: number, b: number): number => view.compare(a, b);

  for (let depth = 1; depth <= opts.depth && level.length > 0 && !truncated; depth++) {
    const next: number[] = [];
    for (let start = 0, size = 0; start < level.length && !truncated; start += size) {
      size = chunkSize(opts.limit - nodes.length + 1, yieldPerRecord);
      const chunk = level.slice(start, start + size);
      const before = nodes.length;
      if (!view.load(chunk)) return null;
      const ends = view.ends();
      for (let c = 0; c < chunk.length && !truncated; c++) {
        const here = chunk[c]!;
        met.length = 0;
        for (let i = view.first(here), to = i + 2 * view.count(here); i < to; i += 2) {
          const there = ends[i]!;
          if (there !== here && view.record(there) && seen.add(there)) met.push(there);
        }
        if (met.length > 1) met.sort(byId);
        seenCount += met.length;
        const via = view.id(here);
        for (const there of met) {
          next.push(there);
          const record = view.record(there)!;
          if (!wanted(record)) continue;
          if (nodes.length >= opts.limit) {
            truncated = true;
            break;
          }
          nodes.push(node(record, depth, via));
          slots.push(there);
        }
      }
      yieldPerRecord = (nodes.length - before) / chunk.length;
      if (seenCount >= VISIT_MAX && !truncated) truncated = true;
    }
    level = next;
  }

  if (nodes.length < 2 || opts.edges === false) return { nodes, edges: [], truncated, slots };
  // Every stored edge between two returned records, once, at its from end.
  if (!view.load(slots, false)) return null;
  position.begin();
  for (let at = 0; at < slots.length; at++) position.set(slots[at]!, at);
  const edges: GraphEdge[] = [];
  const hereAt: number[] = [];
  const thereAt: number[] = [];
  const ends = view.ends();
  for (let at = 0; at < slots.length; at++) {
    const here = slots[at]!;
    for (let i = view.first(here), to = i + 2 * view.outs(here); i < to; i += 2) {
      const there = ends[i]!;
      const thereIs = there === here ? -1 : position.get(there);
      if (thereIs < 0) continue;
      edges.push(view.edge(here, there, ends[i + 1]!));
      hereAt.push(at);
      thereAt.push(thereIs);
    }
  }
  return { nodes, edges: orderEdgesAt(edges, hereAt, thereAt), truncated, slots };
}
