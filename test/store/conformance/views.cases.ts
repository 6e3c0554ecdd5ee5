import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import type { NewView } from '../../../src/domain/store/port.ts';
import { expectCrmError, freshWorkspace, sleep, type Harness } from './harness.ts';
import { pipeline } from './work.ts';

const UNKNOWN_VIEW = 'viw_00000000000000000000000000';

const BIG_DEALS: NewView = {
  name: 'Big deals',
  object_type_slug: 'deals',
  filters: { amount: { gte: 50000 }, $or: [{ stage: 'won' }, { stage: 'negotiation' }] },
  sorts: [{ field: 'amount', ascending: false }, { field: 'created_at', ascending: true }],
  visible_fields: ['name', 'amount', 'stage'],
  created_by: null,
};

export function viewCases(h: Harness): void {
  describe('views', () => {
    it('saves a view of an object type with its filters, sorts and visible fields as given', async () => {
      const ws = await freshWorkspace(h);
      const view = await h.store.createView(ws.id, structuredClone(BIG_DEALS), []);
      expect(view).toMatchObject({
        workspace_id: ws.id, name: 'Big deals', object_type_slug: 'deals', list_id: null,
        filters: BIG_DEALS.filters, sorts: BIG_DEALS.sorts, visible_fields: BIG_DEALS.visible_fields, created_by: null, deleted_at: null,
      });
      expect(view.id).toMatch(/^viw_/);
      expect(view.updated_at).toBe(view.created_at);
      expect(await h.store.getView(ws.id, view.id)).toEqual(view);
    });

    it('keeps a given id and defaults to no filters, no sorts and no visible fields', async () => {
      const ws = await freshWorkspace(h);
      const id = newId('view');
      const view = await h.store.createView(ws.id, { id, name: 'All', object_type_slug: 'companies', created_by: null }, []);
      expect(view).toMatchObject({ id, filters: null, sorts: [], visible_fields: [], list_id: null });
    });

    it('saves a view of a list', async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      const view = await h.store.createView(ws.id, {
        name: 'Qualified', object_type_slug: 'deals', list_id: list.id, filters: { stage: 'qualified' }, created_by: null,
      }, []);
      expect(view).toMatchObject({ list_id: list.id, object_type_slug: 'deals', filters: { stage: 'qualified' } });
    });

    it('rejects a view of an unknown object type or an unknown or deleted list with not_found', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.createView(ws.id, { ...structuredClone(BIG_DEALS), object_type_slug: 'projects' }, []), 'not_found');
      await expectCrmError(h.store.createView(ws.id, { ...structuredClone(BIG_DEALS), list_id: 'lst_00000000000000000000000000' }, []), 'not_found');
      const list = await pipeline(h, ws.id);
      await h.store.deleteList(ws.id, list.id, []);
      await expectCrmError(h.store.createView(ws.id, { ...structuredClone(BIG_DEALS), list_id: list.id }, []), 'not_found');
      expect(await h.store.listViews(ws.id)).toEqual([]);
    });

    it('lists live views oldest first, optionally of one object type or one list', async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      const deals = await h.store.createView(ws.id, structuredClone(BIG_DEALS), []);
      await sleep(2);
      const companies = await h.store.createView(ws.id, { name: 'Companies', object_type_slug: 'companies', created_by: null }, []);
      await sleep(2);
      const ofList = await h.store.createView(ws.id, { name: 'Board', object_type_slug: 'deals', list_id: list.id, created_by: null }, []);
      expect((await h.store.listViews(ws.id)).map((v) => v.id)).toEqual([deals.id, companies.id, ofList.id]);
      expect((await h.store.listViews(ws.id, { object_type_slug: 'deals' })).map((v) => v.id)).toEqual([deals.id, ofList.id]);
      expect((await h.store.listViews(ws.id, { list_id: list.id })).map((v) => v.id)).toEqual([ofList.id]);
      expect((await h.store.listViews(ws.id, { object_type_slug: 'companies', list_id: list.id }))).toEqual([]);
      expect((await h.store.listViews(ws.id))[1]).toEqual(companies);
    });

    it('updates only the parts given, clears filters with null, and moves updated_at forward', async () => {
      const ws = await freshWorkspace(h);
      const before = await h.store.createView(ws.id, structuredClone(BIG_DEALS), []);
      await sleep(2);
      const renamed = await h.store.updateView(ws.id, before.id, { name: 'Huge deals', visible_fields: ['name'] }, []);
      expect(renamed).toMatchObject({ name: 'Huge deals', visible_fields: ['name'], filters: BIG_DEALS.filters, sorts: BIG_DEALS.sorts });
      expect(renamed.updated_at > before.updated_at).toBe(true);
      const cleared = await h.store.updateView(ws.id, before.id, { filters: null, sorts: [] }, []);
      expect(cleared).toMatchObject({ name: 'Huge deals', filters: null, sorts: [] });
      const refiltered = await h.store.updateView(ws.id, before.id, { filters: { stage: 'won' } }, []);
      expect(refiltered.filters).toEqual({ stage: 'won' });
      expect(await h.store.getView(ws.id, before.id)).toEqual(refiltered);
    });

    it('soft-deletes a view: gone from get and listViews, and no longer changeable', async () => {
      const ws = await freshWorkspace(h);
      const view = await h.store.createView(ws.id, structuredClone(BIG_DEALS), []);
      const deleted = await h.store.deleteView(ws.id, view.id, []);
      expect(deleted).toMatchObject({ id: view.id, name: 'Big deals', deleted_at: expect.any(String) });
      expect(await h.store.getView(ws.id, view.id)).toBeNull();
      expect(await h.store.listViews(ws.id)).toEqual([]);
      await expectCrmError(h.store.updateView(ws.id, view.id, { name: 'Back?' }, []), 'not_found');
      await expectCrmError(h.store.deleteView(ws.id, view.id, []), 'not_found');
    });

    it('returns null for an unknown view and rejects changing it with not_found', async () => {
      const ws = await freshWorkspace(h);
      expect(await h.store.getView(ws.id, UNKNOWN_VIEW)).toBeNull();
      await expectCrmError(h.store.updateView(ws.id, UNKNOWN_VIEW, { name: 'x' }, []), 'not_found');
      await expectCrmError(h.store.deleteView(ws.id, UNKNOWN_VIEW, []), 'not_found');
    });
  });
}
