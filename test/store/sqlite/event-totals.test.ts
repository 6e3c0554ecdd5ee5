import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NewEvent } from '../../../src/domain/store/port-work.ts';
import { Connection } from '../../../src/store/sqlite/connection.ts';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';
import { newRecord } from '../conformance/harness.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * The workspace timeline's total is kept up to date from the events appended since the last read
 * (timeline.ts EventTotals) instead of counting the workspace's whole history on every read. It
 * must stay exactly the count, whoever appends.
 */
describe('workspace timeline totals', () => {
  let t: TempStore;
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.cleanup();
  });

  const created = (id: string): NewEvent => ({
    actor_id: null, key_id: null, via: 'cli', tool: 'test', action: 'create', resource_type: 'record', resource_id: id, record_ids: [id], diff: null,
  });

  async function write(store = t.store, workspaceId: string, n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const id = `rec_${Math.random().toString(36).slice(2, 12)}`;
      await store.createRecord(workspaceId, { ...newRecord('companies', { name: `Co ${i}` }), id }, [created(id)]);
    }
  }

  const counted = (workspaceId: string): number =>
    (t.raw().prepare('SELECT COUNT(*) AS n FROM events WHERE workspace_id = ?').get(workspaceId) as { n: number }).n;
  const total = async (workspaceId: string): Promise<number> => (await t.store.listEvents(workspaceId, { offset: 0, limit: 1 })).total;

  it('equals the count of the workspace events as they are appended, here and by another connection', async () => {
    t = await tempStore();
    const a = await t.workspace();
    const b = await t.workspace();
    expect(await total(a.id)).toBe(counted(a.id));
    await write(t.store, a.id, 3);
    expect(await total(a.id)).toBe(3);
    await write(t.store, b.id, 2);
    await write(t.store, a.id, 1);
    expect(await total(a.id)).toBe(4);
    expect(await total(b.id)).toBe(2);
    // Another process on the same file.
    const other = createSqliteStore({ path: t.path });
    await other.init();
    try {
      await write(other, a.id, 2);
      await write(other, b.id, 5);
    } finally {
      await other.close();
    }
    expect(await total(a.id)).toBe(6);
    expect(await total(b.id)).toBe(7);
    expect(await total(a.id)).toBe(counted(a.id));
    expect(await total(b.id)).toBe(counted(b.id));
  });

  it('reads only the events after the last one it counted, not the whole history', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    await write(t.store, ws.id, 5);
    expect(await total(ws.id)).toBe(5);
    const statements: string[] = [];
    const original = Connection.prototype.get;
    vi.spyOn(Connection.prototype, 'get').mockImplementation(function (this: Connection, sql: string, ...params: never[]) {
      statements.push(sql);
      return original.call(this, sql, ...params);
    } as never);
    await write(t.store, ws.id, 2);
    expect(await total(ws.id)).toBe(7);
    const counts = statements.filter((sql) => /COUNT\(\*\)/.test(sql) && /FROM events/.test(sql));
    expect(counts).toEqual(['SELECT COUNT(*) AS n FROM events WHERE pk > ? AND pk <= ? AND workspace_id = ?']);
  });

  it('keeps the since cursor and per-record timelines exact as before', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    await write(t.store, ws.id, 4);
    const page = await t.store.listEvents(ws.id, { offset: 0, limit: 10 });
    const oldest = page.items.at(-1)!;
    expect((await t.store.listEvents(ws.id, { since: oldest.id, offset: 0, limit: 10 })).total).toBe(3);
    expect((await t.store.listEvents(ws.id, { record_id: oldest.record_ids[0]!, offset: 0, limit: 10 })).total).toBe(1);
  });

  it('refuses to delete or change an event, which the totals count on', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    await write(t.store, ws.id, 1);
    expect(() => t.raw().prepare('DELETE FROM events WHERE workspace_id = ?').run(ws.id)).toThrow(/append-only/);
    expect(() => t.raw().prepare("UPDATE events SET action = 'updated' WHERE workspace_id = ?").run(ws.id)).toThrow(/append-only/);
    expect(counted(ws.id)).toBe(1);
  });
});
