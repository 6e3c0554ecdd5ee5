import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchEvents } from '../../gateway/comms/webhooks.ts';
import { createWorkspace } from '../../src/domain/services/settings.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';
import { ev } from '../store/conformance/work.ts';

/**
 * How the dispatcher reports a backlog, on the real store: a round that took a whole batch of a
 * webhook's events says more may wait (the workers then run the next round at once), and one that
 * left events only because they were too young to take does not, so the next rounds do not spin
 * on them until they settle.
 */
let store: Store;
beforeAll(async () => {
  store = createSqliteStore({ path: ':memory:' });
  await store.init();
});
afterAll(() => store.close());

const policy = { baseMs: 1000, maxAttempts: 3, secretsKey: null, allowPrivateNetworks: true };

describe('dispatching timeline events to webhooks', () => {
  it('says it is behind after a whole batch, and not while the rest is too young to take', async () => {
    const ws = await createWorkspace(store, { name: 'Dispatch', plan: 'pro', trialDays: null });
    await store.createComm(ws.id, {
      kind: 'integration', status: 'connected', tag: 'webhook', thread_id: null, at: new Date().toISOString(),
      data: { cursor: '', config: { url: 'https://hooks.example.com/x', events: ['*'] } }, record_ids: [], next_attempt_at: null, created_by: null,
    }, []);
    for (let i = 0; i < 150; i++) {
      await store.createComm(ws.id, {
        kind: 'message', status: 'delivered', tag: 'internal', thread_id: null, at: new Date().toISOString(), data: { body: `m${i}` },
        record_ids: [], next_attempt_at: null, created_by: null,
      }, [ev('create', 'message', `msg_${i}`)]);
    }
    const mine = async (settleMs: number) => {
      const out = await dispatchEvents(store, { ...policy, settleMs });
      return { behind: out.behind, mine: (await store.listComms(ws.id, { kind: 'delivery', offset: 0, limit: 1 })).total };
    };
    // All too young: nothing taken, and nothing to hurry for.
    expect(await mine(60_000)).toEqual({ behind: false, mine: 0 });
    expect(await mine(0)).toEqual({ behind: true, mine: 100 });
    expect(await mine(0)).toEqual({ behind: false, mine: 150 });
  });
});
