/**
 * Times the value rows of a bulk write alone, as `createRecords` writes them (64 rows a statement,
 * sorted by record-index.ts's byIndexOrder, 5,000 records a transaction, six values a record), in
 * four layouts of the value table and three ways of writing the last, side by side, each on its
 * own fresh file, round after round:
 *
 *   npx tsx bench/value-rows.ts [records=100000] [rounds=3]
 *
 * - `rowid, immediate key`: the layout until migration 30, a rowid table with a per-record index
 *   beside the value indexes, and a foreign key checked by each statement;
 * - `rowid, key at commit, OR FAIL`: the same b-trees, with nothing in the statement that could
 *   ABORT it, so SQLite needs no statement journal;
 * - `clustered, immediate key`: keyed by (record, field, seq) WITHOUT ROWID, no per-record index;
 * - `clustered, key at commit, OR FAIL`: both, the layout of migration 30;
 *
 * and three variants of migration 30's layout, each changing one thing about how it is written:
 *
 * - `... in table order`: the rows sorted by the table's key (record, field) instead of the value
 *   indexes' order, so the table is appended to and the indexes take each row where it falls;
 * - `... no foreign key`: no parent lookup in `records` per row;
 * - `... 20,000 a transaction`: four times the records per transaction (a commit writes each page
 *   it changed once, however many of the transaction's rows it took).
 *
 * Prints the statements' time per layout and round, the pages the value tables fill, and the
 * COMMITs' time. The WAL is checkpointed after each commit, outside the times, as the service's
 * checkpoint thread does it beside the writer (SQLite's own checkpoint would run inside a COMMIT).
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
  /** How the rows are sorted before they are written: the value indexes' order (as createRecords) or the table's. */
  order?: 'index' | 'table';
  /** Whether record_pk references records(pk) (true unless said). */
  foreignKey?: boolean;
  /** Records a transaction (PER_TRANSACTION unless said). */
  perTransaction?: number;
}

const LAYOUTS: readonly Layout[] = [
  { name: 'rowid, immediate key', clustered: false, atCommit: false },
  { name: 'rowid, key at commit, OR FAIL', clustered: false, atCommit: true },
  { name: 'clustered, immediate key', clustered: true, atCommit: false },
  { name: 'clustered, key at commit, OR FAIL', clustered: true, atCommit: true },
  { name: '... in table order', clustered: true, atCommit: true, order: 'table' },
  { name: '... no foreign key', clustered: true, atCommit: true, foreignKey: false },
  { name: '... 20,000 a transaction', clustered: true, atCommit: true, perTransaction: 20_000 },
];

const FIELDS = ['name', 'stage', 'amount', 'email', 'city', 'owner'] as const;
const PER_STATEMENT = 64;
const PER_TRANSACTION = 5_000;

function schema(layout: Layout): string {
  const key = layout.foreignKey === false ? '' : `REFERENCES records(pk)${layout.atCommit ? ' DEFERRABLE INITIALLY DEFERRED' : ''}`;
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

/** Orders value rows by the clustered table's key: record, then field (one value a field here, so seq is 0). */
function byTableOrder(a: ValueRow, b: ValueRow): number {
  return a[0] - b[0] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
}

function run(layout: Layout, records: number, seed: number): { ms: number; pages: number; commitMs: number } {
  const dir = mkdtempSync(join(tmpdir(), 'crm-value-rows-'));
  const db = new Database(join(dir, 'values.sqlite'));
  try {
    for (const pragma of ['journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON', 'cache_size = -65536', 'temp_store = MEMORY', 'wal_autocheckpoint = 0']) db.pragma(pragma);
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
    let commitNs = 0n;
    const perTransaction = layout.perTransaction ?? PER_TRANSACTION;
    for (let done = 0; done < records; done += perTransaction) {
      const rows: ValueRow[] = [];
      db.exec('BEGIN');
      for (let i = 0; i < Math.min(perTransaction, records - done); i++) {
        record.run(++pk, '{}');
        for (const field of FIELDS) rows.push(field === 'amount' ? [pk, 1, field, 0, null, Math.floor(next() * 1e6)] : [pk, 1, field, 0, `v${Math.floor(next() * 1e5)}`, null]);
      }
      rows.sort(layout.order === 'table' ? byTableOrder : byIndexOrder);
      const started = process.hrtime.bigint();
      for (let at = 0; at + PER_STATEMENT <= rows.length; at += PER_STATEMENT) {
        for (let i = 0; i < PER_STATEMENT; i++) for (let j = 0; j < take.length; j++) params[take.length * i + j] = rows[at + i]![take[j]!]!;
        many.run(...params);
      }
      const committing = process.hrtime.bigint();
      ns += committing - started;
      db.exec('COMMIT');
      commitNs += process.hrtime.bigint() - committing;
      db.pragma('wal_checkpoint(PASSIVE)');
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pages = db.prepare("SELECT COUNT(*) FROM dbstat WHERE name LIKE 'record_values%'").pluck().get() as number;
    return { ms: Number(ns) / 1e6, pages, commitMs: Number(commitNs) / 1e6 };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const [recordsArg = '100000', roundsArg = '3'] = process.argv.slice(2);
const records = Number(recordsArg);
const rounds = Number(roundsArg);
if (!(records >= PER_STATEMENT) || !(rounds >= 1)) throw new Error('usage: value-rows.ts [records >= 64] [rounds >= 1]');
console.log(`${records.toLocaleString('en')} records, ${FIELDS.length} value rows each, ${PER_STATEMENT} rows a statement; statement time in ms (value-table pages; COMMITs' time in ms)`);
const times = new Map<string, number[]>(LAYOUTS.map((layout) => [layout.name, []]));
for (let round = 0; round < rounds; round++) {
  const line: string[] = [];
  for (const layout of LAYOUTS) {
    const { ms, pages, commitMs } = run(layout, records, 7 + round);
    times.get(layout.name)!.push(ms);
    line.push(`${layout.name}: ${ms.toFixed(0)} (${pages.toLocaleString('en')}; ${commitMs.toFixed(0)})`);
  }
  console.log(`round ${round + 1}\n  ${line.join('\n  ')}`);
}
const mean = (xs: number[]): number => xs.reduce((sum, x) => sum + x, 0) / xs.length;
const base = mean(times.get(LAYOUTS[0]!.name)!);
for (const layout of LAYOUTS) console.log(`${layout.name.padEnd(36)} ${(mean(times.get(layout.name)!) / base).toFixed(2)}× the first layout's time`);
