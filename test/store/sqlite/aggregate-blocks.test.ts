import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import type { AggregateQuery, AggregateRow, Metric } from '../../../src/domain/reports/types.ts';
import type { RecordData, Workspace } from '../../../src/domain/types.ts';
import type { Store } from '../../../src/domain/store/port.ts';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';
import { num } from '../conformance/harness.ts';

/**
 * The adapter keeps record aggregations per block of 4,096 record pks and reads again only the
 * blocks written since (block-cache.ts); the conformance data never spans two blocks. Here 9,000
 * records span three, and every answer after each kind of write is checked against the same
 * aggregation computed in memory from the live records.
 */
const COUNT = 9_000;
const STAGES = ['a', 'b', 'c'];

function dataOf(i: number): RecordData {
  const data: RecordData = { name: `r${i}`, day: `2026-0${1 + (i % 9)}-15` };
  if (i % 4 !== 3) data.stage = STAGES[i % 4]!;
  if (i % 7 !== 0) data.amount = ((i * 13) % 500) / 2;
  return data;
}

type Shape = Omit<AggregateQuery, 'scope' | 'max_rows' | 'metric' | 'metric_field'>;

describe('sqlite aggregations kept per block of records', () => {
  let store: Store;
  let ws: Workspace;
  const live = new Map<string, RecordData>();
  const ids: string[] = [];

  beforeAll(async () => {
    store = createSqliteStore({ path: ':memory:' });
    await store.init();
    ws = await store.createWorkspace({
      name: 'blocks',
      objectTypes: [{
        slug: 'items', name: 'Items', fields: [
          { slug: 'name', name: 'Name', type: 'text' },
          { slug: 'stage', name: 'Stage', type: 'select', config: { options: STAGES } },
          { slug: 'amount', name: 'Amount', type: 'number' },
          { slug: 'day', name: 'Day', type: 'date' },
        ],
      }],
    });
    for (let start = 0; start < COUNT; start += 1_000) {
      const batch = Array.from({ length: 1_000 }, (_, k) => dataOf(start + k));
      const batchIds = batch.map(() => newId('record'));
      await store.createRecords(ws.id, batch.map((data, k) => ({ id: batchIds[k], object_type_slug: 'items', data, uniques: [], refs: [], created_by: null, assignee_id: null })));
      batchIds.forEach((id, k) => {
        live.set(id, batch[k]!);
        ids.push(id);
      });
    }
  });
  afterAll(() => store.close());

  const month = new Date().toISOString().slice(0, 7);
  const SHAPES: Array<[string, Shape, (d: RecordData) => string | null]> = [
    ['by stage', { group_by: { field: 'stage', valueKind: 'text' } }, () => null],
    ['by stage and month of creation', { group_by: { field: 'stage', valueKind: 'text' }, time: { field: 'created_at', system: true, bucket: 'month' } }, () => `${month}-01`],
    ['by month of a date field', { time: { field: 'day', system: false, bucket: 'month' } }, (d) => `${String(d.day).slice(0, 7)}-01`],
    ['by stage, amount ≥ 100', { group_by: { field: 'stage', valueKind: 'text' }, filter: num('amount', 'gte', 100) }, () => null],
  ];
  const METRICS: Array<[Metric, string | undefined]> = [['count', undefined], ['count', 'amount'], ['sum', 'amount'], ['avg', 'amount'], ['min', 'amount'], ['max', 'amount']];

  /** The aggregation computed from the live records in memory. */
  function expected(shape: Shape, bucketOf: (d: RecordData) => string | null, metric: Metric, field: string | undefined): AggregateRow[] {
    const groups = new Map<string, { group: string | null; bucket: string | null; count: number; values: number[] }>();
    for (const data of live.values()) {
      if (shape.filter && !(typeof data.amount === 'number' && data.amount >= 100)) continue;
      const group = shape.group_by ? ((data.stage as string | undefined) ?? null) : null;
      const bucket = bucketOf(data);
      const key = JSON.stringify([group, bucket]);
      const entry = groups.get(key) ?? groups.set(key, { group, bucket, count: 0, values: [] }).get(key)!;
      entry.count++;
      if (field && typeof data[field] === 'number') entry.values.push(data[field] as number);
    }
    return [...groups.values()].map(({ group, bucket, count, values }) => {
      const sum = values.reduce((a, b) => a + b, 0);
      const value = !field ? count
        : metric === 'count' ? values.length
          : metric === 'sum' ? sum
            : values.length === 0 ? null
              : metric === 'avg' ? sum / values.length : metric === 'min' ? Math.min(...values) : Math.max(...values);
      return { group, bucket, value, count };
    });
  }

  const order = (rows: AggregateRow[]) => [...rows].sort((x, y) => JSON.stringify([x.group, x.bucket]).localeCompare(JSON.stringify([y.group, y.bucket])));

  async function expectExact(): Promise<void> {
    for (const [label, shape, bucketOf] of SHAPES) {
      for (const [metric, field] of METRICS) {
        const query: AggregateQuery = { ...shape, scope: { object_type_slug: 'items' }, metric, metric_field: field, max_rows: 1_000 };
        expect(order(await store.aggregate(ws.id, query)), `${label}: ${metric}(${field ?? '*'})`).toEqual(order(expected(shape, bucketOf, metric, field)));
      }
    }
  }

  async function update(id: string, data: RecordData): Promise<void> {
    await store.updateRecord(ws.id, id, { data, uniques: [], refs: [] });
    live.set(id, data);
  }

  it('answers exactly, the first time and again unchanged', async () => {
    await expectExact();
    await expectExact();
  });

  it('answers exactly after an update, a delete and a restore in different blocks', async () => {
    await update(ids[10]!, { name: 'moved', stage: 'c', amount: 9_999, day: '2025-12-31' });
    await expectExact();
    await store.softDeleteRecord(ws.id, ids[8_000]!);
    live.delete(ids[8_000]!);
    await expectExact();
    await store.restoreRecord(ws.id, ids[8_000]!, []);
    live.set(ids[8_000]!, dataOf(8_000));
    await expectExact();
  });

  it('answers exactly after creates, and after updates in most blocks', async () => {
    const made = await store.createRecord(ws.id, { object_type_slug: 'items', data: dataOf(1), uniques: [], refs: [], created_by: null, assignee_id: null });
    live.set(made.id, dataOf(1));
    await expectExact();
    for (const i of [5, 4_500, 8_500]) await update(ids[i]!, { name: `u${i}`, stage: 'a', amount: -1, day: '2026-01-01' });
    await expectExact();
  });
});
