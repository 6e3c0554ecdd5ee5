import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Store } from '../../src/domain/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';
import { holdWriteLock } from '../support/lock-holder.ts';
import { callTool, startHarness, STYLES, type Harness, type Outcome } from './harness.ts';

/**
 * The CLI (another process, another connection to the same file) changes keys and the data model
 * while the server runs. The server checks for such commits once per call begun rather than at
 * every cached read (Store.beginCall), so a call left in flight must not hide a change from the
 * calls that begin after it, in any call style.
 */
describe('changes made by another process while a call is in flight', () => {
  let h: Harness;
  let cli: Store;
  beforeAll(async () => {
    h = await startHarness();
    cli = createSqliteStore({ path: join(h.config.dataDir, 'crm.sqlite') });
    await cli.init();
  });
  afterAll(async () => {
    await cli.close();
    await h.close();
  });

  /** A REST call that has sent its headers and half its body, so the server has authenticated it and waits for the rest. */
  function callInFlight(key: string): { req: ClientRequest; finish: () => Promise<number> } {
    const body = JSON.stringify({ slug: 'companies' });
    const req = request(`${h.url}/v1/objects/get`, {
      method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    });
    const answered = new Promise<IncomingMessage>((resolve, reject) => req.on('response', resolve).on('error', reject));
    // Should an expectation fail first, the test destroys the request: that rejection is no news.
    answered.catch(() => undefined);
    req.write(body.slice(0, 10));
    return {
      req,
      finish: async () => {
        req.end(body.slice(10));
        const res = await answered;
        res.resume();
        return res.statusCode!;
      },
    };
  }

  it('shows a revoked key and a new field to every call begun after them, over every style', async () => {
    // Counts the server's authentications, to know when the half-sent call has authenticated.
    const store = h.server.store;
    const original = store.findKeyHolder;
    let authenticated = 0;
    store.findKeyHolder = async (hash) => {
      const holder = await original.call(store, hash);
      authenticated++;
      return holder;
    };
    const inFlight = callInFlight(h.ws.owner.key);
    try {
      await vi.waitFor(() => expect(authenticated).toBe(1));
      store.findKeyHolder = original;
      await changesShow();
      // The first call authenticated before the changes (to another key); it completes as usual.
      expect(await inFlight.finish()).toBe(200);
    } finally {
      store.findKeyHolder = original;
      inFlight.req.destroy();
    }
  });

  it('brackets each call of every style once, and ends each bracket by the answer', async () => {
    const store = h.server.store;
    const original = store.beginCall;
    let begun = 0;
    let open = 0;
    store.beginCall = () => {
      begun++;
      open++;
      const ended = original.call(store);
      return () => {
        open--;
        ended();
      };
    };
    try {
      for (const style of STYLES) expect((await callTool(h, style, h.ws.owner.key, 'objects.list', {})).ok).toBe(true);
      const res = await fetch(`${h.url}/graphql`, {
        method: 'POST', headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ objectTypes { slug } }' }),
      });
      expect(res.status).toBe(200);
      expect(await callTool(h, 'rest', 'crm_live_not-a-real-key-not-a-real-key-not-a-real', 'objects.list', {})).toMatchObject({ status: 401 });
      expect(begun).toBe(STYLES.length + 2);
      expect(open).toBe(0);
    } finally {
      store.beginCall = original;
    }
  });

  it('keeps every write made while another process holds the write lock, over every style', async () => {
    const key = h.ws.owner.key;
    const idOf = (outcome: Outcome): string => {
      if (!outcome.ok) throw new Error(`${outcome.status} ${outcome.code}: ${outcome.message}`);
      return outcome.result.record_id;
    };
    const made = (await Promise.all(STYLES.map((style) => callTool(h, style, key, 'records.create', { object_type_slug: 'contacts', data: { name: `Before ${style}` } })))).map(idOf);
    const holder = await holdWriteLock(join(h.config.dataDir, 'crm.sqlite'), h.ws.id, 300);
    try {
      const writes = await Promise.all(STYLES.flatMap((style, i) => [
        callTool(h, style, key, 'records.create', { object_type_slug: 'contacts', data: { name: `During ${style}` } }),
        callTool(h, style, key, 'records.update', { record_id: made[i]!, data: { name: `Renamed ${style}` } }),
      ]));
      await holder.released;
      expect(writes.map((w) => (w.ok ? 'kept' : `${w.status} ${w.code}`))).toEqual(STYLES.flatMap(() => ['kept', 'kept']));
      for (const [i, style] of STYLES.entries()) {
        const created = await callTool(h, style, key, 'records.get', { record_id: idOf(writes[2 * i]!) });
        expect(created).toMatchObject({ ok: true, result: { data: { name: `During ${style}` } } });
        const renamed = await callTool(h, style, key, 'records.get', { record_id: made[i]! });
        expect(renamed).toMatchObject({ ok: true, result: { data: { name: `Renamed ${style}` } } });
      }
    } finally {
      holder.kill();
    }
  });

  async function changesShow(): Promise<void> {
    const key = await h.keyFor(h.ws, h.ws.member.user_id);
    // /graphql as well: the bracket is the authentication step every edge shares.
    const graphql = async (as: string) => (await fetch(`${h.url}/graphql`, {
      method: 'POST', headers: { Authorization: `Bearer ${as}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ objectTypes { slug } }' }),
    })).status;
    for (const style of STYLES) expect((await callTool(h, style, key, 'objects.list', {})).ok).toBe(true);
    expect(await graphql(key)).toBe(200);
    const row = (await cli.listApiKeys(h.ws.id)).find((k) => key.endsWith(k.last_four) && !k.revoked_at)!;
    await cli.revokeApiKey(row.id);
    for (const style of STYLES) expect(await callTool(h, style, key, 'objects.list', {})).toMatchObject({ ok: false, status: 401, code: 'unauthorized' });
    expect(await graphql(key)).toBe(401);

    const fields = async (style: (typeof STYLES)[number]) => {
      const got = await callTool(h, style, h.ws.owner.key, 'objects.get', { slug: 'companies' });
      expect(got.ok).toBe(true);
      return (got.ok ? got.result.fields : []).map((f: { slug: string }) => f.slug);
    };
    for (const style of STYLES) expect(await fields(style)).not.toContain('tier');
    await cli.addField(h.ws.id, 'companies', { slug: 'tier', name: 'Tier', type: 'text' });
    for (const style of STYLES) expect(await fields(style)).toContain('tier');
  }
});
