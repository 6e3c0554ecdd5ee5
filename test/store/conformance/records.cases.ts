import { describe, expect, it } from 'vitest';
import {
  addMember, contact, expectCrmError, freshWorkspace, newRecord, NEWEST_FIRST, sleep, sortedIds, type Harness,
} from './harness.ts';
import { ev } from './work.ts';

const UNKNOWN_RECORD = 'rec_00000000000000000000000000';

export function recordCases(h: Harness): void {
  const listIds = async (workspaceId: string, slug: string) =>
    (await h.store.listRecords(workspaceId, { object_type_slug: slug, sort: NEWEST_FIRST, offset: 0, limit: 100 })).items.map((r) => r.id);

  describe('records', () => {
    it('creates a record with an id, timestamps, its data, creator and assignee', async () => {
      const ws = await freshWorkspace(h);
      const user = await addMember(h, ws.id);
      const record = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Acme', employee_count: 12 }, {
        created_by: user.id, assignee_id: user.id,
      }));
      expect(record).toMatchObject({
        workspace_id: ws.id, object_type_slug: 'companies', data: { name: 'Acme', employee_count: 12 },
        created_by: user.id, assignee_id: user.id, deleted_at: null,
      });
      expect(record.id).toMatch(/^rec_/);
      expect(record.updated_at).toBe(record.created_at);
      expect(await h.store.getRecord(ws.id, record.id)).toEqual(record);
    });

    it('returns null for an unknown record id', async () => {
      const ws = await freshWorkspace(h);
      expect(await h.store.getRecord(ws.id, UNKNOWN_RECORD)).toBeNull();
      expect(await h.store.getRecord(ws.id, UNKNOWN_RECORD, { includeDeleted: true })).toBeNull();
    });

    it('rejects a record of an unknown object type with not_found', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.createRecord(ws.id, newRecord('projects', { name: 'x' })), 'not_found');
    });

    it('replaces the data as a whole on update and moves updated_at forward', async () => {
      const ws = await freshWorkspace(h);
      const before = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Acme', industry: 'retail' }));
      await sleep(2);
      const after = await h.store.updateRecord(ws.id, before.id, { data: { name: 'Acme Inc' }, uniques: [], refs: [] });
      expect(after.data).toEqual({ name: 'Acme Inc' });
      expect(after.created_at).toBe(before.created_at);
      expect(after.updated_at > before.updated_at).toBe(true);
      expect(await h.store.getRecord(ws.id, before.id)).toEqual(after);
    });

    it('gives every write of a record a later updated_at than the one before, even within one millisecond', async () => {
      const ws = await freshWorkspace(h);
      const record = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Quick' }));
      const stamps = [record.updated_at];
      for (let i = 0; i < 20; i++) stamps.push((await h.store.updateRecord(ws.id, record.id, { data: { name: `Quick ${i}` }, uniques: [], refs: [] })).updated_at);
      stamps.push((await h.store.softDeleteRecord(ws.id, record.id)).updated_at);
      stamps.push((await h.store.restoreRecord(ws.id, record.id, [])).updated_at);
      for (let i = 1; i < stamps.length; i++) expect(stamps[i]! > stamps[i - 1]!, `write ${i}: ${stamps[i]} after ${stamps[i - 1]}`).toBe(true);
    });

    it('writes an update given unchanged_since only while the record still has that updated_at', async () => {
      const ws = await freshWorkspace(h);
      const record = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Base', industry: 'retail' }));
      const first = await h.store.updateRecord(ws.id, record.id, { data: { name: 'First', industry: 'retail' }, uniques: [], refs: [], unchanged_since: record.updated_at });
      expect(first.data).toEqual({ name: 'First', industry: 'retail' });
      const stale = h.store.updateRecord(ws.id, record.id, { data: { name: 'Base', industry: 'media' }, uniques: [], refs: [], unchanged_since: record.updated_at }, [ev('update', 'record', 'stale', [record.id])]);
      await expectCrmError(stale, 'conflict', { rule: 'changed_meanwhile', id: record.id });
      expect(await h.store.getRecord(ws.id, record.id)).toEqual(first);
      expect(await h.store.listEvents(ws.id, { offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
      const next = await h.store.updateRecord(ws.id, record.id, { data: { name: 'First', industry: 'media' }, uniques: [], refs: [], unchanged_since: first.updated_at });
      expect(next.data).toEqual({ name: 'First', industry: 'media' });
    });

    it('keeps the assignee when an update omits it and clears it when given null', async () => {
      const ws = await freshWorkspace(h);
      const [ada, bob] = [await addMember(h, ws.id), await addMember(h, ws.id)];
      const record = await h.store.createRecord(ws.id, newRecord('companies', { name: 'A' }, { assignee_id: ada.id }));
      const write = { data: { name: 'A' }, uniques: [], refs: [] };
      expect((await h.store.updateRecord(ws.id, record.id, write)).assignee_id).toBe(ada.id);
      expect((await h.store.updateRecord(ws.id, record.id, { ...write, assignee_id: bob.id })).assignee_id).toBe(bob.id);
      expect((await h.store.updateRecord(ws.id, record.id, { ...write, assignee_id: null })).assignee_id).toBeNull();
    });

    it('rejects an update of an unknown record with not_found', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.updateRecord(ws.id, UNKNOWN_RECORD, { data: {}, uniques: [], refs: [] }), 'not_found');
    });

    it('soft-deletes a record, hiding it from get, getRecords, listRecords and countRecords', async () => {
      const ws = await freshWorkspace(h);
      const record = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Gone' }));
      const deleted = await h.store.softDeleteRecord(ws.id, record.id);
      expect(deleted).toMatchObject({ id: record.id, data: { name: 'Gone' } });
      expect(deleted.deleted_at).toEqual(expect.any(String));
      expect(await h.store.getRecord(ws.id, record.id)).toBeNull();
      expect(await h.store.getRecords(ws.id, [record.id])).toEqual([]);
      expect(await listIds(ws.id, 'companies')).toEqual([]);
      expect(await h.store.countRecords(ws.id, 'companies')).toBe(0);
    });

    it('returns a deleted record, with deleted_at set, only when asked to include deleted ones', async () => {
      const ws = await freshWorkspace(h);
      const record = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Gone' }));
      const deleted = await h.store.softDeleteRecord(ws.id, record.id);
      expect(await h.store.getRecord(ws.id, record.id, { includeDeleted: true })).toEqual(deleted);
      expect(await h.store.getRecord(ws.id, record.id, { includeDeleted: false })).toBeNull();
    });

    it('rejects deleting or updating a record that is already deleted with not_found', async () => {
      const ws = await freshWorkspace(h);
      const record = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Gone' }));
      await h.store.softDeleteRecord(ws.id, record.id);
      await expectCrmError(h.store.softDeleteRecord(ws.id, record.id), 'not_found');
      await expectCrmError(h.store.updateRecord(ws.id, record.id, { data: { name: 'x' }, uniques: [], refs: [] }), 'not_found');
      await expectCrmError(h.store.softDeleteRecord(ws.id, UNKNOWN_RECORD), 'not_found');
    });

    it('restores a deleted record with its data and deleted_at cleared', async () => {
      const ws = await freshWorkspace(h);
      const record = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Back' }));
      await h.store.softDeleteRecord(ws.id, record.id);
      const restored = await h.store.restoreRecord(ws.id, record.id, []);
      expect(restored).toMatchObject({ id: record.id, data: { name: 'Back' }, deleted_at: null });
      expect(await h.store.getRecord(ws.id, record.id)).toEqual(restored);
      expect(await listIds(ws.id, 'companies')).toEqual([record.id]);
    });

    it('leaves a live record as it is when asked to restore it', async () => {
      const ws = await freshWorkspace(h);
      const record = await h.store.createRecord(ws.id, contact('Live', 'live@example.com'));
      expect(await h.store.restoreRecord(ws.id, record.id, [{ field: 'email', value: 'live@example.com' }])).toEqual(record);
    });

    it('keeps a record deleted when its object type was deleted and its slug given to a new one', async () => {
      const ws = await freshWorkspace(h);
      const ghosts = { slug: 'ghosts', name: 'Ghosts', fields: [{ slug: 'name', name: 'Name', type: 'text' as const }] };
      await h.store.createObjectType(ws.id, ghosts);
      const record = await h.store.createRecord(ws.id, newRecord('ghosts', { name: 'Old' }));
      await h.store.softDeleteRecord(ws.id, record.id);
      await h.store.deleteObjectType(ws.id, 'ghosts');
      await h.store.createObjectType(ws.id, ghosts);
      await expectCrmError(h.store.restoreRecord(ws.id, record.id, []), 'not_found', { resource: 'object type', id: 'ghosts', record_id: record.id });
      expect(await h.store.getRecord(ws.id, record.id)).toBeNull();
      expect((await h.store.getRecord(ws.id, record.id, { includeDeleted: true }))?.deleted_at).not.toBeNull();
      expect(await listIds(ws.id, 'ghosts')).toEqual([]);
      // A record of the new type restores as ever.
      const fresh = await h.store.createRecord(ws.id, newRecord('ghosts', { name: 'New' }));
      await h.store.softDeleteRecord(ws.id, fresh.id);
      expect((await h.store.restoreRecord(ws.id, fresh.id, [])).deleted_at).toBeNull();
      expect(await listIds(ws.id, 'ghosts')).toEqual([fresh.id]);
    });

    it('rejects restoring an unknown record with not_found', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.restoreRecord(ws.id, UNKNOWN_RECORD, []), 'not_found');
    });

    it('gets the live records among many ids and skips unknown and deleted ones', async () => {
      const ws = await freshWorkspace(h);
      const [a, b, c] = [
        await h.store.createRecord(ws.id, newRecord('companies', { name: 'A' })),
        await h.store.createRecord(ws.id, newRecord('contacts', { name: 'B' })),
        await h.store.createRecord(ws.id, newRecord('companies', { name: 'C' })),
      ];
      await h.store.softDeleteRecord(ws.id, c.id);
      const found = await h.store.getRecords(ws.id, [a.id, UNKNOWN_RECORD, b.id, c.id]);
      expect(sortedIds(found)).toEqual([a.id, b.id].sort());
      expect(found.find((r) => r.id === b.id)).toEqual(b);
      expect(await h.store.getRecords(ws.id, [])).toEqual([]);
    });
  });

  describe('unique values', () => {
    it('rejects a taken unique value with conflict naming the field', async () => {
      const ws = await freshWorkspace(h);
      await h.store.createRecord(ws.id, contact('Ada', 'ada@example.com'));
      await expectCrmError(h.store.createRecord(ws.id, contact('Imposter', 'ada@example.com')), 'conflict', {
        param: 'data.email', field: 'email',
      });
    });

    it('leaves nothing behind when a create fails on a unique value', async () => {
      const ws = await freshWorkspace(h);
      const company = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Acme' }));
      await h.store.createRecord(ws.id, contact('Ada', 'ada@example.com'));
      const failing = { ...contact('Zebediah', 'ada@example.com'), refs: [{ field: 'company', to_id: company.id }] };
      await expectCrmError(h.store.createRecord(ws.id, failing), 'conflict');
      expect(await h.store.countRecords(ws.id, 'contacts')).toBe(1);
      expect((await h.store.searchRecords(ws.id, { text: 'Zebediah', offset: 0, limit: 10 })).total).toBe(0);
      expect(await h.store.getRelations(ws.id, company.id)).toEqual([]);
    });

    it('allows the same unique value in another object type and in another workspace', async () => {
      const [a, b] = [await freshWorkspace(h), await freshWorkspace(h)];
      await h.store.createRecord(a.id, contact('Ada', 'ada@example.com'));
      await h.store.createRecord(b.id, contact('Ada', 'ada@example.com'));
      await h.store.createObjectType(a.id, { slug: 'leads', name: 'Leads', fields: [{ slug: 'email', name: 'Email', type: 'email', unique: true }] });
      const lead = newRecord('leads', { email: 'ada@example.com' }, { uniques: [{ field: 'email', value: 'ada@example.com' }] });
      await expect(h.store.createRecord(a.id, lead)).resolves.toMatchObject({ object_type_slug: 'leads' });
    });

    it('lets an update keep the record’s own unique value', async () => {
      const ws = await freshWorkspace(h);
      const ada = await h.store.createRecord(ws.id, contact('Ada', 'ada@example.com'));
      const renamed = await h.store.updateRecord(ws.id, ada.id, { ...contact('Ada L.', 'ada@example.com') });
      expect(renamed.data).toEqual({ name: 'Ada L.', email: 'ada@example.com' });
    });

    it('rejects an update to a taken value with conflict and leaves the record unchanged', async () => {
      const ws = await freshWorkspace(h);
      await h.store.createRecord(ws.id, contact('Ada', 'ada@example.com'));
      const bob = await h.store.createRecord(ws.id, contact('Bob', 'bob@example.com'));
      await expectCrmError(h.store.updateRecord(ws.id, bob.id, contact('Bob', 'ada@example.com')), 'conflict', { field: 'email' });
      expect(await h.store.getRecord(ws.id, bob.id)).toEqual(bob);
      await expectCrmError(h.store.createRecord(ws.id, contact('Bob 2', 'bob@example.com')), 'conflict');
    });

    it('releases the old value when an update changes a unique value', async () => {
      const ws = await freshWorkspace(h);
      const ada = await h.store.createRecord(ws.id, contact('Ada', 'ada@example.com'));
      await h.store.updateRecord(ws.id, ada.id, contact('Ada', 'ada@new.example.com'));
      await expect(h.store.createRecord(ws.id, contact('Other', 'ada@example.com'))).resolves.toBeTruthy();
      await expectCrmError(h.store.createRecord(ws.id, contact('Third', 'ada@new.example.com')), 'conflict');
    });

    it('releases the unique values of a deleted record', async () => {
      const ws = await freshWorkspace(h);
      const ada = await h.store.createRecord(ws.id, contact('Ada', 'ada@example.com'));
      await h.store.softDeleteRecord(ws.id, ada.id);
      await expect(h.store.createRecord(ws.id, contact('New Ada', 'ada@example.com'))).resolves.toBeTruthy();
    });

    it('re-claims the unique values of a restored record', async () => {
      const ws = await freshWorkspace(h);
      const ada = await h.store.createRecord(ws.id, contact('Ada', 'ada@example.com'));
      await h.store.softDeleteRecord(ws.id, ada.id);
      await h.store.restoreRecord(ws.id, ada.id, [{ field: 'email', value: 'ada@example.com' }]);
      await expectCrmError(h.store.createRecord(ws.id, contact('Copy', 'ada@example.com')), 'conflict', { param: 'data.email' });
    });

    it('rejects a restore whose unique value was taken meanwhile, and the record stays deleted', async () => {
      const ws = await freshWorkspace(h);
      const ada = await h.store.createRecord(ws.id, contact('Ada', 'ada@example.com'));
      await h.store.softDeleteRecord(ws.id, ada.id);
      await h.store.createRecord(ws.id, contact('Usurper', 'ada@example.com'));
      await expectCrmError(h.store.restoreRecord(ws.id, ada.id, [{ field: 'email', value: 'ada@example.com' }]), 'conflict', {
        param: 'data.email', field: 'email',
      });
      expect(await h.store.getRecord(ws.id, ada.id)).toBeNull();
      expect((await h.store.getRecord(ws.id, ada.id, { includeDeleted: true }))?.deleted_at).toEqual(expect.any(String));
    });
  });
}
