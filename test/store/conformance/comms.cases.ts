import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import type { NewComm } from '../../../src/domain/store/port.ts';
import { expectCrmError, freshWorkspace, type Harness } from './harness.ts';
import { deals, ev, timeline } from './work.ts';

const comm = (kind: NewComm['kind'], extra: Partial<NewComm> = {}): NewComm => ({
  kind, status: 'stored', tag: null, thread_id: null, at: '2030-01-01T00:00:00.000Z', data: { subject: 'Hello' }, record_ids: [],
  next_attempt_at: null, created_by: null, ...extra,
});
const FAR = '2999-01-01T00:00:00.000Z';

export function commCases(h: Harness): void {
  describe('communications', () => {
    it('creates an item with its links and its timeline event in one write, and reads it back', async () => {
      const ws = await freshWorkspace(h);
      const [a, b] = await deals(h, ws.id, 'A', 'B');
      const id = newId('email');
      const created = await h.store.createComm(ws.id, comm('email', { id, record_ids: [b!.id, a!.id], data: { subject: 'Hi', to: ['x@example.com'] } }),
        [ev('create', 'email', id, [b!.id, a!.id])]);
      expect(created).toMatchObject({ id, workspace_id: ws.id, kind: 'email', status: 'stored', record_ids: [b!.id, a!.id], attempts: 0, deleted_at: null });
      expect(created.data).toEqual({ subject: 'Hi', to: ['x@example.com'] });
      expect(await h.store.getComm(ws.id, 'email', id)).toEqual(created);
      expect(await h.store.getComm(ws.id, 'meeting', id)).toBeNull();
      expect((await timeline(h, ws.id, a!.id))[0]).toMatchObject({ resource_type: 'email', resource_id: id });
    });

    it('rejects an unknown record with not_found and writes neither the item nor its event', async () => {
      const ws = await freshWorkspace(h);
      const id = newId('meeting');
      await expectCrmError(h.store.createComm(ws.id, comm('meeting', { id, record_ids: ['rec_00000000000000000000000000'] }), [ev('create', 'meeting', id)]), 'not_found');
      expect(await h.store.getComm(ws.id, 'meeting', id)).toBeNull();
      expect(await timeline(h, ws.id)).toEqual([]);
    });

    it('lists by kind, status, tag, thread, record and time window, in either order', async () => {
      const ws = await freshWorkspace(h);
      const [deal] = await deals(h, ws.id, 'D');
      const at = (d: string) => `2030-01-0${d}T00:00:00.000Z`;
      const one = await h.store.createComm(ws.id, comm('message', { tag: 'sms', thread_id: 't1', at: at('1'), record_ids: [deal!.id] }), []);
      const two = await h.store.createComm(ws.id, comm('message', { tag: 'internal', status: 'delivered', thread_id: 't1', at: at('2') }), []);
      const three = await h.store.createComm(ws.id, comm('message', { tag: 'internal', status: 'delivered', thread_id: 't2', at: at('3') }), []);
      await h.store.createComm(ws.id, comm('email', { at: at('4') }), []);
      const ids = async (q: Record<string, unknown>) =>
        (await h.store.listComms(ws.id, { kind: 'message', offset: 0, limit: 10, ...q })).items.map((c) => c.id);
      expect(await ids({})).toEqual([three.id, two.id, one.id]);
      expect(await ids({ ascending: true })).toEqual([one.id, two.id, three.id]);
      expect(await ids({ tag: 'internal' })).toEqual([three.id, two.id]);
      expect(await ids({ thread_id: 't1' })).toEqual([two.id, one.id]);
      expect(await ids({ status: ['stored'] })).toEqual([one.id]);
      expect(await ids({ record_id: deal!.id })).toEqual([one.id]);
      expect(await ids({ from: at('2'), to: at('3') })).toEqual([three.id, two.id]);
      const page = await h.store.listComms(ws.id, { kind: 'message', offset: 1, limit: 1 });
      expect(page).toMatchObject({ total: 3, items: [{ id: two.id }] });
    });

    it('updates status, data and schedule, and hides a deleted item from lists', async () => {
      const ws = await freshWorkspace(h);
      const item = await h.store.createComm(ws.id, comm('integration', { tag: 'webhook', status: 'connected' }), []);
      const updated = await h.store.updateComm(ws.id, 'integration', item.id, { status: 'disconnected', data: { cursor: 'x' }, attempts: 2, deleted_at: '2030-01-02T00:00:00.000Z' },
        [ev('delete', 'integration', item.id)]);
      expect(updated).toMatchObject({ status: 'disconnected', data: { cursor: 'x' }, attempts: 2, deleted_at: '2030-01-02T00:00:00.000Z' });
      expect((await h.store.listComms(ws.id, { kind: 'integration', offset: 0, limit: 10 })).total).toBe(0);
      expect((await timeline(h, ws.id))[0]).toMatchObject({ action: 'delete', resource_type: 'integration' });
      await expectCrmError(h.store.updateComm(ws.id, 'integration', 'int_00000000000000000000000000', { status: 'x' }), 'not_found');
    });

    it('claims due work once, in every workspace, and not before it is due', async () => {
      const ws = await freshWorkspace(h);
      const due = await h.store.createComm(ws.id, comm('email', { status: 'queued', next_attempt_at: '2000-01-01T00:00:00.000Z' }), []);
      await h.store.createComm(ws.id, comm('email', { status: 'queued', next_attempt_at: FAR }), []);
      await h.store.createComm(ws.id, comm('email', { status: 'sent', next_attempt_at: '2000-01-01T00:00:00.000Z' }), []);
      const now = new Date().toISOString();
      const mine = async () => (await h.store.claimDueComms('email', ['queued'], now, FAR, 1000)).filter((c) => c.workspace_id === ws.id);
      const first = await mine();
      expect(first.map((c) => c.id)).toEqual([due.id]);
      expect(first[0]!.next_attempt_at).toBe(FAR);
      expect(await mine()).toEqual([]);
    });

    it('claims due work in turns across workspaces, so one backlog does not hold another behind it', async () => {
      const [a, b, c] = [await freshWorkspace(h), await freshWorkspace(h), await freshWorkspace(h)];
      // A status no other case uses, so other workspaces' due work in this store stays out of it.
      const status = `due-${newId('record').slice(-8)}`;
      const made = new Map<string, string>();
      for (const [ws, name, second] of [[a, 'A1', 1], [a, 'A2', 2], [a, 'A3', 3], [a, 'A4', 4], [a, 'A5', 5], [b, 'B1', 1.5], [b, 'B2', 2.5], [c, 'C1', 10]] as const) {
        const at = new Date(Date.UTC(2000, 0, 1) + second * 1000).toISOString();
        made.set((await h.store.createComm(ws.id, comm('delivery', { status, next_attempt_at: at }), [])).id, name);
      }
      const claim = async (limit: number) => (await h.store.claimDueComms('delivery', [status], new Date().toISOString(), FAR, limit)).map((d) => made.get(d.id));
      expect(await claim(4)).toEqual(['A1', 'B1', 'C1', 'A2']);
      expect(await claim(4)).toEqual(['B2', 'A3', 'A4', 'A5']);
      expect(await claim(4)).toEqual([]);
    });

    it('dispatches events after a cursor oldest first, writing deliveries and the cursor together', async () => {
      const ws = await freshWorkspace(h);
      const hook = await h.store.createComm(ws.id, comm('integration', { tag: 'webhook', status: 'connected', data: { cursor: '' } }), []);
      await deals(h, ws.id, 'A');
      await h.store.createComm(ws.id, comm('message'), [ev('create', 'message', 'msg_1'), ev('update', 'message', 'msg_1')]);
      const events = await h.store.eventsAfter(ws.id, '', 10);
      expect(events.map((e) => `${e.resource_type}.${e.action}`)).toEqual(['message.create', 'message.update']);
      expect(await h.store.eventsAfter(ws.id, events[0]!.id, 10)).toEqual([events[1]]);
      await h.store.recordDispatch(ws.id, hook.id, events[1]!.id, [comm('delivery', { tag: hook.id, status: 'pending', data: { event_id: events[0]!.id } })]);
      expect((await h.store.getComm(ws.id, 'integration', hook.id))!.data.cursor).toBe(events[1]!.id);
      expect((await h.store.listComms(ws.id, { kind: 'delivery', tag: hook.id, offset: 0, limit: 10 })).items).toHaveLength(1);
      const everywhere = await h.store.listCommsEverywhere('integration', 'connected', 'webhook');
      expect(everywhere.map((c) => c.id)).toContain(hook.id);
    });

    it('adds usage counts per workspace, period and style', async () => {
      const ws = await freshWorkspace(h);
      const other = await freshWorkspace(h);
      await h.store.addUsage([{ workspace_id: ws.id, period: '2030-01', style: 'rest', count: 2 }, { workspace_id: ws.id, period: '2030-01', style: 'mcp', count: 1 }]);
      await h.store.addUsage([{ workspace_id: ws.id, period: '2030-01', style: 'rest', count: 3 }, { workspace_id: other.id, period: '2030-01', style: 'rest', count: 9 }]);
      expect(await h.store.getUsage(ws.id, '2030-01')).toEqual({ rest: 5, mcp: 1 });
      expect(await h.store.getUsage(ws.id, '2030-02')).toEqual({});
    });

    it("keeps another workspace's items out of reach", async () => {
      const ws = await freshWorkspace(h);
      const other = await freshWorkspace(h);
      const theirs = await h.store.createComm(other.id, comm('ticket'), []);
      expect(await h.store.getComm(ws.id, 'ticket', theirs.id)).toBeNull();
      expect((await h.store.listComms(ws.id, { kind: 'ticket', offset: 0, limit: 10 })).total).toBe(0);
      await expectCrmError(h.store.updateComm(ws.id, 'ticket', theirs.id, { status: 'closed' }), 'not_found');
      const [theirDeal] = await deals(h, other.id, 'Theirs');
      await expectCrmError(h.store.createComm(ws.id, comm('email', { record_ids: [theirDeal!.id] }), []), 'not_found');
    });
  });
}
