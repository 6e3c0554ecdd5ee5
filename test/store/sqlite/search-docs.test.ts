import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../../src/store/sqlite/migrations.ts';
import { newRecord } from '../conformance/harness.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/** `search_docs` as it stands, and as it must be: one row per record in the index, with its type, id and FTS5's word count. */
function docs(db: Database.Database) {
  return {
    kept: db.prepare('SELECT pk, object_type_pk, id, hex(sz) AS sz FROM search_docs ORDER BY pk').all(),
    due: db.prepare(`SELECT r.pk, r.object_type_pk, r.id, hex(d.sz) AS sz FROM records_fts_docsize d JOIN records r ON r.pk = d.id
                     ORDER BY r.pk`).all(),
    dead: db.prepare('SELECT s.id FROM search_docs s JOIN records r ON r.pk = s.pk WHERE r.deleted_at IS NOT NULL').all(),
  };
}

/** After a search has written the rows single writes leave behind (temp-store.ts, searched). */
async function expectInStep(t: TempStore, workspaceId: string, rows: number): Promise<void> {
  await t.searched(workspaceId);
  const { kept, due, dead } = docs(t.raw());
  expect(kept).toEqual(due);
  expect(kept).toHaveLength(rows);
  expect(dead).toEqual([]);
}

describe('search documents', () => {
  let t: TempStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('keeps one row per record in the search index through every write path', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    const db = t.raw();
    const one = await t.store.createRecord(ws.id, newRecord('companies', { name: 'Acme Rockets', description: 'anvils' }));
    await expectInStep(t, ws.id, 1);
    await t.store.createRecords(ws.id, [
      newRecord('contacts', { name: 'Ada Lovelace' }),
      newRecord('deals', { name: 'Big one' }),
      // Nothing searchable: no text in the index, so no row.
      newRecord('companies', {}),
    ]);
    await expectInStep(t, ws.id, 3);
    // A longer text is a larger word count.
    const before = docs(db).kept.find((row) => (row as { id: string }).id === one.id);
    await t.store.updateRecord(ws.id, one.id, { data: { name: 'Acme Rockets and Sons', description: 'anvils, springs and magnets' }, uniques: [], refs: [] });
    await expectInStep(t, ws.id, 3);
    expect(docs(db).kept.find((row) => (row as { id: string }).id === one.id)).not.toEqual(before);
    // Text removed: out of the index, out of the table; back again with text.
    await t.store.updateRecord(ws.id, one.id, { data: {}, uniques: [], refs: [] });
    await expectInStep(t, ws.id, 2);
    await t.store.updateRecord(ws.id, one.id, { data: { name: 'Acme' }, uniques: [], refs: [] });
    await expectInStep(t, ws.id, 3);
    await t.store.softDeleteRecord(ws.id, one.id);
    await expectInStep(t, ws.id, 2);
    await t.store.restoreRecord(ws.id, one.id, []);
    await expectInStep(t, ws.id, 3);
  });

  it('is filled from the index by its migration', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    await t.store.createRecords(ws.id, [
      newRecord('companies', { name: 'Acme Rockets' }),
      newRecord('contacts', { name: 'Ada Lovelace', job_title: 'Analyst of engines' }),
      newRecord('contacts', { name: 'Gone' }),
    ]);
    const gone = (await t.store.searchRecords(ws.id, { text: 'gone', offset: 0, limit: 1 })).items[0]!;
    await t.store.softDeleteRecord(ws.id, gone.id);
    await t.searched(ws.id);
    const db = t.raw();
    const built = docs(db).kept;
    expect(built).toHaveLength(2);
    db.exec(`DROP TABLE search_docs; DELETE FROM schema_migrations WHERE name = 'search documents'`);
    applyMigrations(db);
    expect(docs(db).kept).toEqual(built);
    await expectInStep(t, ws.id, 2);
  });
});
