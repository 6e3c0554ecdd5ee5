import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import type { NewTask, TaskQuery } from '../../../src/domain/store/port.ts';
import { addMember, expectCrmError, freshWorkspace, sleep, type Harness } from './harness.ts';
import { deals } from './work.ts';

const UNKNOWN_TASK = 'tsk_00000000000000000000000000';

const task = (title: string, extra: Partial<NewTask> = {}): NewTask =>
  ({ title, body: '', status: 'open', due_at: null, assignee_id: null, record_ids: [], created_by: null, ...extra });

export function taskCases(h: Harness): void {
  const titles = async (workspaceId: string, query: Omit<TaskQuery, 'offset' | 'limit'> = {}) =>
    (await h.store.listTasks(workspaceId, { ...query, offset: 0, limit: 100 })).items.map((t) => t.title);

  describe('tasks', () => {
    it('creates a task with its due date, assignee and linked records, and reads it back', async () => {
      const ws = await freshWorkspace(h);
      const ada = await addMember(h, ws.id);
      const [a, b] = await deals(h, ws.id, 'A', 'B');
      const created = await h.store.createTask(ws.id, task('Send proposal', {
        body: 'by email', due_at: '2030-01-01T12:00:00.000Z', assignee_id: ada.id, record_ids: [b!.id, a!.id], created_by: ada.id,
      }), []);
      expect(created).toMatchObject({
        workspace_id: ws.id, title: 'Send proposal', body: 'by email', status: 'open', due_at: '2030-01-01T12:00:00.000Z',
        assignee_id: ada.id, record_ids: [b!.id, a!.id], created_by: ada.id, completed_at: null, deleted_at: null,
      });
      expect(created.id).toMatch(/^tsk_/);
      expect(created.updated_at).toBe(created.created_at);
      expect(await h.store.getTask(ws.id, created.id)).toEqual(created);
    });

    it('keeps a given id, and marks a task created done as completed', async () => {
      const ws = await freshWorkspace(h);
      const id = newId('task');
      const done = await h.store.createTask(ws.id, task('Already done', { id, status: 'done' }), []);
      expect(done).toMatchObject({ id, status: 'done', completed_at: expect.any(String) });
    });

    it('rejects linking an unknown or deleted record with not_found, and writes nothing', async () => {
      const ws = await freshWorkspace(h);
      const [gone] = await deals(h, ws.id, 'Gone');
      await h.store.softDeleteRecord(ws.id, gone!.id);
      await expectCrmError(h.store.createTask(ws.id, task('x', { record_ids: ['rec_00000000000000000000000000'] }), []), 'not_found');
      await expectCrmError(h.store.createTask(ws.id, task('x', { record_ids: [gone!.id] }), []), 'not_found');
      expect(await titles(ws.id)).toEqual([]);
    });

    it('orders tasks by due date, those without one last, then by creation', async () => {
      const ws = await freshWorkspace(h);
      for (const [title, due] of [['late', '2030-03-01T00:00:00.000Z'], ['none 1', null], ['early 1', '2030-01-01T00:00:00.000Z'],
        ['early 2', '2030-01-01T00:00:00.000Z'], ['none 2', null]] as const) {
        await h.store.createTask(ws.id, task(title, { due_at: due }), []);
        await sleep(2);
      }
      expect(await titles(ws.id)).toEqual(['early 1', 'early 2', 'late', 'none 1', 'none 2']);
      const page = await h.store.listTasks(ws.id, { offset: 1, limit: 2 });
      expect({ titles: page.items.map((t) => t.title), total: page.total }).toEqual({ titles: ['early 2', 'late'], total: 5 });
    });

    it('filters tasks by assignee, status, record and an inclusive due window that never matches a task without a due date', async () => {
      const ws = await freshWorkspace(h);
      const [ada, bob] = [await addMember(h, ws.id), await addMember(h, ws.id)];
      const [deal] = await deals(h, ws.id, 'Deal');
      await h.store.createTask(ws.id, task('ada jan', { assignee_id: ada.id, due_at: '2030-01-15T00:00:00.000Z', record_ids: [deal!.id] }), []);
      await h.store.createTask(ws.id, task('ada feb done', { assignee_id: ada.id, status: 'done', due_at: '2030-02-15T00:00:00.000Z' }), []);
      await h.store.createTask(ws.id, task('bob mar', { assignee_id: bob.id, status: 'in_progress', due_at: '2030-03-15T00:00:00.000Z', record_ids: [deal!.id] }), []);
      await h.store.createTask(ws.id, task('nobody undated'), []);
      expect(await titles(ws.id, { assignee_id: ada.id })).toEqual(['ada jan', 'ada feb done']);
      expect(await titles(ws.id, { status: ['open', 'in_progress'] })).toEqual(['ada jan', 'bob mar', 'nobody undated']);
      expect(await titles(ws.id, { status: ['done'] })).toEqual(['ada feb done']);
      expect(await titles(ws.id, { record_id: deal!.id })).toEqual(['ada jan', 'bob mar']);
      expect(await titles(ws.id, { due_after: '2030-02-15T00:00:00.000Z' })).toEqual(['ada feb done', 'bob mar']);
      expect(await titles(ws.id, { due_before: '2030-02-15T00:00:00.000Z' })).toEqual(['ada jan', 'ada feb done']);
      expect(await titles(ws.id, { due_after: '2030-01-01T00:00:00.000Z', due_before: '2030-02-01T00:00:00.000Z' })).toEqual(['ada jan']);
      expect(await titles(ws.id, { assignee_id: ada.id, record_id: deal!.id, status: ['open'] })).toEqual(['ada jan']);
      expect((await h.store.listTasks(ws.id, { assignee_id: bob.id, status: ['done'], offset: 0, limit: 10 }))).toEqual({ items: [], total: 0 });
    });

    it('sets completed_at when the status becomes done, keeps it while done, and clears it otherwise', async () => {
      const ws = await freshWorkspace(h);
      const open = await h.store.createTask(ws.id, task('Finish'), []);
      const done = await h.store.updateTask(ws.id, open.id, { status: 'done' }, []);
      expect(done.completed_at).toEqual(expect.any(String));
      await sleep(2);
      expect((await h.store.updateTask(ws.id, open.id, { title: 'Finish it' }, [])).completed_at).toBe(done.completed_at);
      expect((await h.store.updateTask(ws.id, open.id, { status: 'done' }, [])).completed_at).toBe(done.completed_at);
      expect((await h.store.updateTask(ws.id, open.id, { status: 'in_progress' }, [])).completed_at).toBeNull();
      const again = await h.store.updateTask(ws.id, open.id, { status: 'done' }, []);
      expect(again.completed_at! > done.completed_at!).toBe(true);
    });

    it('updates only the parts given, clears due date and assignee with null, replaces links, and moves updated_at forward', async () => {
      const ws = await freshWorkspace(h);
      const ada = await addMember(h, ws.id);
      const [a, b] = await deals(h, ws.id, 'A', 'B');
      const before = await h.store.createTask(ws.id, task('Call', { body: 'v1', due_at: '2030-01-01T00:00:00.000Z', assignee_id: ada.id, record_ids: [a!.id] }), []);
      await sleep(2);
      const changed = await h.store.updateTask(ws.id, before.id, { title: 'Call back', due_at: null, assignee_id: null, record_ids: [b!.id] }, []);
      expect(changed).toMatchObject({ title: 'Call back', body: 'v1', status: 'open', due_at: null, assignee_id: null, record_ids: [b!.id] });
      expect(changed.updated_at > before.updated_at).toBe(true);
      expect(await titles(ws.id, { record_id: a!.id })).toEqual([]);
      expect(await h.store.getTask(ws.id, before.id)).toEqual(changed);
    });

    it('keeps a deleted record it is already on when its links are given again, but links no other deleted record', async () => {
      const ws = await freshWorkspace(h);
      const [held, live, other] = await deals(h, ws.id, 'Held', 'Live', 'Other');
      const written = await h.store.createTask(ws.id, task('On two', { record_ids: [held!.id, live!.id] }), []);
      await h.store.softDeleteRecord(ws.id, held!.id);
      await h.store.softDeleteRecord(ws.id, other!.id);
      const kept = await h.store.updateTask(ws.id, written.id, { status: 'done', record_ids: [held!.id, live!.id] }, []);
      expect(kept).toMatchObject({ status: 'done', record_ids: [held!.id, live!.id] });
      await expectCrmError(h.store.updateTask(ws.id, written.id, { record_ids: [other!.id] }, []), 'not_found');
      expect((await h.store.getTask(ws.id, written.id))!.record_ids).toEqual([held!.id, live!.id]);
    });

    it('soft-deletes a task: gone from get and lists, and no longer changeable', async () => {
      const ws = await freshWorkspace(h);
      const [a] = await deals(h, ws.id, 'A');
      const created = await h.store.createTask(ws.id, task('Gone soon', { record_ids: [a!.id] }), []);
      const deleted = await h.store.deleteTask(ws.id, created.id, []);
      expect(deleted).toMatchObject({ id: created.id, title: 'Gone soon', record_ids: [a!.id], deleted_at: expect.any(String) });
      expect(await h.store.getTask(ws.id, created.id)).toBeNull();
      expect(await titles(ws.id)).toEqual([]);
      expect(await titles(ws.id, { record_id: a!.id })).toEqual([]);
      await expectCrmError(h.store.updateTask(ws.id, created.id, { status: 'done' }, []), 'not_found');
      await expectCrmError(h.store.deleteTask(ws.id, created.id, []), 'not_found');
    });

    it('returns null for an unknown task and rejects changing it with not_found', async () => {
      const ws = await freshWorkspace(h);
      expect(await h.store.getTask(ws.id, UNKNOWN_TASK)).toBeNull();
      await expectCrmError(h.store.updateTask(ws.id, UNKNOWN_TASK, { title: 'x' }, []), 'not_found');
      await expectCrmError(h.store.deleteTask(ws.id, UNKNOWN_TASK, []), 'not_found');
    });
  });
}
