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

  it('keeps every value row when the value tables are clustered by their item', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = OFF');
    const clustered = MIGRATIONS.findIndex((m) => m.name === 'value rows clustered by their item');
    applyMigrations(db, MIGRATIONS.slice(0, clustered));
    // As the rowid tables held them: an array field's elements, a field with text and a number,
    // single values, and rows of two items interleaved.
    const before: Array<[number, number, string, string | null, number | null]> = [
      [1, 7, 'tags', 'b', null], [2, 7, 'name', 'Ada', null], [1, 7, 'tags', 'a', null], [1, 7, 'mixed', 'x', null],
      [1, 7, 'mixed', null, 3], [2, 7, 'amount', null, 12.5], [1, 7, 'tags', 'c', null],
    ];
    const records = db.prepare('INSERT INTO record_values (record_pk, object_type_pk, field, v_text, v_num) VALUES (?, ?, ?, ?, ?)');
    const entries = db.prepare('INSERT INTO entry_values (entry_pk, list_pk, field, v_text, v_num) VALUES (?, ?, ?, ?, ?)');
    for (const row of before) {
      records.run(...row);
      entries.run(...row);
    }
    applyMigrations(db);
    for (const [table, item, scope] of [['record_values', 'record_pk', 'object_type_pk'], ['entry_values', 'entry_pk', 'list_pk']] as const) {
      const rows = db.prepare(`SELECT ${item}, ${scope}, field, v_text, v_num FROM ${table} ORDER BY 1, 3, seq`).raw().all();
      // Each field's values numbered 0, 1, … in the order they were written.
      expect(rows).toEqual([
        [1, 7, 'mixed', 'x', null], [1, 7, 'mixed', null, 3], [1, 7, 'tags', 'b', null], [1, 7, 'tags', 'a', null],
        [1, 7, 'tags', 'c', null], [2, 7, 'amount', null, 12.5], [2, 7, 'name', 'Ada', null],
      ]);
      expect(db.prepare(`SELECT seq FROM ${table} WHERE field = 'tags' ORDER BY seq`).pluck().all()).toEqual([0, 1, 2]);
      const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT v_num FROM ${table} WHERE ${item} = 1 AND field = 'mixed'`).all();
      expect((plan as Array<{ detail: string }>).map((row) => row.detail)).toEqual([`SEARCH ${table} USING PRIMARY KEY (${item}=? AND field=?)`]);
    }
    const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('record_values', 'entry_values') ORDER BY name").pluck().all();
    // The per-item indexes are gone: the tables' own keys serve per-item reads.
    expect(indexes).toEqual(['entry_values_by_num', 'entry_values_by_text', 'record_values_by_num', 'record_values_by_text']);
    expect(db.prepare("SELECT name, wr FROM pragma_table_list WHERE name IN ('record_values', 'entry_values') ORDER BY name").raw().all())
      .toEqual([['entry_values', 1], ['record_values', 1]]);
    // The item key is still a foreign key, checked when the transaction commits.
    db.pragma('foreign_keys = ON');
    const orphan = db.transaction(() => db.prepare("INSERT INTO record_values (record_pk, field, seq, object_type_pk, v_text) VALUES (999, 'name', 0, 7, 'x')").run());
    expect(() => orphan()).toThrow(/FOREIGN KEY constraint failed/);
    expect(db.prepare('SELECT COUNT(*) FROM record_values WHERE record_pk = 999').pluck().get()).toBe(0);
    db.close();
  });

  it('reads a plan stored as "none" as no plan', () => {
    const db = new Database(':memory:');
    applyMigrations(db, MIGRATIONS.filter((m) => m.name !== 'plan none is no plan'));
    const ws = db.prepare("INSERT INTO workspaces (id, name, plan, trial_ends_at, created_at, updated_at) VALUES (?, 'W', ?, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')");
    ws.run('ws_1', ' None\n');
    ws.run('ws_2', 'pro');
    ws.run('ws_3', null);
    applyMigrations(db);
    expect(db.prepare('SELECT id, plan FROM workspaces ORDER BY id').raw().all()).toEqual([['ws_1', null], ['ws_2', 'pro'], ['ws_3', null]]);
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
