/**
 * Which b-trees a write touches, and how often: runs a bench write case in-process (the tool path
 * every call style shares) on a copy of a cached dataset and reads the WAL frames those calls
 * appended, grouped by the table or index that owns each page.
 *   npx tsx bench/write-pages.ts <dataset dir, e.g. bench/.data/100000-…> [calls=200] [case=records.create]
 * "frames" is what the calls wrote to the WAL (every page a transaction changed, once per
 * transaction: the write cost on the serving thread); "distinct" is the pages behind them (what a
 * checkpoint copies back into the file, at most once each however often they were rewritten).
 * A read transaction is held open on a second connection while the calls run, so the checkpoint
 * thread cannot copy those frames back and start the WAL over before they are counted. Work the
 * calls leave for later (a store may write search rows behind) is counted too: one search after
 * the calls does any.
 */
import { closeSync, cpSync, fstatSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { authenticate } from '../gateway/auth/principal.ts';
import { invokeTool } from '../gateway/tools/invoke.ts';
import { createSqliteStore } from '../src/store/sqlite/index.ts';
import { CASES, Sampler, caseName } from './lib/cases.ts';
import type { Dataset } from './lib/dataset.ts';

const [source, callsArg = '200', caseArg = 'records.create'] = process.argv.slice(2);
const calls = Number(callsArg);
const bench = CASES.find((c) => caseName(c) === caseArg && c.writes);
if (!source || !(calls > 0) || !bench) {
  console.error(`usage: npx tsx bench/write-pages.ts <dataset dir> [calls] [case: ${CASES.filter((c) => c.writes).map(caseName).join(' | ')}]`);
  process.exit(2);
}

/** The page number of every frame in a WAL file, in the order written. */
function walFrames(path: string): number[] {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const header = Buffer.alloc(32);
    if (readSync(fd, header, 0, 32, 0) < 32) return [];
    const pageSize = header.readUInt32BE(8);
    const frameHeader = Buffer.alloc(24);
    const pages: number[] = [];
    for (let at = 32; at + 24 + pageSize <= size; at += 24 + pageSize) {
      readSync(fd, frameHeader, 0, 24, at);
      pages.push(frameHeader.readUInt32BE(0));
    }
    return pages;
  } finally {
    closeSync(fd);
  }
}

const meta = JSON.parse(readFileSync(join(source, 'meta.json'), 'utf8')) as Dataset;
const dir = mkdtempSync(join(tmpdir(), 'crm-pages-'));
try {
  const path = join(dir, 'crm.sqlite');
  cpSync(join(source, 'crm.sqlite'), path);
  const store = createSqliteStore({ path });
  await store.init();
  const principal = await authenticate(store, `Bearer ${meta.key}`, meta.key.split('_')[0]!);
  const sampler = new Sampler(meta.sample);
  const call = () => invokeTool(store, principal, 'rest', bench.tool, bench.params(sampler));
  // Work a write leaves for later is done by the next search at the latest.
  const search = () => invokeTool(store, principal, 'rest', 'records.search', { query: 'zzzz', page_size: 1 });
  // A few calls first (statements prepared, caches filled, the WAL begun), with what they leave done.
  for (let i = 0; i < 20; i++) await call();
  await search();
  const pin = new Database(path, { readonly: true });
  pin.prepare('BEGIN').run();
  pin.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get();
  const before = walFrames(`${path}-wal`).length;
  for (let i = 0; i < calls; i++) await call();
  const written = walFrames(`${path}-wal`).length - before;
  // What the calls left for later, counted too.
  await search();
  const frames = walFrames(`${path}-wal`).slice(before);
  pin.prepare('COMMIT').run();
  pin.close();
  await store.close();

  const db = new Database(path, { readonly: true });
  const owner = new Map<number, string>();
  for (const row of db.prepare('SELECT name, pageno FROM dbstat').iterate() as Iterable<{ name: string; pageno: number }>) owner.set(row.pageno, row.name);
  db.close();
  const byOwner = new Map<string, { frames: number; pages: Set<number> }>();
  for (const page of frames) {
    const name = owner.get(page) ?? '(freed since)';
    const entry = byOwner.get(name) ?? { frames: 0, pages: new Set<number>() };
    entry.frames++;
    entry.pages.add(page);
    byOwner.set(name, entry);
  }
  const per = (n: number): string => (n / calls).toFixed(2).padStart(6);
  console.log(`${calls} × ${caseName(bench)} on ${meta.size.toLocaleString('en')} records: ${per(frames.length).trim()} frames and ${per(new Set(frames).size).trim()} distinct pages per call`);
  console.log(`  (${per(written).trim()} frames per call in the calls' own transactions, ${per(frames.length - written).trim()} in the catch-up after them)`);
  console.log(`${'frames'.padStart(6)} ${'pages'.padStart(6)}  table or index (per call)`);
  for (const [name, entry] of [...byOwner].sort((a, b) => b[1].frames - a[1].frames)) console.log(`${per(entry.frames)} ${per(entry.pages.size)}  ${name}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
