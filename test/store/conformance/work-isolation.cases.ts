import { describe, expect, it } from 'vitest';
import { expectCrmError, freshWorkspace, sortBy, type Harness } from './harness.ts';
import { deals, ev, pipeline, timeline } from './work.ts';

/** Nothing of workspace A's lists, entries, views, notes, tasks or timeline is reachable through B. */
export function workIsolationCases(h: Harness): void {
  describe('workspace isolation of the work surface', () => {
    async function twoWorkspaces() {
      const [a, b] = [await freshWorkspace(h, 'A'), await freshWorkspace(h, 'B')];
      const [deal] = await deals(h, a.id, 'Secret deal');
      const list = await pipeline(h, a.id);
      const [entry] = await h.store.addListEntries(a.id, list.id, [{ record_id: deal!.id, data: { stage: 'lead' } }], null,
        [ev('add', 'entry', 'e', [deal!.id])]);
      const view = await h.store.createView(a.id, { name: 'Secret view', object_type_slug: 'deals', created_by: null }, []);
      const note = await h.store.createNote(a.id, { kind: 'note', title: 'Secret note', body: '', format: 'plain', record_ids: [deal!.id], created_by: null }, []);
      const task = await h.store.createTask(a.id, {
        title: 'Secret task', body: '', status: 'open', due_at: null, assignee_id: null, record_ids: [deal!.id], created_by: null,
      }, []);
      return { a, b, deal: deal!, list, entry: entry!, view, note, task };
    }

    it('never shows or changes a list or its entries of A through B', async () => {
      const { b, list, entry, deal } = await twoWorkspaces();
      expect(await h.store.getList(b.id, list.id, { includeDeleted: true })).toBeNull();
      expect(await h.store.listLists(b.id)).toEqual([]);
      await expectCrmError(h.store.updateList(b.id, list.id, { name: 'Mine' }, []), 'not_found');
      await expectCrmError(h.store.deleteList(b.id, list.id, []), 'not_found');
      await expectCrmError(h.store.listEntries(b.id, list.id, { sort: sortBy('created_at', true, 'text', true), offset: 0, limit: 10 }), 'not_found');
      expect(await h.store.getListEntry(b.id, entry.id)).toBeNull();
      expect(await h.store.findListEntries(b.id, list.id, [deal.id])).toEqual([]);
      await expectCrmError(h.store.updateListEntry(b.id, entry.id, { stage: 'won' }, []), 'not_found');
      await expectCrmError(h.store.removeListEntry(b.id, entry.id, []), 'not_found');
      const [bDeal] = await deals(h, b.id, 'B deal');
      await expectCrmError(h.store.addListEntries(b.id, list.id, [{ record_id: bDeal!.id, data: {} }], null, []), 'not_found');
    });

    it('never puts a record of A into a list of B', async () => {
      const { b, deal } = await twoWorkspaces();
      const bList = await pipeline(h, b.id);
      await expectCrmError(h.store.addListEntries(b.id, bList.id, [{ record_id: deal.id, data: {} }], null, []), 'not_found');
    });

    it('never shows or changes a view of A through B, nor saves a view of A’s list in B', async () => {
      const { b, view, list } = await twoWorkspaces();
      expect(await h.store.getView(b.id, view.id)).toBeNull();
      expect(await h.store.listViews(b.id)).toEqual([]);
      await expectCrmError(h.store.updateView(b.id, view.id, { name: 'Mine' }, []), 'not_found');
      await expectCrmError(h.store.deleteView(b.id, view.id, []), 'not_found');
      await expectCrmError(h.store.createView(b.id, { name: 'Spy', object_type_slug: 'deals', list_id: list.id, created_by: null }, []), 'not_found');
    });

    it('never shows or changes a note or task of A through B, nor attaches one in B to A’s record', async () => {
      const { b, note, task, deal } = await twoWorkspaces();
      expect(await h.store.getNote(b.id, note.id)).toBeNull();
      expect(await h.store.listNotes(b.id, { offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
      expect(await h.store.listNotes(b.id, { record_id: deal.id, offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
      await expectCrmError(h.store.updateNote(b.id, note.id, { title: 'Mine' }, []), 'not_found');
      await expectCrmError(h.store.deleteNote(b.id, note.id, []), 'not_found');
      expect(await h.store.getTask(b.id, task.id)).toBeNull();
      expect(await h.store.listTasks(b.id, { record_id: deal.id, offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
      await expectCrmError(h.store.updateTask(b.id, task.id, { status: 'done' }, []), 'not_found');
      await expectCrmError(h.store.deleteTask(b.id, task.id, []), 'not_found');
      await expectCrmError(h.store.createNote(b.id, { kind: 'note', title: 'Spy', body: '', format: 'plain', record_ids: [deal.id], created_by: null }, []), 'not_found');
      await expectCrmError(h.store.createTask(b.id, {
        title: 'Spy', body: '', status: 'open', due_at: null, assignee_id: null, record_ids: [deal.id], created_by: null,
      }, []), 'not_found');
    });

    it('never shows A’s timeline through B, not even for A’s record', async () => {
      const { a, b, deal } = await twoWorkspaces();
      expect((await timeline(h, a.id, deal.id)).length).toBe(1);
      expect(await h.store.listEvents(b.id, { offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
      expect(await h.store.listEvents(b.id, { record_id: deal.id, offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
    });
  });
}
