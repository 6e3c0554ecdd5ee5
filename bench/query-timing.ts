/**
 * Times the Store's list and search reads straight on a dataset file, without the gateway, for
 * looking at one query at a time: `npx tsx bench/query-timing.ts <crm.sqlite> [runs]`.
 * The file is opened as is (point it at a copy: counts may be cached in a table).
 */
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
await store.close();
