import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { createServices } from '../../src/domain/services/context.ts';
import { createWorkspace } from '../../src/domain/services/settings.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';

/**
 * Record.neighbors in GraphQL: over the graph a store holds in memory when it holds one, else by
 * walks started together sharing one store round trip per level.
 */
let real: Store;
let store: Store;
let calls: string[][] = [];
beforeAll(async () => {
  real = createSqliteStore({ path: ':memory:' });
  await real.init();
  // The real store, counting its expansions, without the graph in memory (as Neo4j's adapter).
  store = { ...real, graphView: async () => null, expandGraph: (ws: string, ids: readonly string[]) => { calls.push([...ids]); return real.expandGraph(ws, ids); } };
});
afterAll(() => real.close());

describe('batched neighbour walks', () => {
  it('answers each walk as alone, with one expansion per level for all of them', async () => {
    const ws = await createWorkspace(store, { name: 'Batch', plan: 'pro', trialDays: null });
    const actor: Actor = { workspace_id: ws.id, user_id: 'usr_x', role: 'owner', key_id: null, scopes: [], via: 'graphql', tool: null, plan: 'pro', trial_ends_at: null };
    const services = createServices(store, actor);
    const company = await services.records.create({ object_type_slug: 'companies', data: { name: 'Hub' } });
    const people = [];
    for (const name of ['P1', 'P2', 'P3', 'P4']) people.push(await services.records.create({ object_type_slug: 'contacts', data: { name, company: company.id } }));
    const alone = await Promise.all(people.map(async (p) => {
      const fresh = createServices(store, actor);
      return (await fresh.graph.neighbors(p, { depth: 2 })).map((n) => n.record_id);
    }));
    calls = [];
    const together = await Promise.all(people.map((p) => services.graph.neighbors(p, { depth: 2 })));
    expect(together.map((nodes) => nodes.map((n) => n.record_id))).toEqual(alone);
    expect(alone[0]).toEqual([company.id, ...people.slice(1).map((p) => p.id).sort()]);
    // Depth 2: level 0 for all four roots, then level 1 for the hub and the other people.
    expect(calls.length).toBe(2);
    expect(calls[0]!.sort()).toEqual(people.map((p) => p.id).sort());
  });

  it('answers over the graph held in memory what the batched walks answer, with no expansion', async () => {
    const ws = await createWorkspace(store, { name: 'Held', plan: 'pro', trialDays: null });
    const actor: Actor = { workspace_id: ws.id, user_id: 'usr_x', role: 'owner', key_id: null, scopes: [], via: 'graphql', tool: null, plan: 'pro', trial_ends_at: null };
    const services = createServices(store, actor);
    const hubs = [];
    for (const name of ['North', 'South']) hubs.push(await services.records.create({ object_type_slug: 'companies', data: { name } }));
    const people = [];
    for (let i = 0; i < 8; i++) people.push(await services.records.create({ object_type_slug: 'contacts', data: { name: `P${i}`, company: hubs[i % 2]!.id } }));
    for (let i = 0; i < 3; i++) await services.records.create({ object_type_slug: 'deals', data: { name: `D${i}`, company: hubs[0]!.id, stage: 'lead' } });
    await services.graph.link({ from_record_id: people[0]!.id, to_record_id: people[1]!.id, type: 'knows' });
    // The real store whose expansions fail: an answer can only come from the graph it holds.
    const viewOnly: Store = { ...real, expandGraph: () => Promise.reject(new Error('expanded')) };
    const held = createServices(viewOnly, actor);
    for (const args of [{ depth: 1 }, { depth: 3 }, { depth: 3, types: 'deals,companies' }]) {
      const batched = await Promise.all(people.map((p) => services.graph.neighbors(p, args)));
      const fromView = await Promise.all(people.map((p) => held.graph.neighbors(p, args)));
      expect(fromView).toEqual(batched);
      expect(fromView[0]!.length).toBeGreaterThan(0);
    }
    // P0 at depth 3 reaches South through P1, and every deal through North.
    const names = (await held.graph.neighbors(people[0]!, { depth: 3 })).map((n) => `${n.display_name}@${n.depth}`);
    expect(names).toEqual(expect.arrayContaining(['North@1', 'P1@1', 'South@2', 'D0@2', 'P7@3']));
  });
});
