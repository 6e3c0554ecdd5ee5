import { RequestCache } from '@pothos/plugin-scope-auth';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { authenticate } from '../../gateway/auth/principal.ts';
import { CATALOG } from '../../gateway/tools/index.ts';
import type { Principal } from '../../gateway/tools/invoke.ts';
import { useDirectGraphQL } from '../../gateway/transports/graphql-direct.ts';
import { actorOf } from '../../src/domain/actor.ts';
import { builder } from '../../src/graphql/builder.ts';
import { createContext, type GraphQLContext } from '../../src/graphql/context.ts';
import { runOperation } from '../../src/graphql/execute.ts';
import { callTool, startHarness, STYLES, type Harness } from '../e2e/harness.ts';

// The scope plugin keeps each call's cache in a WeakMap keyed by the context, and the cache holds
// the context: unless the entry is deleted when the call ends, V8's young-generation GC keeps the
// whole call alive and promotes it (src/graphql/context.ts, releaseContext). A fresh cache for the
// same context after the call is how the deletion shows.

let h: Harness;
let principal: Principal;
beforeAll(async () => {
  h = await startHarness();
  principal = await authenticate(h.server.store, `Bearer ${h.ws.owner.key}`, 'crm');
});
afterEach(() => {
  vi.restoreAllMocks();
  useDirectGraphQL(true);
});
afterAll(async () => {
  await h?.close();
});

const objectsGet = CATALOG.get('objects.get')!.operation;

describe('a call lets its scope cache go', () => {
  it('once runOperation has run the operation', async () => {
    const context = createContext(h.server.store, actorOf(principal, 'rest', 'objects.get'));
    const during = RequestCache.fromContext(context, builder);
    await runOperation(objectsGet.document, objectsGet.variables({ slug: 'companies' }), context);
    expect(RequestCache.fromContext(context, builder)).not.toBe(during);
  });

  it('also when the operation fails', async () => {
    const context = createContext(h.server.store, actorOf(principal, 'rest', 'objects.get'));
    const during = RequestCache.fromContext(context, builder);
    await expect(runOperation(objectsGet.document, objectsGet.variables({ slug: 'no_such_type' }), context)).rejects.toMatchObject({ code: 'not_found' });
    expect(RequestCache.fromContext(context, builder)).not.toBe(during);
  });

  const released = () => {
    const spy = vi.spyOn(RequestCache, 'clearForContext');
    return () => spy.mock.calls.map(([context]) => (context as GraphQLContext).actor.via);
  };

  it.each(STYLES)('for a tool called over %s', async (style) => {
    const vias = released();
    const outcome = await callTool(h, style, h.ws.owner.key, 'objects.get', { slug: 'companies' });
    expect(outcome.ok).toBe(true);
    expect(vias()).toEqual([style]);
  });

  it.each([true, false])('for a /graphql operation (direct path: %s)', async (direct) => {
    useDirectGraphQL(direct);
    const vias = released();
    const res = await fetch(`${h.url}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ objectTypes { slug } }' }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.objectTypes.length).toBeGreaterThan(0);
    expect(vias()).toEqual(['graphql']);
  });
});
