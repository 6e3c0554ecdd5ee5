import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Connection } from '../../../src/store/sqlite/connection.ts';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';
import { contact, freshWorkspace, NEWEST_FIRST, type Harness } from '../conformance/harness.ts';

/**
 * Store calls made in one turn of the event loop write in one transaction (Connection.tx): each
 * call in a savepoint of its own, one COMMIT when the loop turns, each call resolving only after
 * it. A second connection on the same file shows what is committed, and when.
 */
describe('SQLite write groups', () => {
  let dir: string;
  let c: Connection | undefined;
  let other: Database.Database | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'crm-groups-'));
  });
  afterEach(async () => {
    other?.close();
    other = undefined;
    await c?.close();
    c = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (): Connection => {
    c = new Connection(join(dir, 'crm.db'));
    c.open();
    c.db.exec('CREATE TABLE t (n INTEGER NOT NULL UNIQUE)');
    other = new Database(join(dir, 'crm.db'), { readonly: true });
    return c;
  };
  /** What another connection sees committed. */
  const committed = (): number[] => other!.prepare('SELECT n FROM t ORDER BY n').pluck().all() as number[];
  /** A Store call's body writing `n` in a transaction. */
  const write = (conn: Connection, n: number, extra?: () => void) => conn.grouped((k: number) => conn.tx(() => {
    conn.run('INSERT INTO t (n) VALUES (?)', k);
    extra?.();
  }), [n]);

  it('commits the writes of one turn together, once the loop turns, and not before', async () => {
    const conn = open();
    write(conn, 1);
    write(conn, 2);
    const group = conn.groupCommitted;
    expect(group).toBeDefined();
    // Written, visible to this connection, not committed: nobody has been answered yet.
    expect(conn.rows<[number]>('SELECT n FROM t ORDER BY n').map((r) => r[0])).toEqual([1, 2]);
    expect(committed()).toEqual([]);
    await group;
    expect(committed()).toEqual([1, 2]);
    expect(conn.db.inTransaction).toBe(false);
    expect(conn.groupCommitted).toBeUndefined();
    // The next turn's writes are a group of their own.
    write(conn, 3);
    expect(conn.groupCommitted).not.toBe(group);
    await conn.groupCommitted;
    expect(committed()).toEqual([1, 2, 3]);
  });

  it("takes back only a failing call's writes and what they owe; the rest commit with their tallies", async () => {
    const conn = open();
    const settled: number[] = [];
    const owe = (amount: number) => conn.owe('k', amount, (total) => settled.push(total));
    write(conn, 1, () => owe(1));
    expect(() => write(conn, 2, () => {
      owe(10);
      throw new Error('boom');
    })).toThrow('boom');
    // A unique conflict inside the group fails that call alone, too.
    expect(() => write(conn, 1)).toThrow(/UNIQUE/);
    write(conn, 3, () => owe(100));
    await conn.groupCommitted;
    expect(committed()).toEqual([1, 3]);
    expect(settled).toEqual([101]);
  });

  it('a first call that throws leaves no group open and nothing written', () => {
    const conn = open();
    expect(() => write(conn, 1, () => {
      throw new Error('boom');
    })).toThrow('boom');
    expect(conn.groupCommitted).toBeUndefined();
    expect(conn.db.inTransaction).toBe(false);
    expect(committed()).toEqual([]);
  });

  it('fails every call of a group whose COMMIT fails, writes nothing, and counts the lost group', async () => {
    const conn = open();
    conn.db.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (pid INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)');
    write(conn, 1);
    // A deferred foreign key is checked at COMMIT: this call succeeds, the group's COMMIT fails.
    conn.grouped(() => conn.tx(() => conn.run('INSERT INTO child (pid) VALUES (99)')), []);
    const group = conn.groupCommitted!;
    await expect(group).rejects.toThrow(/FOREIGN KEY/);
    expect(conn.lostGroups).toBe(1);
    expect(conn.db.inTransaction).toBe(false);
    expect(committed()).toEqual([]);
    // The connection goes on.
    write(conn, 2);
    await conn.groupCommitted;
    expect(committed()).toEqual([2]);
  });

  it('commits the open group before a transaction outside a Store call, and before closing', async () => {
    const conn = open();
    write(conn, 1);
    const group = conn.groupCommitted!;
    conn.tx(() => conn.run('INSERT INTO t (n) VALUES (2)'));
    expect(committed()).toEqual([1, 2]);
    expect(conn.groupCommitted).toBeUndefined();
    await group;
    write(conn, 3);
    await conn.close();
    c = undefined;
    expect(committed()).toEqual([1, 2, 3]);
  });

  it('opens no group for a transaction that wrote nothing (a consistent read)', () => {
    const conn = open();
    expect(conn.grouped(() => conn.tx(() => conn.rows('SELECT n FROM t')), [])).toEqual([]);
    expect(conn.groupCommitted).toBeUndefined();
    expect(conn.db.inTransaction).toBe(false);
  });

  it('lets reads between the calls of a group use the caches, not inside a transaction body, and resets them when a group is lost', async () => {
    const conn = open();
    const seen: boolean[] = [];
    expect(conn.cacheable).toBe(true);
    write(conn, 1, () => seen.push(conn.cacheable));
    expect(conn.cacheable).toBe(true);
    write(conn, 2, () => seen.push(conn.cacheable));
    expect(seen).toEqual([false, false]);
    await conn.groupCommitted;
    // Inside a transaction outside a group (a write's own), never.
    conn.tx(() => seen.push(conn.cacheable));
    expect(seen).toEqual([false, false, false]);
    let resets = 0;
    conn.onLostGroup(() => resets++);
    conn.db.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (pid INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)');
    conn.grouped(() => conn.tx(() => conn.run('INSERT INTO child (pid) VALUES (99)')), []);
    await expect(conn.groupCommitted).rejects.toThrow(/FOREIGN KEY/);
    expect(resets).toBe(1);
  });

  it('through the Store: calls of one turn resolve after one commit; a conflicting one fails alone', async () => {
    const path = join(dir, 'store.db');
    const store = createSqliteStore({ path });
    await store.init();
    try {
      const ws = await freshWorkspace({ store } as Harness, 'groups');
      const calls = [
        store.createRecord(ws.id, contact('Ada', 'ada@example.com')),
        store.createRecord(ws.id, contact('Copy', 'ada@example.com')),
        store.createRecord(ws.id, contact('Bea', 'bea@example.com')),
      ];
      other = new Database(path, { readonly: true });
      const seen = () => other!.prepare('SELECT COUNT(*) FROM records WHERE workspace_id = ?').pluck().get(ws.id);
      expect(seen()).toBe(0);
      const [ada, copy, bea] = await Promise.allSettled(calls);
      expect(seen()).toBe(2);
      expect(ada!.status).toBe('fulfilled');
      expect(bea!.status).toBe('fulfilled');
      expect(copy).toMatchObject({ status: 'rejected', reason: { code: 'conflict' } });
      const listed = await store.listRecords(ws.id, { object_type_slug: 'contacts', sort: NEWEST_FIRST, offset: 0, limit: 10 });
      expect(listed.total).toBe(2);
    } finally {
      await store.close();
    }
  });
});
