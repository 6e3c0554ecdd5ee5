import { describe, expect, it } from 'vitest';
import type { FilterNode } from '../../../src/domain/filter-ast.ts';
import { gadgets } from './gadgets.ts';
import { allOf, cmp, many, newRecord, NEWEST_FIRST, num, type Harness } from './harness.ts';

/**
 * An adapter may keep list totals between calls (the SQLite count cache). Every case reads a total
 * twice first, so a kept total exists, then writes, and the next total must be exact again.
 */
export function totalCases(h: Harness): void {
  describe('list totals stay exact across writes', () => {
    const scoreAtLeast10 = num('score', 'gte', 10);

    async function setup() {
      const g = await gadgets(h);
      const total = async (filter?: FilterNode, slug = 'gadgets') =>
        (await h.store.listRecords(g.ws.id, { object_type_slug: slug, filter, sort: NEWEST_FIRST, offset: 0, limit: 1 })).total;
      expect(await total(scoreAtLeast10)).toBe(3);
      expect(await total(scoreAtLeast10)).toBe(3);
      expect(await total()).toBe(5);
      return { g, total };
    }

    it('counts a created record on the next call', async () => {
      const { g, total } = await setup();
      await h.store.createRecord(g.ws.id, newRecord('gadgets', { name: 'Zeta', score: 50 }));
      expect(await total(scoreAtLeast10)).toBe(4);
      expect(await total()).toBe(6);
    });

    it('counts a record whose update moves it into or out of the filter', async () => {
      const { g, total } = await setup();
      await h.store.updateRecord(g.ws.id, g.records.gamma.id, { data: { name: 'Gamma ray', score: 11 }, uniques: [], refs: [] });
      expect(await total(scoreAtLeast10)).toBe(4);
      await h.store.updateRecord(g.ws.id, g.records.alpha.id, { data: { name: 'Alpha', score: 1 }, uniques: [], refs: [] });
      expect(await total(scoreAtLeast10)).toBe(3);
    });

    it('drops a deleted record and counts it again once restored', async () => {
      const { g, total } = await setup();
      await h.store.softDeleteRecord(g.ws.id, g.records.beta.id);
      expect(await total(scoreAtLeast10)).toBe(2);
      expect(await total()).toBe(4);
      await h.store.restoreRecord(g.ws.id, g.records.beta.id, []);
      expect(await total(scoreAtLeast10)).toBe(3);
      expect(await total()).toBe(5);
    });

    it('counts values of a field added after the totals were read', async () => {
      const { g, total } = await setup();
      await h.store.addField(g.ws.id, 'gadgets', { slug: 'rank', name: 'Rank', type: 'number' });
      const ranked = num('rank', 'gt', 0);
      expect(await total(ranked)).toBe(0);
      await h.store.updateRecord(g.ws.id, g.records.delta.id, { data: { name: 'DELTA', active: true, tags: ['green'], rank: 3 }, uniques: [], refs: [] });
      expect(await total(ranked)).toBe(1);
      expect(await total(allOf(ranked, many('tags', 'eq', 'green')))).toBe(1);
    });

    it('counts records written by the bulk path', async () => {
      const { g, total } = await setup();
      await h.store.createRecords(g.ws.id, [
        newRecord('gadgets', { name: 'Bulk one', score: 30 }),
        newRecord('gadgets', { name: 'Bulk two', score: 2 }),
      ]);
      expect(await total(scoreAtLeast10)).toBe(4);
      expect(await total(cmp('name', 'starts_with', 'bulk'))).toBe(2);
      expect(await total()).toBe(7);
    });

    it('keeps totals of other object types apart', async () => {
      const { g, total } = await setup();
      expect(await total(undefined, 'companies')).toBe(0);
      await h.store.createRecord(g.ws.id, newRecord('companies', { name: 'Acme' }));
      expect(await total(undefined, 'companies')).toBe(1);
      expect(await total()).toBe(5);
    });
  });
}
