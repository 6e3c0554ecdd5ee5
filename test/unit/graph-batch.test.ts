import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { createServices } from '../../src/domain/services/context.ts';
import { createWorkspace } from '../../src/domain/services/settings.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';

/** Record.neighbors in GraphQL: walks started together share one store round trip per level. */
let store: Store;
let calls: string[][] = [];
beforeAll(async () => {
  const real = createSqliteStore({ path: ':memory:' });
  await real.init();
  // The real store, counting its expansions.
  store = { ...real, expandGraph: (ws: string, ids: readonly string[]) => { calls.push([...ids]); return real.expandGraph(ws, ids); } };
});
afterAll(() => store.close());

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
});
