/**
 * Times the Store's list, search and aggregation reads straight on a dataset file, without the
 * gateway, for looking at one query at a time: `npx tsx bench/query-timing.ts <crm.sqlite> [runs]`.
 * The file is opened as is (point it at a copy: migrations apply, and the miss cases write).
 * Aggregations are timed twice: read again unchanged (served from the write-version cache), and
 * after a write of the object type each run (computed in SQL every time).
 */
import Database from 'better-sqlite3';
import type { AggregateQuery } from '../src/domain/reports/types.ts';
import { parseFilter, parseSort } from '../src/domain/filters.ts';
import { createSqliteStore } from '../src/store/sqlite/index.ts';

const [path, runsArg = '20'] = process.argv.slice(2);
if (!path) throw new Error('usage: query-timing.ts <crm.sqlite> [runs]');
const store = createSqliteStore({ path });
await store.init();
const ws = (await store.listWorkspaces())[0]!.id;

const LISTS: Array<[string, string, unknown, string, boolean]> = [
  ['deals', 'stage in 2, amount ≥ 10k, amount desc', { stage: { in: ['proposal', 'negotiation'] }, amount: { gte: 10_000 } }, 'amount', false],
  ['deals', 'close_date ≥ 2026-01-01, close_date asc', { close_date: { gte: '2026-01-01' } }, 'close_date', true],
  ['companies', 'industry = software, employee_count desc', { industry: 'software' }, 'employee_count', false],
  ['contacts', 'job_title contains "manager", name asc', { job_title: { contains: 'manager' } }, 'name', true],
  ['deals', 'no filter, created_at desc', undefined, 'created_at', false],
];

async function time(label: string, run: () => Promise<unknown>): Promise<void> {
  const runs = Number(runsArg);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label.padEnd(60)} first ${ms[0]!.toFixed(2)} p50 ${ms[Math.floor(runs / 2)]!.toFixed(2)} max ${ms[runs - 1]!.toFixed(2)} ms`);
}

for (const [slug, label, filters, sortField, ascending] of LISTS) {
  const type = (await store.getObjectType(ws, slug))!;
  const filter = parseFilter(type, filters);
  const sort = parseSort(type, sortField, ascending);
  let page = 0;
  await time(`${slug}: ${label}`, () => store.listRecords(ws, { object_type_slug: slug, filter, sort, offset: (page++ % 4) * 25, limit: 25 }));
}
for (const text of ['anna', 'acme corp', 'smith']) {
  await time(`search "${text}"`, () => store.searchRecords(ws, { text, offset: 0, limit: 25 }));
}
// The bench's reports.run case (deals: sum of amount by stage and month of creation) and
// analytics.pipeline (deals: count and sum of amount by stage).
const AGGREGATES: Array<[string, AggregateQuery]> = [
  ['reports.run: deals sum(amount) by stage × month', {
    scope: { object_type_slug: 'deals' }, metric: 'sum', metric_field: 'amount', group_by: { field: 'stage', valueKind: 'text' },
    time: { field: 'created_at', system: true, bucket: 'month' }, max_rows: 10_001,
  }],
  ['analytics.pipeline: deals sum(amount) by stage', {
    scope: { object_type_slug: 'deals' }, metric: 'sum', metric_field: 'amount', group_by: { field: 'stage', valueKind: 'text' }, max_rows: 10_010,
  }],
];
// Another connection moves the write version as a record write would, without changing any answer.
const writer = new Database(path);
const deals = (await store.getObjectType(ws, 'deals'))!;
const dealsPk = (writer.prepare('SELECT pk FROM object_types WHERE id = ?').get(deals.id) as { pk: number }).pk;
const bump = writer.prepare('UPDATE record_versions SET version = version + 1 WHERE object_type_pk = ?');
for (const [label, query] of AGGREGATES) {
  await time(`${label}, unchanged`, () => store.aggregate(ws, query));
  await time(`${label}, after a write`, () => {
    bump.run(dealsPk);
    return store.aggregate(ws, query);
  });
}
writer.close();
await store.close();
