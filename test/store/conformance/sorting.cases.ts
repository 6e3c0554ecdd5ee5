import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../../../src/domain/types.ts';
import { gadgets, GADGETS } from './gadgets.ts';
import { expectCrmError, freshWorkspace, newRecord, num, sortBy, type Harness } from './harness.ts';

/** Record ids ordered by (created_at, id), both in the given direction. */
const byCreation = (records: StoredRecord[], ascending: boolean): string[] => {
  const sorted = [...records].sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1));
  return (ascending ? sorted : sorted.reverse()).map((r) => r.id);
};

export function sortingCases(h: Harness): void {
  describe('listRecords sorting', () => {
    it('sorts by a number ascending with missing values last', async () => {
      const g = await gadgets(h);
      expect((await g.page(sortBy('score', true, 'number'))).labels).toEqual(['gamma', 'alpha', 'epsilon', 'beta', 'delta']);
    });

    it('sorts by a number descending with missing values still last', async () => {
      const g = await gadgets(h);
      expect((await g.page(sortBy('score', false, 'number'))).labels).toEqual(['beta', 'epsilon', 'alpha', 'gamma', 'delta']);
    });

    it('sorts by a date both ways with records lacking it last, by id', async () => {
      const g = await gadgets(h);
      expect((await g.page(sortBy('due', true))).labels).toEqual(['gamma', 'alpha', 'beta', ...g.byId(['delta', 'epsilon'], true)]);
      expect((await g.page(sortBy('due', false))).labels).toEqual(['beta', 'alpha', 'gamma', ...g.byId(['delta', 'epsilon'], false)]);
    });

    it('sorts booleans false before true, missing last', async () => {
      const g = await gadgets(h);
      expect((await g.page(sortBy('active', true, 'boolean'))).labels)
        .toEqual(['beta', ...g.byId(['alpha', 'delta'], true), ...g.byId(['epsilon', 'gamma'], true)]);
    });

    it('sorts text by code point, so upper case comes before lower case, missing last', async () => {
      const g = await gadgets(h);
      expect((await g.page(sortBy('name', true))).labels).toEqual(['alpha', 'delta', 'gamma', 'beta', 'epsilon']);
      expect((await g.page(sortBy('name', false))).labels).toEqual(['beta', 'gamma', 'delta', 'alpha', 'epsilon']);
    });

    it('orders a single-valued field marked as such (multi: false) exactly as it does unmarked', async () => {
      const g = await gadgets(h);
      for (const [field, kind] of [['score', 'number'], ['due', 'text'], ['active', 'boolean'], ['name', 'text']] as const) {
        for (const ascending of [true, false]) {
          const unmarked = sortBy(field, ascending, kind);
          expect((await g.page({ ...unmarked, multi: false })).labels, `${field} ${ascending}`).toEqual((await g.page(unmarked)).labels);
        }
      }
    });

    it('sorts a multi-valued field by its smallest element ascending and its largest descending', async () => {
      const g = await gadgets(h);
      expect((await g.page(sortBy('tags', true))).labels)
        .toEqual([...g.byId(['alpha', 'beta'], true), 'delta', ...g.byId(['epsilon', 'gamma'], true)]);
      expect((await g.page(sortBy('tags', false))).labels).toEqual(['alpha', 'delta', 'beta', ...g.byId(['epsilon', 'gamma'], false)]);
    });

    it('sorts by created_at both ways, ties broken by record id', async () => {
      const g = await gadgets(h);
      const records = Object.values(g.records);
      const ids = async (ascending: boolean) =>
        (await h.store.listRecords(g.ws.id, { object_type_slug: 'gadgets', sort: sortBy('created_at', ascending, 'text', true), offset: 0, limit: 10 }))
          .items.map((r) => r.id);
      expect(await ids(true)).toEqual(byCreation(records, true));
      expect(await ids(false)).toEqual(byCreation(records, false));
    });

    it('sorts by record_id', async () => {
      const g = await gadgets(h);
      const page = await h.store.listRecords(g.ws.id, { object_type_slug: 'gadgets', sort: sortBy('record_id', true, 'text', true), offset: 0, limit: 10 });
      expect(page.items.map((r) => r.id)).toEqual(Object.values(g.records).map((r) => r.id).sort());
    });

    it('breaks ties between equal values by record id in the sort direction', async () => {
      const ws = await freshWorkspace(h);
      await h.store.createObjectType(ws.id, GADGETS);
      const created: string[] = [];
      for (let i = 0; i < 4; i++) created.push((await h.store.createRecord(ws.id, newRecord('gadgets', { score: 7 }))).id);
      const list = async (ascending: boolean) =>
        (await h.store.listRecords(ws.id, { object_type_slug: 'gadgets', sort: sortBy('score', ascending, 'number'), offset: 0, limit: 10 }))
          .items.map((r) => r.id);
      expect(await list(true)).toEqual([...created].sort());
      expect(await list(false)).toEqual([...created].sort().reverse());
    });
  });

  describe('listRecords paging', () => {
    it('returns the requested slice of the order with the total of all matches', async () => {
      const g = await gadgets(h);
      expect(await g.page(sortBy('score', true, 'number'), 1, 2)).toEqual({ labels: ['alpha', 'epsilon'], total: 5 });
      expect(await g.page(sortBy('score', true, 'number'), 4, 2)).toEqual({ labels: ['delta'], total: 5 });
    });

    it('continues a page from the records with the sort value into those without it', async () => {
      const g = await gadgets(h);
      expect(await g.page(sortBy('score', true, 'number'), 3, 2)).toEqual({ labels: ['beta', 'delta'], total: 5 });
      expect(await g.page(sortBy('due', false), 2, 3).then((p) => p.labels[0])).toBe('gamma');
    });

    it('returns no items but the total for an offset past the end', async () => {
      const g = await gadgets(h);
      expect(await g.page(sortBy('score', true, 'number'), 10, 5)).toEqual({ labels: [], total: 5 });
    });

    it('counts the filter’s matches, not the page, in total', async () => {
      const g = await gadgets(h);
      expect(await g.page(sortBy('score', false, 'number'), 0, 1, num('score', 'gte', 10))).toEqual({ labels: ['beta'], total: 3 });
    });

    it('leaves deleted records out of items and total', async () => {
      const g = await gadgets(h);
      await h.store.softDeleteRecord(g.ws.id, g.records.beta.id);
      expect(await g.page(sortBy('score', true, 'number'))).toEqual({ labels: ['gamma', 'alpha', 'epsilon', 'delta'], total: 4 });
    });

    it('lists only records of the requested object type', async () => {
      const g = await gadgets(h);
      await h.store.createRecord(g.ws.id, newRecord('companies', { name: 'Alpha', score: 1 }));
      expect((await g.page(sortBy('score', true, 'number'))).total).toBe(5);
    });

    it('rejects listing an unknown object type with not_found', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.listRecords(ws.id, { object_type_slug: 'gizmos', sort: sortBy('created_at', true, 'text', true), offset: 0, limit: 10 }), 'not_found');
    });
  });
}
