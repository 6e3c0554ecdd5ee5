import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewComm } from '../../../src/domain/store/port.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * comm_queues (migration 32) holds, per kind, status and workspace, the earliest next_attempt_at of
 * its live scheduled items, kept by triggers; the outbound claim reads whose turn it is from it. It
 * must equal what the comms table says after any mix of writes, or a claim would skip due work
 * (a head left late) or spin on none (a head left early).
 */
let t: TempStore;
beforeAll(async () => {
  t = await tempStore();
});
afterAll(() => t.cleanup());

const at = (s: number) => new Date(Date.UTC(2000, 0, 1) + s * 1000).toISOString();
const item = (status: string, next: string | null): NewComm => ({
  kind: 'delivery', status, tag: 'int_x', thread_id: null, at: at(0), data: {}, record_ids: [], next_attempt_at: next, created_by: null,
});

function heads(): string[] {
  return (t.raw().prepare('SELECT kind, status, workspace_id, due_at FROM comm_queues ORDER BY 1, 2, 3').all() as Array<Record<string, string>>)
    .map((r) => `${r.kind}/${r.status}/${r.workspace_id}@${r.due_at}`);
}

function truth(): string[] {
  return (t.raw().prepare(`SELECT kind, status, workspace_id, MIN(next_attempt_at) AS due_at FROM comms
    WHERE next_attempt_at IS NOT NULL AND deleted_at IS NULL GROUP BY kind, status, workspace_id ORDER BY 1, 2, 3`).all() as Array<Record<string, string>>)
    .map((r) => `${r.kind}/${r.status}/${r.workspace_id}@${r.due_at}`);
}

describe('the heads of due outbound work', () => {
  it('follow every insert, reschedule, status change, delete and claim', async () => {
    const [a, b] = [await t.workspace(), await t.workspace()];
    const a1 = await t.store.createComm(a.id, item('pending', at(5)), []);
    const a2 = await t.store.createComm(a.id, item('pending', at(3)), []);
    await t.store.createComm(b.id, item('pending', at(4)), []);
    await t.store.createComm(b.id, item('sent', null), []);
    expect(heads()).toEqual(truth());
    expect(heads()).toHaveLength(2);
    // A retry moves its item later: the head moves to the next earliest.
    await t.store.updateComm(a.id, 'delivery', a2.id, { next_attempt_at: at(50), attempts: 1 });
    expect(heads()).toEqual(truth());
    // Done: the item leaves the queue; the workspace's head is its other item.
    await t.store.updateComm(a.id, 'delivery', a1.id, { status: 'delivered', next_attempt_at: null });
    expect(heads()).toEqual(truth());
    // Deleted: gone from the queue too.
    await t.store.updateComm(a.id, 'delivery', a2.id, { deleted_at: at(60) });
    expect(heads()).toEqual(truth());
    expect(heads().filter((h) => h.includes(a.id))).toEqual([]);
    // A claim leases what it takes: the head moves to the lease's end.
    const claimed = await t.store.claimDueComms('delivery', ['pending'], new Date().toISOString(), '2999-01-01T00:00:00.000Z', 10);
    expect(claimed.map((c) => c.workspace_id)).toEqual([b.id]);
    expect(heads()).toEqual(truth());
    expect(heads()).toEqual([`delivery/pending/${b.id}@2999-01-01T00:00:00.000Z`]);
    expect(await t.store.claimDueComms('delivery', ['pending'], new Date().toISOString(), '2999-01-01T00:00:00.000Z', 10)).toEqual([]);
  });
});
