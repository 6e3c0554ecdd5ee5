import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';
import { applyMigrations, MIGRATIONS } from '../../../src/store/sqlite/migrations.ts';
import { tempStore, type TempStore } from './temp-store.ts';

describe('sqlite schema and connection', () => {
  let t: TempStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('numbers migrations 1, 2, 3, … in order, without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('records every migration once, however often init runs', async () => {
    t = await tempStore();
    await t.store.init();
    await t.store.init();
    const rows = t.raw().prepare('SELECT version FROM schema_migrations ORDER BY version').all();
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
  });

  it('applies only the migrations a database has not seen', () => {
    const db = new Database(':memory:');
    expect(applyMigrations(db, MIGRATIONS.slice(0, 2))).toEqual([1, 2]);
    expect(applyMigrations(db)).toEqual(MIGRATIONS.slice(2).map((m) => m.version));
    expect(applyMigrations(db)).toEqual([]);
    db.close();
  });

  it('keeps the database in WAL mode', async () => {
    t = await tempStore();
    expect(t.raw().pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('keeps the data when the file is opened again', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    await t.store.close();
    const again = createSqliteStore({ path: t.path });
    await again.init();
    expect(await again.getWorkspace(ws.id)).toEqual(ws);
    expect((await again.listObjectTypes(ws.id)).map((o) => o.slug)).toEqual(['companies', 'contacts', 'deals']);
    await again.close();
  });

  it('ships planner statistics for the record tables', async () => {
    t = await tempStore();
    const stats = t.raw().prepare("SELECT idx FROM sqlite_stat1 WHERE tbl IN ('records', 'record_values') ORDER BY idx").all();
    expect(stats.map((row) => (row as { idx: string }).idx)).toEqual(expect.arrayContaining(['record_values_by_num', 'records_live_by_created']));
  });
});
