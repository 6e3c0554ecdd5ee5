import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Checkpointer } from '../../../src/store/sqlite/checkpointer.ts';
import { tempStore, type TempStore } from './temp-store.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sqlite WAL checkpoints', () => {
  let t: TempStore | undefined;
  afterEach(async () => t?.cleanup());

  it('copies committed writes into the database file in the background, not in the writing call', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    const before = statSync(t.path).size;
    await t.store.createRecords(ws.id, Array.from({ length: 300 }, (_, i) => ({
      object_type_slug: 'companies', data: { name: `Company ${i}`, description: 'x'.repeat(500) }, uniques: [], refs: [], created_by: null, assignee_id: null,
    })));
    // 300 records fill far fewer than the 1000 WAL pages after which a commit would checkpoint
    // by itself, so only the background thread can have copied them into the file.
    let grown = false;
    for (let i = 0; i < 40 && !grown; i++) {
      await sleep(100);
      grown = statSync(t.path).size > before;
    }
    expect(grown).toBe(true);
  });
});

describe('sqlite WAL size', () => {
  it('empties a large WAL once it has been copied, so steady writes do not grow the file for ever', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crm-wal-'));
    const db = new Database(join(dir, 'wal.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (v TEXT)');
    const checkpointer = new Checkpointer(db, 1000, 64);
    try {
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      // Back-to-back commits: between two of them there is rarely a moment when the WAL is
      // copied entirely, so SQLite alone would never start it over.
      for (let batch = 0; batch < 20; batch++) db.transaction(() => { for (let i = 0; i < 50; i++) insert.run('x'.repeat(2000)); })();
      const wal = join(dir, 'wal.sqlite-wal');
      expect(statSync(wal).size).toBeGreaterThan(64 * 4096);
      let emptied = false;
      for (let i = 0; i < 50 && !emptied; i++) {
        await sleep(100);
        emptied = statSync(wal).size === 0;
      }
      expect(emptied).toBe(true);
      expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 1000 });
    } finally {
      checkpointer.stop();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
