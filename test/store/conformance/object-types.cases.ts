import { describe, expect, it } from 'vitest';
import type { NewObjectType } from '../../../src/domain/store/port.ts';
import { expectCrmError, freshWorkspace, newRecord, NEWEST_FIRST, sleep, type Harness } from './harness.ts';
import { ev } from './work.ts';

const PROJECTS: NewObjectType = {
  slug: 'projects',
  name: 'Projects',
  icon: 'folder',
  color: '#111111',
  description: 'Work we deliver.',
  fields: [
    { slug: 'title', name: 'Title', type: 'text', required: true },
    { slug: 'code', name: 'Code', type: 'text', unique: true, description: 'Short code' },
    { slug: 'phase', name: 'Phase', type: 'status', config: { options: ['plan', 'build', 'ship'] } },
  ],
};

export function objectTypeCases(h: Harness): void {
  describe('object types', () => {
    it('creates an object type with its fields in order and their settings', async () => {
      const ws = await freshWorkspace(h);
      const type = await h.store.createObjectType(ws.id, PROJECTS);
      expect(type).toMatchObject({
        workspace_id: ws.id, slug: 'projects', name: 'Projects', icon: 'folder', color: '#111111',
        description: 'Work we deliver.', standard: false, deleted_at: null,
      });
      expect(type.id).toMatch(/^obj_/);
      expect(type.fields.map((f) => [f.slug, f.position])).toEqual([['title', 0], ['code', 1], ['phase', 2]]);
      expect(type.fields[0]).toMatchObject({ name: 'Title', type: 'text', required: true, unique: false, archived: false, description: null, config: {} });
      expect(type.fields[1]).toMatchObject({ unique: true, description: 'Short code' });
      expect(type.fields[2]?.config).toEqual({ options: ['plan', 'build', 'ship'] });
      expect(await h.store.getObjectType(ws.id, 'projects')).toEqual(type);
    });

    it('rejects a second live object type with the same slug with conflict naming the slug', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.createObjectType(ws.id, { ...PROJECTS, slug: 'companies' }), 'conflict', { slug: 'companies' });
      expect((await h.store.listObjectTypes(ws.id)).map((t) => t.slug)).toEqual(['companies', 'contacts', 'deals']);
    });

    it('rejects an object type for an unknown workspace with not_found', async () => {
      await expectCrmError(h.store.createObjectType('ws_00000000000000000000000000', PROJECTS), 'not_found');
    });

    it('returns null for an unknown slug', async () => {
      const ws = await freshWorkspace(h);
      expect(await h.store.getObjectType(ws.id, 'projects')).toBeNull();
    });

    it('lists live object types in creation order with their fields', async () => {
      const ws = await freshWorkspace(h);
      const created = await h.store.createObjectType(ws.id, PROJECTS);
      const listed = await h.store.listObjectTypes(ws.id);
      expect(listed.map((t) => t.slug)).toEqual(['companies', 'contacts', 'deals', 'projects']);
      expect(listed[3]).toEqual(created);
    });

    it('updates name, icon, color and description and keeps the rest', async () => {
      const ws = await freshWorkspace(h);
      const before = await h.store.createObjectType(ws.id, PROJECTS);
      await sleep(2);
      const after = await h.store.updateObjectType(ws.id, 'projects', { name: 'Programmes', icon: null, color: '#222222' });
      expect(after).toMatchObject({ id: before.id, slug: 'projects', name: 'Programmes', icon: null, color: '#222222', description: 'Work we deliver.' });
      expect(after.fields).toEqual(before.fields);
      expect(after.updated_at > before.updated_at).toBe(true);
      expect(await h.store.getObjectType(ws.id, 'projects')).toEqual(after);
    });

    it('rejects updating an unknown object type with not_found', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.updateObjectType(ws.id, 'projects', { name: 'x' }), 'not_found');
    });

    it('soft-deletes an object type, hiding it from get and list', async () => {
      const ws = await freshWorkspace(h);
      await h.store.createObjectType(ws.id, PROJECTS);
      const deleted = await h.store.deleteObjectType(ws.id, 'projects');
      expect(deleted.deleted_at).toEqual(expect.any(String));
      expect(await h.store.getObjectType(ws.id, 'projects')).toBeNull();
      expect((await h.store.listObjectTypes(ws.id)).map((t) => t.slug)).not.toContain('projects');
      await expectCrmError(h.store.deleteObjectType(ws.id, 'projects'), 'not_found');
    });

    it('frees the slug of a deleted object type, and the new type starts without the old records or claims', async () => {
      const ws = await freshWorkspace(h);
      await h.store.createObjectType(ws.id, PROJECTS);
      const old = await h.store.createRecord(ws.id, newRecord('projects', { title: 'Old', code: 'P1' }, { uniques: [{ field: 'code', value: 'P1' }] }));
      await h.store.deleteObjectType(ws.id, 'projects');
      const reborn = await h.store.createObjectType(ws.id, { ...PROJECTS, name: 'Projects again' });
      expect(reborn.name).toBe('Projects again');
      expect(await h.store.countRecords(ws.id, 'projects')).toBe(0);
      const page = await h.store.listRecords(ws.id, { object_type_slug: 'projects', sort: NEWEST_FIRST, offset: 0, limit: 10 });
      expect(page).toEqual({ items: [], total: 0 });
      const fresh = await h.store.createRecord(ws.id, newRecord('projects', { title: 'New', code: 'P1' }, { uniques: [{ field: 'code', value: 'P1' }] }));
      expect(fresh.id).not.toBe(old.id);
    });

    it('rejects deleting an unknown object type with not_found', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.deleteObjectType(ws.id, 'projects'), 'not_found');
    });

    it('refuses to delete an object type while a live list or view names it, and deletes it once they are gone', async () => {
      const ws = await freshWorkspace(h);
      await h.store.createObjectType(ws.id, PROJECTS);
      const list = await h.store.createList(ws.id, { object_type_slug: 'projects', name: 'Active', fields: [], created_by: null }, []);
      const view = await h.store.createView(ws.id, { name: 'All', object_type_slug: 'projects', created_by: null }, []);
      const error = await expectCrmError(h.store.deleteObjectType(ws.id, 'projects', [ev('delete', 'object_type', 'projects')]), 'conflict', { param: 'slug', lists: 1, views: 1 });
      expect(error.message).toBe('object type "projects" still has 1 list(s) and 1 view(s); delete them first');
      // Nothing of the refused delete is kept: the type, and no event of it.
      expect(await h.store.getObjectType(ws.id, 'projects')).not.toBeNull();
      expect((await h.store.listEvents(ws.id, { offset: 0, limit: 10 })).items.filter((e) => e.action === 'delete')).toEqual([]);
      await h.store.deleteList(ws.id, list.id, []);
      await expectCrmError(h.store.deleteObjectType(ws.id, 'projects'), 'conflict', { lists: 0, views: 1 });
      await h.store.deleteView(ws.id, view.id, []);
      expect((await h.store.deleteObjectType(ws.id, 'projects')).deleted_at).toEqual(expect.any(String));
      await expectCrmError(h.store.createList(ws.id, { object_type_slug: 'projects', name: 'Late', fields: [], created_by: null }, []), 'not_found');
    });

    it('never lets a list or view created while its type is deleted outlive it', async () => {
      for (let round = 0; round < 5; round++) {
        const ws = await freshWorkspace(h);
        await h.store.createObjectType(ws.id, PROJECTS);
        const outcomes = await Promise.allSettled([
          h.store.createList(ws.id, { object_type_slug: 'projects', name: 'L', fields: [], created_by: null }, []),
          h.store.deleteObjectType(ws.id, 'projects'),
          h.store.createView(ws.id, { name: 'V', object_type_slug: 'projects', created_by: null }, []),
        ]);
        const deleted = outcomes[1].status === 'fulfilled';
        const live = [...await h.store.listLists(ws.id, { object_type_slug: 'projects' }), ...await h.store.listViews(ws.id, { object_type_slug: 'projects' })];
        // Either the delete won and nothing names the type, or it was refused because something does.
        if (deleted) expect(live).toEqual([]);
        else expect(live.length).toBeGreaterThan(0);
        for (const outcome of outcomes) if (outcome.status === 'rejected') expect((outcome.reason as { code?: string }).code).toMatch(/^(conflict|not_found)$/);
      }
    });
  });

  describe('fields', () => {
    it('adds a field at the next position', async () => {
      const ws = await freshWorkspace(h);
      const type = await h.store.addField(ws.id, 'companies', {
        slug: 'tier', name: 'Tier', type: 'select', required: true, config: { options: ['a', 'b'] },
      });
      const tier = type.fields.at(-1);
      expect(tier).toMatchObject({ slug: 'tier', name: 'Tier', type: 'select', required: true, unique: false, archived: false, position: 5 });
      expect(tier?.config).toEqual({ options: ['a', 'b'] });
      expect(tier?.id).toMatch(/^fld_/);
      expect((await h.store.getObjectType(ws.id, 'companies'))?.fields).toEqual(type.fields);
    });

    it('rejects a field whose slug the object type already has with conflict', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.addField(ws.id, 'companies', { slug: 'domain', name: 'Again', type: 'text' }), 'conflict', { slug: 'domain' });
      expect((await h.store.getObjectType(ws.id, 'companies'))?.fields).toHaveLength(5);
    });

    it('rejects a field on an unknown object type with not_found', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.addField(ws.id, 'projects', { slug: 'x', name: 'X', type: 'text' }), 'not_found');
    });

    it('updates a field’s name, description, flags and config', async () => {
      const ws = await freshWorkspace(h);
      const type = await h.store.updateField(ws.id, 'companies', 'industry', {
        name: 'Sector', description: 'Main sector', required: true, unique: true, config: { options: ['software', 'other'] },
      });
      const industry = type.fields.find((f) => f.slug === 'industry');
      expect(industry).toMatchObject({ name: 'Sector', description: 'Main sector', required: true, unique: true, archived: false, position: 2 });
      expect(industry?.config).toEqual({ options: ['software', 'other'] });
      expect(type.fields.find((f) => f.slug === 'name')?.name).toBe('Name');
    });

    it('archives a field, which stays listed and marked archived', async () => {
      const ws = await freshWorkspace(h);
      await h.store.updateField(ws.id, 'companies', 'description', { archived: true });
      const fields = (await h.store.getObjectType(ws.id, 'companies'))!.fields;
      expect(fields.map((f) => f.slug)).toContain('description');
      expect(fields.find((f) => f.slug === 'description')).toMatchObject({ archived: true, name: 'Description' });
      const restored = await h.store.updateField(ws.id, 'companies', 'description', { archived: false });
      expect(restored.fields.find((f) => f.slug === 'description')?.archived).toBe(false);
    });

    it('refuses, as changed meanwhile, a write whose claims predate a field starting or stopping to claim values', async () => {
      const ws = await freshWorkspace(h);
      await h.store.createObjectType(ws.id, PROJECTS);
      const held = await h.store.createRecord(ws.id, newRecord('projects', { title: 'Held' }));
      const gone = await h.store.createRecord(ws.id, newRecord('projects', { title: 'Gone' }));
      await h.store.softDeleteRecord(ws.id, gone.id);
      await h.store.updateField(ws.id, 'projects', 'title', { unique: true });
      const meanwhile = { resource: 'object type', id: 'projects', rule: 'changed_meanwhile' };
      // Claims worked out while title claimed nothing: every write path refuses them and writes nothing.
      const same = newRecord('projects', { title: 'Same' });
      await expectCrmError(h.store.createRecord(ws.id, same), 'conflict', meanwhile);
      await expectCrmError(h.store.createRecords(ws.id, [newRecord('projects', { title: 'A' }, { uniques: [{ field: 'title', value: 'A' }] }), same]), 'conflict', { ...meanwhile, index: 1 });
      await expectCrmError(h.store.updateRecord(ws.id, held.id, { data: { title: 'Same' }, uniques: [], refs: [] }), 'conflict', meanwhile);
      await expectCrmError(h.store.restoreRecord(ws.id, gone.id, []), 'conflict', meanwhile);
      expect(await h.store.countRecords(ws.id, 'projects')).toBe(1);
      expect((await h.store.getRecord(ws.id, held.id))!.data).toEqual({ title: 'Held' });
      expect((await h.store.getRecord(ws.id, gone.id, { includeDeleted: true }))!.deleted_at).not.toBeNull();
      // With their claims they go through; a record without a title needs none.
      await h.store.createRecord(ws.id, newRecord('projects', { title: 'Same' }, { uniques: [{ field: 'title', value: 'Same' }] }));
      await h.store.restoreRecord(ws.id, gone.id, [{ field: 'title', value: 'Gone' }]);
      await h.store.updateRecord(ws.id, held.id, { data: { phase: 'plan' }, uniques: [], refs: [] });
      // Once title claims nothing again, a claim on it is out of date too.
      await h.store.updateField(ws.id, 'projects', 'title', { unique: false });
      await expectCrmError(h.store.createRecord(ws.id, newRecord('projects', { title: 'B' }, { uniques: [{ field: 'title', value: 'B' }] })), 'conflict', meanwhile);
      await h.store.createRecord(ws.id, newRecord('projects', { title: 'Same' }));
      expect(await h.store.countRecords(ws.id, 'projects')).toBe(4);
    });

    it('claims the values live records hold when a field becomes unique, and refuses it while two hold one', async () => {
      const ws = await freshWorkspace(h);
      await h.store.createObjectType(ws.id, PROJECTS);
      const title = (t: string) => newRecord('projects', { title: t });
      const claimed = (t: string) => newRecord('projects', { title: t }, { uniques: [{ field: 'title', value: t }] });
      const first = await h.store.createRecord(ws.id, title('Same'));
      const second = await h.store.createRecord(ws.id, title('Same'));
      const other = await h.store.createRecord(ws.id, title('Other'));
      const gone = await h.store.createRecord(ws.id, title('Other'));
      await h.store.softDeleteRecord(ws.id, gone.id);

      // Two live records hold "Same": refused, naming both, and the field stays as it was.
      const refused = await expectCrmError(h.store.updateField(ws.id, 'projects', 'title', { unique: true }), 'conflict', { param: 'unique', field: 'title', rule: 'unique', value: 'Same' });
      expect([...(refused.details!.record_ids as string[])].sort()).toEqual([first.id, second.id].sort());
      expect((await h.store.getObjectType(ws.id, 'projects'))!.fields.find((f) => f.slug === 'title')?.unique).toBe(false);

      // Once one changes, the flag goes on and every held value is claimed (the deleted record's is not).
      await h.store.updateRecord(ws.id, second.id, { data: { title: 'Changed' }, uniques: [], refs: [] });
      await h.store.updateField(ws.id, 'projects', 'title', { unique: true });
      await expectCrmError(h.store.createRecord(ws.id, claimed('Other')), 'conflict', { field: 'title' });
      await expectCrmError(h.store.createRecord(ws.id, claimed('Changed')), 'conflict', { field: 'title' });
      // Holders keep writing with their own values.
      await h.store.updateRecord(ws.id, other.id, { data: { title: 'Other', phase: 'build' }, uniques: [{ field: 'title', value: 'Other' }], refs: [] });
      await h.store.updateRecord(ws.id, first.id, { data: { title: 'Same' }, uniques: [{ field: 'title', value: 'Same' }], refs: [] });

      // Turned off, the claims go with it: a duplicate is free, and turning it on again is refused.
      await h.store.updateField(ws.id, 'projects', 'title', { unique: false });
      const copy = await h.store.createRecord(ws.id, title('Other'));
      await expectCrmError(h.store.updateField(ws.id, 'projects', 'title', { unique: true }), 'conflict', { param: 'unique', field: 'title' });
      await h.store.softDeleteRecord(ws.id, copy.id);

      // Archiving a unique field releases its claims; taking it out of the archive claims them again.
      await h.store.updateField(ws.id, 'projects', 'code', { archived: true });
      const a = await h.store.createRecord(ws.id, newRecord('projects', { title: 'A', code: 'C1' }));
      const b = await h.store.createRecord(ws.id, newRecord('projects', { title: 'B', code: 'C1' }));
      await expectCrmError(h.store.updateField(ws.id, 'projects', 'code', { archived: false }), 'conflict', { param: 'archived', field: 'code' });
      await h.store.updateRecord(ws.id, b.id, { data: { title: 'B' }, uniques: [], refs: [] });
      await h.store.updateField(ws.id, 'projects', 'code', { archived: false });
      await expectCrmError(h.store.createRecord(ws.id, newRecord('projects', { title: 'D', code: 'C1' }, { uniques: [{ field: 'code', value: 'C1' }] })), 'conflict', { field: 'code' });
      await h.store.updateRecord(ws.id, a.id, { data: { title: 'A2', code: 'C1' }, uniques: [{ field: 'code', value: 'C1' }], refs: [] });
    });

    it('rejects updating an unknown field with not_found', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.updateField(ws.id, 'companies', 'nope', { name: 'x' }), 'not_found');
      await expectCrmError(h.store.updateField(ws.id, 'projects', 'name', { name: 'x' }), 'not_found');
    });
  });

  describe('countRecords', () => {
    it('counts the live records of one object type', async () => {
      const ws = await freshWorkspace(h);
      const a = await h.store.createRecord(ws.id, newRecord('companies', { name: 'A' }));
      await h.store.createRecord(ws.id, newRecord('companies', { name: 'B' }));
      await h.store.createRecord(ws.id, newRecord('contacts', { name: 'C' }));
      expect(await h.store.countRecords(ws.id, 'companies')).toBe(2);
      await h.store.softDeleteRecord(ws.id, a.id);
      expect(await h.store.countRecords(ws.id, 'companies')).toBe(1);
      expect(await h.store.countRecords(ws.id, 'deals')).toBe(0);
    });

    it('rejects counting an unknown object type with not_found', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.countRecords(ws.id, 'projects'), 'not_found');
    });
  });
}
