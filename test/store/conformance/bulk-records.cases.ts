import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import type { FilterNode, SortSpec } from '../../../src/domain/filter-ast.ts';
import { GADGET_DATA, GADGETS } from './gadgets.ts';
import { cmp, contact, expectCrmError, freshWorkspace, many, newRecord, NEWEST_FIRST, num, sortBy, type Harness } from './harness.ts';
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

    it('keeps writes made at the same moment apart: a conflicting one fails alone, the others stay, totals exact', async () => {
      // Writes started together may share a transaction (the SQLite store commits a turn's writes
      // at once); each must still succeed or fail on its own, and only once committed resolve.
      const ws = await freshWorkspace(h);
      const results = await Promise.allSettled([
        h.store.createRecord(ws.id, contact('Ada', 'ada@example.com')),
        h.store.createRecord(ws.id, contact('Copy', 'ada@example.com')),
        h.store.createRecords(ws.id, [contact('Bob', 'bob@example.com'), newRecord('companies', { name: 'Co' })]),
        h.store.createRecords(ws.id, [contact('Cy', 'cy@example.com'), contact('Twin', 'bob@example.com')]),
        h.store.createRecord(ws.id, contact('Dee', 'dee@example.com')),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict' });
      expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict' });
      expect(await count(ws.id, 'contacts')).toBe(3);
      expect(await count(ws.id, 'companies')).toBe(1);
      expect((await h.store.searchRecords(ws.id, { text: 'Cy', offset: 0, limit: 10 })).total).toBe(0);
      // The failed ones left no claim behind.
      await expect(h.store.createRecord(ws.id, contact('Cy', 'cy@example.com'))).resolves.toBeTruthy();
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

    it('indexes a batch for filters, sorts, totals and search exactly as one create at a time does', async () => {
      // The bulk path writes a batch's value rows sorted by value; the answers must not show it.
      const one = await freshWorkspace(h, 'one by one');
      const bulk = await freshWorkspace(h, 'bulk');
      const labelOf = new Map<string, string>();
      for (const ws of [one, bulk]) await h.store.createObjectType(ws.id, GADGETS);
      // Ids in label order in both workspaces: ties and missing values sort by id.
      const idsFor = () => Object.keys(GADGET_DATA).map(() => newId('record')).sort();
      const [oneIds, bulkIds] = [idsFor(), idsFor()];
      const labels = Object.keys(GADGET_DATA);
      for (const [i, data] of Object.values(GADGET_DATA).entries()) {
        await h.store.createRecord(one.id, newRecord('gadgets', structuredClone(data), { id: oneIds[i] }));
      }
      await h.store.createRecords(bulk.id, Object.values(GADGET_DATA).map((data, i) => newRecord('gadgets', structuredClone(data), { id: bulkIds[i] })));
      labels.forEach((label, i) => labelOf.set(oneIds[i]!, label).set(bulkIds[i]!, label));
      const answer = async (wsId: string, sort: SortSpec, filter?: FilterNode) => {
        const page = await h.store.listRecords(wsId, { object_type_slug: 'gadgets', filter, sort, offset: 0, limit: 10 });
        return { labels: page.items.map((r) => labelOf.get(r.id)), total: page.total };
      };
      const asks: Array<[SortSpec, FilterNode?]> = [
        [sortBy('score', false, 'number')], [sortBy('name', true)], [sortBy('due', true)],
        [sortBy('score', true, 'number'), num('score', 'gte', 10)], [sortBy('name', true), many('tags', 'eq', 'blue')],
        [sortBy('name', false), cmp('name', 'starts_with', 'gam')], [sortBy('due', false), cmp('active', 'eq', true, 'boolean')],
      ];
      for (const [sort, filter] of asks) expect(await answer(bulk.id, sort, filter)).toEqual(await answer(one.id, sort, filter));
      expect((await h.store.searchRecords(bulk.id, { text: 'gamma', offset: 0, limit: 10 })).items.map((r) => labelOf.get(r.id))).toEqual(['gamma']);
    });

    it('lets refs of a batch point at stored records and at records of the batch, each distinct ref once', async () => {
      const ws = await freshWorkspace(h);
      const stored = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Stored' }));
      const [companyId, personId] = [newId('record'), newId('record')];
      await h.store.createRecords(ws.id, [
        newRecord('companies', { name: 'Fresh' }, { id: companyId }),
        newRecord('contacts', { name: 'Ada', company: stored.id }, { id: personId, refs: [{ field: 'company', to_id: stored.id }, { field: 'company', to_id: stored.id }] }),
        newRecord('deals', { name: 'Deal', company: companyId, contacts: [personId] }, {
          refs: [{ field: 'company', to_id: companyId }, { field: 'contacts', to_id: personId }],
        }),
      ]);
      const edges = async (id: string) => (await h.store.getRelations(ws.id, id)).map((r) => [r.from_object, r.type, r.to_object]).sort();
      expect(await edges(stored.id)).toEqual([['contacts', 'company', 'companies']]);
      expect(await edges(personId)).toEqual([['contacts', 'company', 'companies'], ['deals', 'contacts', 'contacts']]);
      expect(await edges(companyId)).toEqual([['deals', 'company', 'companies']]);
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
