import { afterEach, describe, expect, it } from 'vitest';
import { STANDARD_OBJECT_TYPES } from '../../../src/domain/standard-objects.ts';
import { holdWriteLock, type LockHolder } from '../../support/lock-holder.ts';
import { contact, NEWEST_FIRST } from '../conformance/harness.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * A second process writing to the same file (the CLI while the server runs, or a second server)
 * holds SQLite's write lock for the length of its transaction. A write of ours that comes then
 * waits for the lock (the busy timeout) and goes in after it; it must not fail at once because
 * its transaction had read before it wrote, which SQLite cannot let wait for the lock.
 */
describe('SQLite writes while another process writes', () => {
  let t: TempStore | undefined;
  let holder: LockHolder | undefined;
  afterEach(async () => {
    holder?.kill();
    holder = undefined;
    await t?.cleanup();
    t = undefined;
  });

  it('waits for the lock and keeps every write a Store call makes after reading', async () => {
    t = await tempStore();
    const store = t.store;
    const ws = await store.createWorkspace({ name: 'locked', objectTypes: structuredClone([...STANDARD_OBJECT_TYPES]) });
    const ada = await store.createRecord(ws.id, contact('Ada', 'ada@example.com'));
    const list = await store.createList(ws.id, { object_type_slug: 'contacts', name: 'People', fields: [], created_by: null }, []);

    holder = await holdWriteLock(t.path, ws.id, 300);
    const { released } = holder;
    const writes = await Promise.allSettled([
      store.createRecord(ws.id, contact('Bea', 'bea@example.com')),
      store.updateRecord(ws.id, ada.id, { data: { name: 'Ada L.', email: 'ada@example.com' }, uniques: [{ field: 'email', value: 'ada@example.com' }], refs: [] }),
      store.addListEntries(ws.id, list.id, [{ record_id: ada.id, data: {} }], null, []),
    ]);
    await released;
    expect(writes.map((w) => (w.status === 'rejected' ? (w.reason as Error).message : 'kept'))).toEqual(['kept', 'kept', 'kept']);

    const listed = await store.listRecords(ws.id, { object_type_slug: 'contacts', sort: NEWEST_FIRST, offset: 0, limit: 10 });
    expect(listed.items.map((r) => r.data.name).sort()).toEqual(['Ada L.', 'Bea']);
    expect((await store.listEntries(ws.id, list.id, { sort: NEWEST_FIRST, offset: 0, limit: 10 })).total).toBe(1);
  });

  it('still answers unavailable when the lock is held past the busy timeout', async () => {
    t = await tempStore({ busyTimeoutMs: 100 });
    const store = t.store;
    const ws = await store.createWorkspace({ name: 'locked long', objectTypes: structuredClone([...STANDARD_OBJECT_TYPES]) });
    await store.createRecord(ws.id, contact('Ada', 'ada@example.com'));
    holder = await holdWriteLock(t.path, ws.id, 1500);
    const { released } = holder;
    await expect(store.createRecord(ws.id, contact('Bea', 'bea@example.com'))).rejects.toMatchObject({ code: 'unavailable' });
    await released;
    await expect(store.createRecord(ws.id, contact('Bea', 'bea@example.com'))).resolves.toMatchObject({ data: { name: 'Bea' } });
  });
});
