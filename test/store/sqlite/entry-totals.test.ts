import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/domain/store/port.ts';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';
import { newRecord, sortBy } from '../conformance/harness.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * Cached totals of list entries (count-cache.ts, migration 17) are keyed by versions that
 * triggers move, so writes through another connection to the same file (the CLI, another
 * process) make the next listing count again, as the conformance suite checks for one connection.
 */
describe('SQLite entry totals', () => {
  let t: TempStore;
  const others: Store[] = [];
  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
    await t.cleanup();
  });

  it('follows entry writes and record deletes made through another connection', async () => {
    t = await tempStore();
    const other = createSqliteStore({ path: t.path });
    await other.init();
    others.push(other);
    const ws = await t.workspace();
    const list = await t.store.createList(ws.id, { object_type_slug: 'deals', name: 'Pipeline', description: null, fields: [], created_by: null }, []);
    const [a, b] = [await t.store.createRecord(ws.id, newRecord('deals', { name: 'A' })), await t.store.createRecord(ws.id, newRecord('deals', { name: 'B' }))];
    await t.store.addListEntries(ws.id, list.id, [{ record_id: a.id, data: {} }], null, []);
    const total = async () => (await t.store.listEntries(ws.id, list.id, { sort: sortBy('record_id', true, 'text', true), offset: 0, limit: 10 })).total;
    expect(await total()).toBe(1);
    await other.addListEntries(ws.id, list.id, [{ record_id: b.id, data: {} }], null, []);
    expect(await total()).toBe(2);
    await other.softDeleteRecord(ws.id, a.id);
    expect(await total()).toBe(1);
  });
});
