import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/domain/services/settings.ts';
import type { Comm } from '../../src/domain/store/port-comms.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';
import { LEASE_MS, workDue } from '../../gateway/comms/retry.ts';
import { createLogger } from '../../gateway/logger.ts';

/**
 * How the outbound workers claim work, on the real store: an item is leased when its turn comes,
 * not with a whole batch, so a replica never finds the rest of a slow batch's items past their
 * lease and sends them again.
 */
let store: Store;
beforeAll(async () => {
  store = createSqliteStore({ path: ':memory:' });
  await store.init();
});
afterAll(() => store.close());

const logger = createLogger('silent');

async function queued(count: number): Promise<string> {
  const ws = await createWorkspace(store, { name: 'Lease', plan: 'pro', trialDays: null });
  for (let i = 0; i < count; i++) {
    await store.createComm(ws.id, {
      kind: 'email', status: 'queued', tag: null, thread_id: null, at: new Date().toISOString(), data: { subject: `Mail ${i}` },
      record_ids: [], next_attempt_at: new Date(Date.now() - 1000).toISOString(), created_by: null,
    }, []);
  }
  return ws.id;
}

/** Marks an item done, as a worker records its outcome. */
const done = async (item: Comm): Promise<void> => {
  await store.updateComm(item.workspace_id, 'email', item.id, { status: 'sent', next_attempt_at: null });
};

describe('claiming due outbound work', () => {
  it('claims one at a time items whose work may take half the lease, so another replica takes the rest meanwhile', async () => {
    await queued(3);
    const other: string[] = [];
    const mine: string[] = [];
    await workDue(store, 'email', 'queued', 10, LEASE_MS, logger, async (item) => {
      mine.push(item.id);
      // Another replica's round, while this one works its first item.
      if (mine.length === 1) {
        const now = Date.now();
        for (const taken of await store.claimDueComms('email', ['queued'], new Date(now).toISOString(), new Date(now + LEASE_MS).toISOString(), 10)) {
          other.push(taken.id);
          await done(taken);
        }
      }
      await done(item);
    });
    expect(mine).toHaveLength(1);
    expect(other).toHaveLength(2);
    expect(new Set([...mine, ...other]).size).toBe(3);
  });

  it('claims several at once when they fit in half the lease, up to the round limit', async () => {
    await queued(5);
    const sizes: number[] = [];
    const real = store.claimDueComms.bind(store);
    const counting = { ...store, claimDueComms: async (...args: Parameters<Store['claimDueComms']>) => {
      const got = await real(...args);
      sizes.push(got.length);
      return got;
    } } as Store;
    expect(await workDue(counting, 'email', 'queued', 4, 10_000, logger, done)).toBe(4);
    expect(sizes).toEqual([4]);
    expect(await workDue(counting, 'email', 'queued', 4, LEASE_MS / 4, logger, done)).toBe(1);
    expect(sizes).toEqual([4, 1]);
  });

  it('works the items of one claim at once when asked, so one slow item holds the others for its own time only', async () => {
    const busiest = async (together: boolean) => {
      await queued(3);
      let active = 0;
      let most = 0;
      await workDue(store, 'email', 'queued', 3, 10_000, logger, async (item) => {
        most = Math.max(most, ++active);
        await new Promise((resolve) => setTimeout(resolve, 20));
        active -= 1;
        await done(item);
      }, together);
      return most;
    };
    expect(await busiest(false)).toBe(1);
    expect(await busiest(true)).toBe(3);
  });
});
