import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';
import { newRecord } from '../conformance/harness.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * A single record write leaves its search rows behind: it names the record in `search_pending`,
 * and a catch-up writes the rows of every named record in one transaction, before any search and
 * otherwise shortly after (record-index.ts, catchUpSearch). These pin both halves: the write
 * leaves the index alone, and no search ever misses or shows a write.
 */
describe('search rows written behind', () => {
  let t: TempStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  const count = (sql: string, ...params: unknown[]) => (t!.raw().prepare(sql).get(...params) as { n: number }).n;
  const pending = () => count('SELECT COUNT(*) AS n FROM search_pending');
  const indexed = (id: string) => count('SELECT COUNT(*) AS n FROM records_fts f JOIN records r ON r.pk = f.rowid WHERE r.id = ?', id);
  const found = async (workspaceId: string, text: string) =>
    (await t!.store.searchRecords(workspaceId, { text, offset: 0, limit: 10 })).items.map((record) => record.id);

  it('leaves the index to the catch-up, and every search sees every write before it', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    const one = await t.store.createRecord(ws.id, newRecord('companies', { name: 'Quokka Tools' }));
    expect(pending()).toBe(1);
    expect(indexed(one.id)).toBe(0);
    expect(await found(ws.id, 'quokka')).toEqual([one.id]);
    expect(pending()).toBe(0);
    expect(indexed(one.id)).toBe(1);

    await t.store.updateRecord(ws.id, one.id, { data: { name: 'Wombat Tools' }, uniques: [], refs: [] });
    expect(pending()).toBe(1);
    expect(await found(ws.id, 'quokka')).toEqual([]);
    expect(await found(ws.id, 'wombat')).toEqual([one.id]);
    await t.store.softDeleteRecord(ws.id, one.id);
    expect(await found(ws.id, 'wombat')).toEqual([]);
    expect(indexed(one.id)).toBe(0);
    await t.store.restoreRecord(ws.id, one.id, []);
    expect(await found(ws.id, 'wombat')).toEqual([one.id]);

    // Several writes of one record between searches: one name, and the rows of its last state.
    const two = await t.store.createRecord(ws.id, newRecord('companies', { name: 'Numbat first' }));
    await t.store.updateRecord(ws.id, two.id, { data: { name: 'Numbat second' }, uniques: [], refs: [] });
    await t.store.updateRecord(ws.id, two.id, { data: { name: 'Numbat third' }, uniques: [], refs: [] });
    expect(pending()).toBe(1);
    expect(await found(ws.id, 'numbat third')).toEqual([two.id]);
    expect(await found(ws.id, 'second')).toEqual([]);
    expect(count('SELECT COUNT(*) AS n FROM search_docs')).toBe(2);
  });

  it('writes the rows soon after a write, with no search to ask for them', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    const records = [];
    for (let i = 0; i < 5; i++) records.push(await t.store.createRecord(ws.id, newRecord('contacts', { name: `Person ${i}` })));
    expect(pending()).toBe(5);
    await vi.waitFor(() => expect(pending()).toBe(0), { timeout: 5000, interval: 20 });
    for (const record of records) expect(indexed(record.id)).toBe(1);
  });

  it('takes the name back with a write that rolls back', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    await t.store.createRecord(ws.id, newRecord('companies', { name: 'Acme', domain: 'acme.example' }, { uniques: [{ field: 'domain', value: 'acme.example' }] }));
    await t.searched(ws.id);
    await expect(t.store.createRecord(ws.id, newRecord('companies', { name: 'Acme again', domain: 'acme.example' }, { uniques: [{ field: 'domain', value: 'acme.example' }] })))
      .rejects.toMatchObject({ code: 'conflict' });
    expect(pending()).toBe(0);
    expect(await found(ws.id, 'again')).toEqual([]);
  });

  it('keeps the names across a restart: a store closed before its catch-up finds the records when opened again', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    const one = await t.store.createRecord(ws.id, newRecord('companies', { name: 'Bilby Works' }));
    await t.store.close();
    const reopened = createSqliteStore({ path: t.path });
    try {
      await reopened.init();
      expect(pending()).toBe(1);
      expect((await reopened.searchRecords(ws.id, { text: 'bilby', offset: 0, limit: 10 })).items.map((record) => record.id)).toEqual([one.id]);
      expect(pending()).toBe(0);
    } finally {
      await reopened.close();
    }
  });
});
