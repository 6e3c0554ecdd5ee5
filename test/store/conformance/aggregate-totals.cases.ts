import { describe, expect, it } from 'vitest';
import type { AggregateQuery, AggregateRow } from '../../../src/domain/reports/types.ts';
import { cmp, freshWorkspace, newRecord, type Harness } from './harness.ts';

/** The pipeline's aggregation: deals by stage, the sum of their amounts. */
const PIPELINE: AggregateQuery = {
  scope: { object_type_slug: 'deals' }, metric: 'sum', metric_field: 'amount', group_by: { field: 'stage', valueKind: 'text' }, max_rows: 100,
};
/** The bench's report: the same by stage and month of creation. */
const MONTHLY: AggregateQuery = { ...PIPELINE, time: { field: 'created_at', system: true, bucket: 'month' } };

const byGroup = (rows: AggregateRow[]) =>
  Object.fromEntries(rows.map((r) => [String(r.group), { count: r.count, value: r.value }]).sort(([a], [b]) => String(a).localeCompare(String(b))));

/**
 * An adapter may keep aggregations between calls (the SQLite aggregate cache). Every case
 * aggregates twice first, so a kept answer exists, then writes, and the next answer must be exact
 * again: report and pipeline totals after creates, updates, deletes and restores.
 */
export function aggregateTotalCases(h: Harness): void {
  describe('aggregations stay exact across writes', () => {
    async function setup() {
      const ws = await freshWorkspace(h);
      const a = await h.store.createRecord(ws.id, newRecord('deals', { name: 'A', stage: 'won', amount: 10 }));
      const b = await h.store.createRecord(ws.id, newRecord('deals', { name: 'B', stage: 'won', amount: 30 }));
      const c = await h.store.createRecord(ws.id, newRecord('deals', { name: 'C', stage: 'lead', amount: 5 }));
      const pipeline = async (query: AggregateQuery = PIPELINE) => byGroup(await h.store.aggregate(ws.id, query));
      const before = { won: { count: 2, value: 40 }, lead: { count: 1, value: 5 } };
      expect(await pipeline()).toEqual(before);
      expect(await pipeline()).toEqual(before);
      expect((await h.store.aggregate(ws.id, MONTHLY)).reduce((n, r) => n + r.count, 0)).toBe(3);
      return { ws, records: { a, b, c }, pipeline };
    }

    it('counts and sums a created record on the next call', async () => {
      const { ws, pipeline } = await setup();
      await h.store.createRecord(ws.id, newRecord('deals', { name: 'D', stage: 'lead', amount: 7 }));
      expect(await pipeline()).toEqual({ won: { count: 2, value: 40 }, lead: { count: 2, value: 12 } });
      const monthly = await h.store.aggregate(ws.id, MONTHLY);
      expect(monthly.reduce((n, r) => n + r.count, 0)).toBe(4);
      expect(monthly.reduce((n, r) => n + (r.value ?? 0), 0)).toBe(52);
    });

    it('moves an updated record between groups and changes its sum', async () => {
      const { ws, records, pipeline } = await setup();
      await h.store.updateRecord(ws.id, records.a.id, { data: { name: 'A', stage: 'lead', amount: 100 }, uniques: [], refs: [] });
      expect(await pipeline()).toEqual({ won: { count: 1, value: 30 }, lead: { count: 2, value: 105 } });
      await h.store.updateRecord(ws.id, records.c.id, { data: { name: 'C', amount: 5 }, uniques: [], refs: [] });
      expect(await pipeline()).toEqual({ won: { count: 1, value: 30 }, lead: { count: 1, value: 100 }, null: { count: 1, value: 5 } });
    });

    it('drops a deleted record and counts it again once restored', async () => {
      const { ws, records, pipeline } = await setup();
      await h.store.softDeleteRecord(ws.id, records.b.id);
      expect(await pipeline()).toEqual({ won: { count: 1, value: 10 }, lead: { count: 1, value: 5 } });
      expect((await h.store.aggregate(ws.id, MONTHLY)).reduce((n, r) => n + r.count, 0)).toBe(2);
      await h.store.restoreRecord(ws.id, records.b.id, []);
      expect(await pipeline()).toEqual({ won: { count: 2, value: 40 }, lead: { count: 1, value: 5 } });
      expect((await h.store.aggregate(ws.id, MONTHLY)).reduce((n, r) => n + r.count, 0)).toBe(3);
    });

    it('counts records written by the bulk path, and keeps filtered answers and other types apart', async () => {
      const { ws, pipeline } = await setup();
      const filtered = { ...PIPELINE, filter: cmp('stage', 'eq', 'won') };
      expect(await pipeline(filtered)).toEqual({ won: { count: 2, value: 40 } });
      await h.store.createRecords(ws.id, [newRecord('deals', { name: 'E', stage: 'won', amount: 1 }), newRecord('companies', { name: 'Acme' })]);
      expect(await pipeline(filtered)).toEqual({ won: { count: 3, value: 41 } });
      expect(await pipeline()).toEqual({ won: { count: 3, value: 41 }, lead: { count: 1, value: 5 } });
      const companies: AggregateQuery = { scope: { object_type_slug: 'companies' }, metric: 'count', max_rows: 10 };
      expect(await h.store.aggregate(ws.id, companies)).toEqual([{ group: null, bucket: null, value: 1, count: 1 }]);
    });

    it('answers rows the caller may change without changing the next answer', async () => {
      const { ws, pipeline } = await setup();
      const rows = await h.store.aggregate(ws.id, PIPELINE);
      for (const row of rows) row.count = -1;
      expect(await pipeline()).toEqual({ won: { count: 2, value: 40 }, lead: { count: 1, value: 5 } });
    });
  });
}
