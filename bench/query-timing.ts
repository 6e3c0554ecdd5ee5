/**
 * Times the Store's list, search and aggregation reads straight on a dataset file, without the
 * gateway, for looking at one query at a time: `npx tsx bench/query-timing.ts <crm.sqlite> [runs]`.
 * The file is opened as is (point it at a copy: migrations apply, and the miss cases write).
 * Aggregations are timed three times: read again unchanged (kept per block of records), after one
 * record write each run (one block read again), and after a write in every block (all read again).
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
  console.log(`${label.padEnd(60)} min ${ms[0]!.toFixed(2)} p50 ${ms[Math.floor(runs / 2)]!.toFixed(2)} max ${ms[runs - 1]!.toFixed(2)} ms`);
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
// Another connection moves write versions as record writes would, without changing any answer:
// of one block of deals (one record written), or of every block (as good as never read before).
const writer = new Database(path);
const deals = (await store.getObjectType(ws, 'deals'))!;
const dealsPk = (writer.prepare('SELECT pk FROM object_types WHERE id = ?').get(deals.id) as { pk: number }).pk;
const touchOne = writer.prepare('UPDATE record_block_versions SET version = version + 1 WHERE object_type_pk = ? AND block = ?');
const touchAll = writer.prepare('UPDATE record_block_versions SET version = version + 1 WHERE object_type_pk = ?');
const blocks = (writer.prepare('SELECT block FROM record_block_versions WHERE object_type_pk = ?').all(dealsPk) as Array<{ block: number }>).map((b) => b.block);
let written = 0;
for (const [label, query] of AGGREGATES) {
  await time(`${label}, unchanged`, () => store.aggregate(ws, query));
  await time(`${label}, after a record write`, () => {
    touchOne.run(dealsPk, blocks[written++ % blocks.length]!);
    return store.aggregate(ws, query);
  });
  await time(`${label}, every block written`, () => {
    touchAll.run(dealsPk);
    return store.aggregate(ws, query);
  });
}
writer.close();
await store.close();
