import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import { expectCrmError, freshWorkspace, sleep, type Harness } from './harness.ts';
import { ev, pipeline, PIPELINE } from './work.ts';

const UNKNOWN_LIST = 'lst_00000000000000000000000000';

export function listCases(h: Harness): void {
  describe('lists', () => {
    it('creates a list of an object type with its entry fields in order and their settings', async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      expect(list).toMatchObject({
        workspace_id: ws.id, object_type_slug: 'deals', name: 'Pipeline', description: 'Deals we work on',
        created_by: null, deleted_at: null,
      });
      expect(list.id).toMatch(/^lst_/);
      expect(list.updated_at).toBe(list.created_at);
      expect(list.fields.map((f) => [f.slug, f.type, f.position])).toEqual([['stage', 'status', 0], ['score', 'number', 1], ['labels', 'multi_select', 2]]);
      expect(list.fields[0]).toMatchObject({ name: 'Stage', required: false, unique: false, archived: false, description: null, config: { options: ['lead', 'qualified', 'won'] } });
      expect(list.fields[0]?.id).toEqual(expect.any(String));
      expect(await h.store.getList(ws.id, list.id)).toEqual(list);
    });

    it('keeps the id and the creator a create input carries', async () => {
      const ws = await freshWorkspace(h);
      const id = newId('list');
      const list = await h.store.createList(ws.id, { ...structuredClone(PIPELINE), id, created_by: 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV' }, []);
      expect(list).toMatchObject({ id, created_by: 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV' });
      expect((await h.store.getList(ws.id, id))?.id).toBe(id);
    });

    it('creates a list without fields or description', async () => {
      const ws = await freshWorkspace(h);
      const list = await h.store.createList(ws.id, { object_type_slug: 'companies', name: 'Targets', fields: [], created_by: null }, []);
      expect(list).toMatchObject({ name: 'Targets', description: null, fields: [] });
    });

    it('rejects a list of an unknown object type with not_found, and writes nothing', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(pipeline(h, ws.id, { object_type_slug: 'projects' }), 'not_found');
      expect(await h.store.listLists(ws.id)).toEqual([]);
    });

    it('returns null for an unknown list id', async () => {
      const ws = await freshWorkspace(h);
      expect(await h.store.getList(ws.id, UNKNOWN_LIST)).toBeNull();
      expect(await h.store.getList(ws.id, UNKNOWN_LIST, { includeDeleted: true })).toBeNull();
    });

    it('lists live lists oldest first, optionally of one object type', async () => {
      const ws = await freshWorkspace(h);
      const first = await pipeline(h, ws.id, { name: 'First' });
      await sleep(2);
      const companies = await pipeline(h, ws.id, { name: 'Companies', object_type_slug: 'companies', fields: [] });
      await sleep(2);
      const third = await pipeline(h, ws.id, { name: 'Third' });
      expect((await h.store.listLists(ws.id)).map((l) => l.id)).toEqual([first.id, companies.id, third.id]);
      expect((await h.store.listLists(ws.id, { object_type_slug: 'deals' })).map((l) => l.id)).toEqual([first.id, third.id]);
      expect(await h.store.listLists(ws.id, { object_type_slug: 'contacts' })).toEqual([]);
      expect((await h.store.listLists(ws.id))[1]).toEqual(companies);
    });

    it('renames a list and changes its description, keeping the fields, and moves updated_at forward', async () => {
      const ws = await freshWorkspace(h);
      const before = await pipeline(h, ws.id);
      await sleep(2);
      const renamed = await h.store.updateList(ws.id, before.id, { name: 'Big pipeline' }, []);
      expect(renamed).toMatchObject({ name: 'Big pipeline', description: 'Deals we work on', fields: before.fields, created_at: before.created_at });
      expect(renamed.updated_at > before.updated_at).toBe(true);
      const cleared = await h.store.updateList(ws.id, before.id, { description: null }, []);
      expect(cleared).toMatchObject({ name: 'Big pipeline', description: null });
      expect(await h.store.getList(ws.id, before.id)).toEqual(cleared);
    });

    it('soft-deletes a list: gone from get and listLists, returned with deleted_at only when asked', async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      const deleted = await h.store.deleteList(ws.id, list.id, []);
      expect(deleted).toMatchObject({ id: list.id, name: 'Pipeline', deleted_at: expect.any(String) });
      expect(await h.store.getList(ws.id, list.id)).toBeNull();
      expect(await h.store.getList(ws.id, list.id, { includeDeleted: true })).toEqual(deleted);
      expect(await h.store.listLists(ws.id)).toEqual([]);
    });

    it('refuses to delete a list while a live view names it, keeping the list and writing no event, and deletes it once the view is gone', async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      const view = await h.store.createView(ws.id, { name: 'Won', object_type_slug: 'deals', list_id: list.id, created_by: null }, []);
      const error = await expectCrmError(h.store.deleteList(ws.id, list.id, [ev('delete', 'list', list.id)]), 'conflict', { param: 'list_id', views: 1 });
      expect(error.message).toBe(`list ${list.id} still has 1 view(s); delete them first`);
      expect(await h.store.getList(ws.id, list.id)).toEqual(list);
      expect((await h.store.listEvents(ws.id, { offset: 0, limit: 10 })).total).toBe(0);
      await h.store.deleteView(ws.id, view.id, []);
      expect((await h.store.deleteList(ws.id, list.id, [])).deleted_at).toEqual(expect.any(String));
      await expectCrmError(h.store.createView(ws.id, { name: 'Late', object_type_slug: 'deals', list_id: list.id, created_by: null }, []), 'not_found');
    });

    it('rejects updating or deleting a deleted or unknown list with not_found', async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      await h.store.deleteList(ws.id, list.id, []);
      await expectCrmError(h.store.updateList(ws.id, list.id, { name: 'Back?' }, []), 'not_found');
      await expectCrmError(h.store.deleteList(ws.id, list.id, []), 'not_found');
      await expectCrmError(h.store.updateList(ws.id, UNKNOWN_LIST, { name: 'x' }, [ev('update', 'list', UNKNOWN_LIST)]), 'not_found');
      await expectCrmError(h.store.deleteList(ws.id, UNKNOWN_LIST, [ev('delete', 'list', UNKNOWN_LIST)]), 'not_found');
      expect((await h.store.listEvents(ws.id, { offset: 0, limit: 10 })).total).toBe(0);
    });
  });
}
