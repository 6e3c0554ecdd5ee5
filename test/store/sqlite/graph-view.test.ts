import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../../gateway/seed/index.ts';
import type { Category } from '../../../src/domain/graph/types.ts';
import { walkView } from '../../../src/domain/graph/walk-view.ts';
import { walk, type WalkOptions } from '../../../src/domain/graph/walk.ts';
import { createServices } from '../../../src/domain/services/context.ts';
import type { Store } from '../../../src/domain/store/port.ts';
import { Connection } from '../../../src/store/sqlite/connection.ts';
import { GraphCache } from '../../../src/store/sqlite/graph-cache.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * The walk over the SQLite store's GraphView (walk-view.ts) against the walk over its expansions
 * (walk.ts) on the demo graph, with soft-deleted records and persisted classifications: every
 * node, via, edge, order and truncation the same. The conformance suite checks the same on its
 * fixed graph; this one covers hubs, chunked levels and limits cut mid-level.
 */
let t: TempStore;
let ws: string;
let owner: string;
const roots: string[] = [];
beforeAll(async () => {
  t = await tempStore();
  const seeded = await seedDemo(t.store, { scale: 0.2, keyPrefix: 'crm' });
  ws = seeded.workspace_id;
  owner = (await t.store.listUsers(ws))[0]!.id;
  const byType = await Promise.all(['companies', 'contacts', 'deals'].map((slug) => t.store.recordIdsOf(ws, slug, null, 10_000)));
  // Two more links per record, anywhere (a fixed pseudo-random sequence): one connected graph whose
  // deep walks fill levels of more than one chunk.
  const all = byType.flat();
  let seed = 7;
  const next = (n: number): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
  await t.store.createLinks(ws, all.flatMap((from) => [0, 1].map(() => ({
    from_id: from, to_id: all[next(all.length)]!, type: ['knows', 'partner_of', 'introduced_by'][next(3)]!, properties: {}, created_by: null,
  }))).filter((l) => l.from_id !== l.to_id));
  // Records the walks pass by that are gone (their edges stay stored) and contacts with a category.
  for (const ids of byType) for (const id of ids.filter((_, i) => i % 17 === 5)) await t.store.softDeleteRecord(ws, id);
  const categories: Category[] = ['customer', 'partner', 'investor', 'prospect'];
  await t.store.saveClassifications(ws, byType[1]!.filter((_, i) => i % 3 === 0).map((record_id, i) => ({
    record_id, category: categories[i % categories.length]!, strength: 'warm', score: 50, reasons: [], classified_at: '2026-01-01T00:00:00.000Z',
  })), []);
  for (const ids of byType) roots.push(...ids.filter((_, i) => i % 17 !== 5).filter((_, i) => i % 3 === 0).slice(0, 4));
}, 60_000);
afterAll(() => t?.cleanup());

const OPTIONS: WalkOptions[] = [
  { depth: 1, limit: 100 },
  { depth: 2, limit: 9 },
  { depth: 3, limit: 500 },
  { depth: 4, limit: 1000 },
  { depth: 4, limit: 60, types: ['contacts'] },
  { depth: 3, limit: 200, types: ['deals', 'companies'] },
  { depth: 4, limit: 40, categories: ['customer', 'partner'] },
  { depth: 2, limit: 100, edges: false },
];

describe('the walk over the SQLite GraphView', () => {
  it('answers exactly what the walk over expandGraph and edgesAmong answers', async () => {
    let compared = 0;
    let truncated = 0;
    let large = 0;
    for (const id of roots) {
      const [root] = await t.store.graphRecords(ws, [id]);
      for (const options of OPTIONS) {
        const expected = await walk(t.store, ws, root!, options);
        const view = await t.store.graphView(ws);
        const held = view && walkView(view, root!, options);
        expect(held).not.toBeNull();
        expect({ nodes: held!.nodes, edges: held!.edges, truncated: held!.truncated }).toEqual(expected);
        compared += expected.nodes.length;
        if (expected.truncated) truncated++;
        if (expected.nodes.length > 300) large++;
      }
    }
    // Enough of the graph was walked, limits cut and large answers met, for the comparison to mean something.
    expect(roots.length).toBe(12);
    expect({ compared: compared > 10_000, truncated: truncated > 10, large: large > 10 }).toEqual({ compared: true, truncated: true, large: true });
  });

  it('gives up, rather than answer from slots a fill made void, when the cache starts over midway', async () => {
    const c = new Connection(t.path);
    c.open();
    try {
      const [root] = await t.store.graphRecords(ws, [roots[0]!]);
      // Room for a few records' edges only: a walk's second fill starts the workspace over.
      const small = new GraphCache(c, { maxEnds: 40 });
      expect(walkView(small.view(ws), root!, { depth: 3, limit: 500 })).toBeNull();
      const roomy = new GraphCache(c);
      expect(walkView(roomy.view(ws), root!, { depth: 3, limit: 500 })?.nodes).toEqual((await walk(t.store, ws, root!, { depth: 3, limit: 500 })).nodes);
    } finally {
      c.close();
    }
  });

  it('lets graph.query answer through the expansions when the view gives up, with the same answer', async () => {
    const actor = { workspace_id: ws, user_id: owner, role: 'owner' as const, key_id: null, scopes: [], via: 'rest' as const, tool: null, plan: null, trial_ends_at: null };
    let gaveUp = 0;
    const failing: Store = {
      ...t.store,
      graphView: async (workspaceId) => {
        const view = await t.store.graphView(workspaceId);
        return view && Object.assign(Object.create(view) as typeof view, { load: () => (gaveUp++, false) });
      },
    };
    for (const id of roots.slice(0, 6)) {
      const input = { record_id: id, depth: 3, limit: 300 };
      expect(await createServices(failing, actor).graph.query(input)).toEqual(await createServices(t.store, actor).graph.query(input));
    }
    expect(gaveUp).toBe(6);
  });
});
