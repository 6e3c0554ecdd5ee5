import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import { contact, expectCrmError, freshWorkspace, newRecord, NEWEST_FIRST, type Harness } from './harness.ts';
import { ev, timeline } from './work.ts';


export function bulkRecordCases(h: Harness): void {
  const count = (workspaceId: string, slug: string) => h.store.countRecords(workspaceId, slug);

  describe('bulk record writes', () => {
    it('writes a batch of records of several types with their data, and returns how many', async () => {
      const ws = await freshWorkspace(h);
      const written = await h.store.createRecords(ws.id, [
        newRecord('companies', { name: 'Bulkco', employee_count: 5 }),
        newRecord('companies', { name: 'Massive Ltd' }),
        contact('Ada', 'ada@example.com'),
      ]);
      expect(written).toBe(3);
      expect(await count(ws.id, 'companies')).toBe(2);
      const page = await h.store.listRecords(ws.id, { object_type_slug: 'contacts', sort: NEWEST_FIRST, offset: 0, limit: 10 });
      expect(page.items.map((r) => r.data)).toEqual([{ name: 'Ada', email: 'ada@example.com' }]);
      expect(page.items[0]).toMatchObject({ workspace_id: ws.id, object_type_slug: 'contacts', deleted_at: null, id: expect.stringMatching(/^rec_/) });
      expect((await h.store.searchRecords(ws.id, { text: 'bulkco', offset: 0, limit: 10 })).total).toBe(1);
    });

    it('writes nothing for an empty batch', async () => {
      const ws = await freshWorkspace(h);
      expect(await h.store.createRecords(ws.id, [])).toBe(0);
    });

    it('keeps the ids the records carry and lets refs point at records of the same batch, before or after', async () => {
      const ws = await freshWorkspace(h);
      // Ids given up front, as the domain assigns them, so a batch can name its own records.
      const [companyId, personId, dealId] = [newId('record'), newId('record'), newId('record')];
      await h.store.createRecords(ws.id, [
        newRecord('contacts', { name: 'Ada', company: companyId }, { id: personId, refs: [{ field: 'company', to_id: companyId }] }),
        newRecord('companies', { name: 'Acme' }, { id: companyId }),
        newRecord('deals', { name: 'Big', company: companyId, contacts: [personId] }, {
          id: dealId, refs: [{ field: 'company', to_id: companyId }, { field: 'contacts', to_id: personId }],
        }),
      ]);
      expect((await h.store.getRecord(ws.id, personId))?.data).toEqual({ name: 'Ada', company: companyId });
      const relations = await h.store.getRelations(ws.id, companyId);
      expect(relations.map((r) => [r.from_id, r.type, r.to_id]).sort()).toEqual([[dealId, 'company', companyId], [personId, 'company', companyId]].sort());
      expect((await h.store.getRelations(ws.id, dealId)).map((r) => r.to_id).sort()).toEqual([companyId, personId].sort());
    });

    it('claims unique values, so a later write of a taken value conflicts', async () => {
      const ws = await freshWorkspace(h);
      await h.store.createRecords(ws.id, [contact('Ada', 'ada@example.com')]);
      await expectCrmError(h.store.createRecord(ws.id, contact('Copy', 'ada@example.com')), 'conflict', { param: 'data.email' });
    });

    it('writes none of a batch when one record takes a taken value, naming it by index', async () => {
      const ws = await freshWorkspace(h);
      await h.store.createRecord(ws.id, contact('Ada', 'ada@example.com'));
      await expectCrmError(h.store.createRecords(ws.id, [
        contact('Bob', 'bob@example.com'), newRecord('companies', { name: 'Co' }), contact('Imposter', 'ada@example.com'),
      ], [ev('create', 'record', 'batch')]), 'conflict', { param: 'data.email', field: 'email', index: 2 });
      expect(await count(ws.id, 'contacts')).toBe(1);
      expect(await count(ws.id, 'companies')).toBe(0);
      expect((await h.store.searchRecords(ws.id, { text: 'Bob', offset: 0, limit: 10 })).total).toBe(0);
      await expect(h.store.createRecord(ws.id, contact('Bob', 'bob@example.com'))).resolves.toBeTruthy();
      expect(await timeline(h, ws.id)).toEqual([]);
    });

    it('writes none of a batch that holds one unique value twice, naming the second by index', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.createRecords(ws.id, [
        contact('Ada', 'ada@example.com'), contact('Twin', 'ada@example.com'),
      ]), 'conflict', { param: 'data.email', field: 'email', index: 1 });
      expect(await count(ws.id, 'contacts')).toBe(0);
    });

    it('writes none of a batch with a ref to an unknown record or a record of an unknown type', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.createRecords(ws.id, [
        newRecord('companies', { name: 'Fine' }),
        newRecord('contacts', { name: 'Dangling' }, { refs: [{ field: 'company', to_id: 'rec_00000000000000000000000000' }] }),
      ]), 'not_found');
      await expectCrmError(h.store.createRecords(ws.id, [newRecord('companies', { name: 'Fine' }), newRecord('projects', { name: 'x' })]), 'not_found');
      expect(await count(ws.id, 'companies')).toBe(0);
      expect(await count(ws.id, 'contacts')).toBe(0);
    });
  });
}
