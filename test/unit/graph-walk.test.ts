import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../gateway/seed/index.ts';
import type { GraphEdge } from '../../src/domain/graph/types.ts';
import { chunkSize, EXPAND_CHUNK, orderEdges, orderEdgesAt, walk } from '../../src/domain/graph/walk.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';

/** Walk properties on the demo graph (cycles, hubs, several relation types) that the chunking must not change. */
let store: Store;
let ws: string;
beforeAll(async () => {
  store = createSqliteStore({ path: ':memory:' });
  await store.init();
  ws = (await seedDemo(store, { scale: 0.05, keyPrefix: 'crm' })).workspace_id;
});
afterAll(() => store.close());

describe('the walk', () => {
  it('sizes chunks from the yield seen so far, within bounds', () => {
    expect(chunkSize(100, 0)).toBe(EXPAND_CHUNK);
    expect(chunkSize(100, 20)).toBe(8);
    expect(chunkSize(1000, 2)).toBe(EXPAND_CHUNK);
    expect(chunkSize(200, 10)).toBe(30);
  });

  it('returns under a limit exactly the first nodes of the unlimited answer, whatever the chunks', async () => {
    const companies = await store.recordIdsOf(ws, 'companies', null, 5);
    for (const id of companies) {
      const root = (await store.graphRecords(ws, [id]))[0]!;
      for (const types of [undefined, ['contacts']]) {
        const full = await walk(store, ws, root, { depth: 4, limit: 1000, ...(types ? { types } : {}) });
        expect(full.truncated).toBe(false);
        for (const limit of [1, 2, 7, 30, full.nodes.length - 1]) {
          if (limit < 1) continue;
          const cut = await walk(store, ws, root, { depth: 4, limit, ...(types ? { types } : {}) });
          expect(cut.nodes).toEqual(full.nodes.slice(0, limit));
          expect(cut.truncated).toBe(full.nodes.length > limit);
          const kept = new Set(cut.nodes.map((n) => n.record_id));
          expect(cut.edges).toEqual(full.edges.filter((e) => kept.has(e.source) && kept.has(e.target)));
        }
      }
    }
  });

  it('puts every node one hop from its via, one depth further, and never a node twice', async () => {
    const [id] = await store.recordIdsOf(ws, 'contacts', null, 1);
    const found = await walk(store, ws, (await store.graphRecords(ws, [id!]))[0]!, { depth: 3, limit: 1000 });
    const depth = new Map(found.nodes.map((n) => [n.record_id, n.depth]));
    expect(depth.size).toBe(found.nodes.length);
    const pairs = new Set(found.edges.flatMap((e) => [`${e.source} ${e.target}`, `${e.target} ${e.source}`]));
    for (const n of found.nodes.slice(1)) {
      expect(depth.get(n.via!)).toBe(n.depth - 1);
      expect(pairs.has(`${n.via} ${n.record_id}`)).toBe(true);
    }
    expect(found.nodes.map((n) => n.depth)).toEqual([...found.nodes.map((n) => n.depth)].sort((a, b) => a - b));
  });
});

describe('edge order', () => {
  const nodes = ['rec_C', 'rec_A', 'rec_B'].map((record_id) => ({ record_id }));
  const edge = (source: string, target: string, type: string, origin: GraphEdge['origin']): GraphEdge => ({ source, target, type, origin });
  // The order an answer lists them in: by the earlier end's position, the later end's, type, origin, source.
  const ordered = [
    edge('rec_A', 'rec_C', 'company', 'field'),
    edge('rec_A', 'rec_C', 'knows', 'link'),
    edge('rec_C', 'rec_A', 'knows', 'link'),
    edge('rec_A', 'rec_C', 'partner_of', 'field'),
    edge('rec_A', 'rec_C', 'partner_of', 'link'),
    edge('rec_C', 'rec_B', 'knows', 'link'),
    edge('rec_B', 'rec_A', 'invested_in', 'link'),
  ];

  it('orders edges by their ends\' positions, then type, origin and source, whatever order they came in', () => {
    for (let shift = 0; shift < ordered.length; shift++) {
      const given = [...ordered.slice(shift), ...ordered.slice(0, shift)].reverse();
      expect(orderEdges([...given], nodes)).toEqual(ordered);
    }
  });

  it('orders edges the same way between records further on than its keys hold', () => {
    const at = new Map(nodes.map((n, i) => [n.record_id, 2 ** 30 + i]));
    for (let shift = 0; shift < ordered.length; shift++) {
      const given = [...ordered.slice(shift), ...ordered.slice(0, shift)].reverse();
      expect(orderEdgesAt(given, given.map((e) => at.get(e.source)!), given.map((e) => at.get(e.target)!))).toEqual(ordered);
    }
  });

  it('gives the same order from positions handed in, either end first', () => {
    const at = new Map(nodes.map((n, i) => [n.record_id, i]));
    const given = [...ordered].reverse();
    const sorted = orderEdgesAt(given, given.map((e, i) => at.get(i % 2 ? e.source : e.target)!), given.map((e, i) => at.get(i % 2 ? e.target : e.source)!));
    expect(sorted).toEqual(ordered);
  });
});
