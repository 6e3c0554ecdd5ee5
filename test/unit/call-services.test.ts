import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { createServices } from '../../src/domain/services/context.ts';
import { createWorkspace } from '../../src/domain/services/settings.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';

/** The services of one call are made when first used and shared for the rest of the call. */
let store: Store;
let typeReads = 0;
let actor: Actor;
beforeAll(async () => {
  const real = createSqliteStore({ path: ':memory:' });
  await real.init();
  // The real store, counting its object-type reads.
  store = { ...real, getObjectType: (ws: string, slug: string) => { typeReads += 1; return real.getObjectType(ws, slug); } };
  const ws = await createWorkspace(store, { name: 'Lazy', plan: 'pro', trialDays: null });
  actor = { workspace_id: ws.id, user_id: 'usr_x', role: 'owner', key_id: null, scopes: [], via: 'graphql', tool: null, plan: 'pro', trial_ends_at: null };
});
afterAll(() => store.close());

describe('per-call services', () => {
  it('hands out one instance of each service per call, and new ones to the next call', () => {
    const call = createServices(store, actor);
    const next = createServices(store, actor);
    for (const name of ['objects', 'records', 'lists', 'views', 'notes', 'tasks', 'timeline', 'reports', 'analytics', 'email', 'messages', 'meetings', 'integrations', 'billing', 'graph', 'classify', 'settings'] as const) {
      expect(call[name], name).toBeDefined();
      expect(call[name], name).toBe(call[name]);
      expect(next[name], name).not.toBe(call[name]);
    }
  });

  it('shares the object-type lookups of a call between the services that use them', async () => {
    const call = createServices(store, actor);
    typeReads = 0;
    const company = await call.records.create({ object_type_slug: 'companies', data: { name: 'Shared' } });
    const reads = typeReads;
    expect(reads).toBeGreaterThan(0);
    // The objects service the records service used is the call's own: the type is not read again.
    await call.objects.get('companies');
    const list = await call.lists.create({ name: 'Accounts', object_type_slug: 'companies' });
    expect(list.name).toBe('Accounts');
    await call.records.get(company.id);
    expect(typeReads).toBe(reads);
    // Another call starts with its own lookups.
    await createServices(store, actor).objects.get('companies');
    expect(typeReads).toBe(reads + 1);
  });
});
