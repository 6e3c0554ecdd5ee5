/**
 * Times the value rows of a bulk write alone, as `createRecords` writes them (64 rows a statement,
 * sorted by record-index.ts's byIndexOrder, 5,000 records a transaction, six values a record), in
 * four layouts of the value table side by side, each on its own fresh file, round after round:
 *
 *   npx tsx bench/value-rows.ts [records=100000] [rounds=3]
 *
 * - `rowid, immediate key`: the layout until migration 30, a rowid table with a per-record index
 *   beside the value indexes, and a foreign key checked by each statement;
 * - `rowid, key at commit, OR FAIL`: the same b-trees, with nothing in the statement that could
 *   ABORT it, so SQLite needs no statement journal;
 * - `clustered, immediate key`: keyed by (record, field, seq) WITHOUT ROWID, no per-record index;
 * - `clustered, key at commit, OR FAIL`: both, the layout of migration 30.
 *
 * Prints the statements' time per layout and round, and the pages the value tables fill.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { byIndexOrder, type ValueRow } from '../src/store/sqlite/record-index.ts';

interface Layout {
  name: string;
  clustered: boolean;
  atCommit: boolean;
}

const LAYOUTS: readonly Layout[] = [
  { name: 'rowid, immediate key', clustered: false, atCommit: false },
  { name: 'rowid, key at commit, OR FAIL', clustered: false, atCommit: true },
  { name: 'clustered, immediate key', clustered: true, atCommit: false },
  { name: 'clustered, key at commit, OR FAIL', clustered: true, atCommit: true },
];

const FIELDS = ['name', 'stage', 'amount', 'email', 'city', 'owner'] as const;
const PER_STATEMENT = 64;
const PER_TRANSACTION = 5_000;

function schema(layout: Layout): string {
  const key = `REFERENCES records(pk)${layout.atCommit ? ' DEFERRABLE INITIALLY DEFERRED' : ''}`;
  const table = layout.clustered
    ? `CREATE TABLE record_values (record_pk INTEGER NOT NULL ${key}, field TEXT NOT NULL, seq INTEGER NOT NULL,
         object_type_pk INTEGER NOT NULL, v_text TEXT, v_num REAL, PRIMARY KEY (record_pk, field, seq)) WITHOUT ROWID;`
    : `CREATE TABLE record_values (record_pk INTEGER NOT NULL ${key}, object_type_pk INTEGER NOT NULL, field TEXT NOT NULL,
         v_text TEXT, v_num REAL);
       CREATE INDEX record_values_by_record ON record_values(record_pk, field, v_text, v_num);`;
  return `CREATE TABLE records (pk INTEGER PRIMARY KEY, data TEXT NOT NULL);
    ${table}
    CREATE INDEX record_values_by_text ON record_values(object_type_pk, field, v_text, record_pk) WHERE v_text IS NOT NULL;
    CREATE INDEX record_values_by_num ON record_values(object_type_pk, field, v_num, record_pk) WHERE v_num IS NOT NULL;`;
}

/** The same pseudo-random values for every layout of a round. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

function run(layout: Layout, records: number, seed: number): { ms: number; pages: number } {
  const dir = mkdtempSync(join(tmpdir(), 'crm-value-rows-'));
  const db = new Database(join(dir, 'values.sqlite'));
  try {
    for (const pragma of ['journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON', 'cache_size = -65536', 'temp_store = MEMORY']) db.pragma(pragma);
    db.exec(schema(layout));
    // The rowid layout has no seq column: its rows skip that element.
    const columns = layout.clustered ? ['record_pk', 'object_type_pk', 'field', 'seq', 'v_text', 'v_num'] : ['record_pk', 'object_type_pk', 'field', 'v_text', 'v_num'];
    const take = layout.clustered ? [0, 1, 2, 3, 4, 5] : [0, 1, 2, 4, 5];
    const row = `(${columns.map(() => '?').join(', ')})`;
    const many = db.prepare(`INSERT${layout.atCommit ? ' OR FAIL' : ''} INTO record_values (${columns.join(', ')}) VALUES ${Array(PER_STATEMENT).fill(row).join(', ')}`);
    const record = db.prepare('INSERT INTO records (pk, data) VALUES (?, ?)');
    const next = random(seed);
    const params: Array<string | number | null> = new Array(take.length * PER_STATEMENT);
    let pk = 0;
    let ns = 0n;
    for (let done = 0; done < records; done += PER_TRANSACTION) {
      const rows: ValueRow[] = [];
      db.exec('BEGIN');
      for (let i = 0; i < Math.min(PER_TRANSACTION, records - done); i++) {
        record.run(++pk, '{}');
        for (const field of FIELDS) rows.push(field === 'amount' ? [pk, 1, field, 0, null, Math.floor(next() * 1e6)] : [pk, 1, field, 0, `v${Math.floor(next() * 1e5)}`, null]);
      }
      rows.sort(byIndexOrder);
      const started = process.hrtime.bigint();
      for (let at = 0; at + PER_STATEMENT <= rows.length; at += PER_STATEMENT) {
        for (let i = 0; i < PER_STATEMENT; i++) for (let j = 0; j < take.length; j++) params[take.length * i + j] = rows[at + i]![take[j]!]!;
        many.run(...params);
      }
      ns += process.hrtime.bigint() - started;
      db.exec('COMMIT');
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pages = db.prepare("SELECT COUNT(*) FROM dbstat WHERE name LIKE 'record_values%'").pluck().get() as number;
    return { ms: Number(ns) / 1e6, pages };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const [recordsArg = '100000', roundsArg = '3'] = process.argv.slice(2);
const records = Number(recordsArg);
const rounds = Number(roundsArg);
if (!(records >= PER_STATEMENT) || !(rounds >= 1)) throw new Error('usage: value-rows.ts [records >= 64] [rounds >= 1]');
console.log(`${records.toLocaleString('en')} records, ${FIELDS.length} value rows each, ${PER_STATEMENT} rows a statement; statement time in ms (value-table pages)`);
const times = new Map<string, number[]>(LAYOUTS.map((layout) => [layout.name, []]));
for (let round = 0; round < rounds; round++) {
  const line: string[] = [];
  for (const layout of LAYOUTS) {
    const { ms, pages } = run(layout, records, 7 + round);
    times.get(layout.name)!.push(ms);
    line.push(`${layout.name}: ${ms.toFixed(0)} (${pages.toLocaleString('en')})`);
  }
  console.log(`round ${round + 1}  ${line.join('  ')}`);
}
const mean = (xs: number[]): number => xs.reduce((sum, x) => sum + x, 0) / xs.length;
const base = mean(times.get(LAYOUTS[0]!.name)!);
for (const layout of LAYOUTS) console.log(`${layout.name.padEnd(36)} ${(mean(times.get(layout.name)!) / base).toFixed(2)}× the first layout's time`);
