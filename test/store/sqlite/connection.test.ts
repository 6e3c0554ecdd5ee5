import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CrmError } from '../../../src/domain/errors.ts';
import { Connection } from '../../../src/store/sqlite/connection.ts';

/**
 * The Connection's transaction is one better-sqlite3 wrapper made at open, so whether a call
 * begins a transaction or a savepoint is decided at each call; these pin that down, and that
 * `rows` and `all` on the same SQL text keep their own statements.
 */
describe('SQLite connection', () => {
  let c: Connection | undefined;
  afterEach(async () => {
    await c?.close();
    c = undefined;
  });

  const open = (): Connection => {
    c = new Connection(':memory:');
    c.open();
    c.db.exec('CREATE TABLE t (n INTEGER NOT NULL)');
    return c;
  };
  const values = (conn: Connection): number[] => conn.rows<[number]>('SELECT n FROM t ORDER BY n').map((row) => row[0]);

  it('refuses a bare LIMIT or LIKE/GLOB pattern parameter, which SQLite would replan on every run', () => {
    const conn = open();
    for (const sql of ['SELECT n FROM t LIMIT ?', 'SELECT n FROM t ORDER BY n limit  ? OFFSET ?', "SELECT n FROM t WHERE CAST(n AS TEXT) LIKE ? ESCAPE '\\'", 'SELECT n FROM t WHERE CAST(n AS TEXT) GLOB ?']) {
      expect(() => conn.all(sql, 1)).toThrow(/write \+\? there/);
      expect(() => conn.rows(sql, 1)).toThrow(/write \+\? there/);
    }
    for (const n of [1, 2, 3, 14]) conn.run('INSERT INTO t (n) VALUES (?)', n);
    expect(conn.rows<[number]>('SELECT n FROM t ORDER BY n LIMIT +? OFFSET ?', 2, 1).map((row) => row[0])).toEqual([2, 3]);
    expect(conn.rows<[number]>('SELECT n FROM t WHERE CAST(n AS TEXT) LIKE +? ORDER BY n', '1%').map((row) => row[0])).toEqual([1, 14]);
  });

  it('commits a transaction and answers what its function returns', () => {
    const conn = open();
    expect(conn.tx(() => conn.run('INSERT INTO t (n) VALUES (1)').changes)).toBe(1);
    expect(values(conn)).toEqual([1]);
    expect(conn.db.inTransaction).toBe(false);
  });

  it('rolls back the whole transaction when its function throws', () => {
    const conn = open();
    expect(() => conn.tx(() => {
      conn.run('INSERT INTO t (n) VALUES (1)');
      throw new Error('boom');
    })).toThrow('boom');
    expect(values(conn)).toEqual([]);
    expect(conn.db.inTransaction).toBe(false);
  });

  it('nests as a savepoint: an inner failure undoes only the inner writes', () => {
    const conn = open();
    conn.tx(() => {
      conn.run('INSERT INTO t (n) VALUES (1)');
      expect(() => conn.tx(() => {
        conn.run('INSERT INTO t (n) VALUES (2)');
        throw new Error('inner');
      })).toThrow('inner');
      conn.tx(() => conn.run('INSERT INTO t (n) VALUES (3)'));
    });
    expect(values(conn)).toEqual([1, 3]);
  });

  it('runs one transaction after another with the same wrapper', () => {
    const conn = open();
    for (let n = 1; n <= 3; n++) conn.tx(() => conn.run('INSERT INTO t (n) VALUES (?)', n));
    expect(() => conn.tx(() => {
      conn.run('INSERT INTO t (n) VALUES (4)');
      throw new Error('no');
    })).toThrow('no');
    conn.tx(() => conn.run('INSERT INTO t (n) VALUES (5)'));
    expect(values(conn)).toEqual([1, 2, 3, 5]);
  });

  it('reads the same SQL as arrays with rows and as objects with all', () => {
    const conn = open();
    conn.run('INSERT INTO t (n) VALUES (7)');
    const sql = 'SELECT n, n * 2 AS twice FROM t';
    expect(conn.rows(sql)).toEqual([[7, 14]]);
    expect(conn.all(sql)).toEqual([{ n: 7, twice: 14 }]);
    expect(conn.rows(sql)).toEqual([[7, 14]]);
    expect(conn.get(sql)).toEqual({ n: 7, twice: 14 });
  });

  it('refuses a transaction once closed, as unavailable', async () => {
    const conn = open();
    await conn.close();
    c = undefined;
    let caught: unknown;
    try {
      conn.tx(() => 1);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CrmError);
    expect((caught as CrmError).code).toBe('unavailable');
  });

  it('settles what writes owe once, inside the outermost transaction, just before it commits', () => {
    const conn = open();
    const settled: Array<[number, boolean]> = [];
    const settle = (total: number) => {
      settled.push([total, conn.db.inTransaction]);
      conn.run('INSERT INTO t (n) VALUES (?)', 100 + total);
    };
    conn.tx(() => {
      conn.run('INSERT INTO t (n) VALUES (1)');
      conn.owe('k', 2, settle);
      conn.tx(() => conn.owe('k', 3, settle));
      expect(settled).toEqual([]);
    });
    // One settle with the sum, inside the transaction, its write committed with the rest.
    expect(settled).toEqual([[5, true]]);
    expect(values(conn)).toEqual([1, 105]);
  });

  it('drops what a rolled-back transaction owed, and settles at once outside a transaction', () => {
    const conn = open();
    const settled: number[] = [];
    expect(() => conn.tx(() => {
      conn.owe('k', 4, (total) => settled.push(total));
      throw new Error('roll back');
    })).toThrow('roll back');
    conn.tx(() => conn.owe('k', 1, (total) => settled.push(total)));
    expect(settled).toEqual([1]);
    conn.owe('k', 7, (total) => settled.push(total));
    expect(settled).toEqual([1, 7]);
  });

  it('reads scattered pages through a second, mapped, read-only connection that sees every commit, but not inside a transaction', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crm-scattered-'));
    try {
      c = new Connection(join(dir, 'crm.db'));
      c.open();
      c.db.exec('CREATE TABLE t (n INTEGER NOT NULL)');
      const reader = c.scattered;
      expect(reader).not.toBe(c);
      expect(c.scattered).toBe(reader);
      expect(reader.db.readonly).toBe(true);
      expect(reader.db.pragma('mmap_size', { simple: true })).toBe(0x7fff0000);
      expect(c.db.pragma('mmap_size', { simple: true })).toBe(268435456);
      expect(() => reader.run('INSERT INTO t (n) VALUES (1)')).toThrow(/readonly/);
      // A commit on the serving connection is seen by the reader's next statement.
      c.run('INSERT INTO t (n) VALUES (1)');
      expect(values(reader)).toEqual([1]);
      // Inside a transaction the reader would miss its writes: the connection answers itself.
      c.tx(() => {
        c!.run('INSERT INTO t (n) VALUES (2)');
        expect(c!.scattered).toBe(c);
        expect(values(c!.scattered)).toEqual([1, 2]);
      });
      expect(values(reader)).toEqual([1, 2]);
      await c.close();
      expect(reader.isOpen).toBe(false);
      c = undefined;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has no second connection in memory: a second one would be another database', () => {
    const conn = open();
    expect(conn.scattered).toBe(conn);
  });

  describe('locks, against a second connection on the file', () => {
    let dir: string;
    let other: Database.Database | undefined;
    afterEach(() => {
      other?.close();
      other = undefined;
      rmSync(dir, { recursive: true, force: true });
    });
    /** The connection on a file, and a second one that never waits for a lock. */
    const openFile = (): Connection => {
      dir = mkdtempSync(join(tmpdir(), 'crm-locks-'));
      const path = join(dir, 'crm.db');
      c = new Connection(path);
      c.open();
      c.db.exec('CREATE TABLE t (n INTEGER NOT NULL)');
      other = new Database(path);
      other.pragma('busy_timeout = 0');
      return c;
    };

    it('takes the write lock when a transaction begins, before its first write', () => {
      const conn = openFile();
      conn.tx(() => {
        expect(() => other!.exec('BEGIN IMMEDIATE')).toThrow(/locked|busy/i);
        conn.run('INSERT INTO t (n) VALUES (1)');
      });
      other!.exec('BEGIN IMMEDIATE; INSERT INTO t (n) VALUES (2); COMMIT');
      expect(values(conn)).toEqual([1, 2]);
    });

    it('takes the write lock when a group begins too', async () => {
      const conn = openFile();
      conn.grouped(() => conn.tx(() => {
        expect(() => other!.exec('BEGIN IMMEDIATE')).toThrow(/locked|busy/i);
        conn.run('INSERT INTO t (n) VALUES (1)');
      }), []);
      await conn.groupCommitted;
      expect(values(conn)).toEqual([1]);
    });

    it('reads in one snapshot without the write lock: another connection writes meanwhile', () => {
      const conn = openFile();
      conn.run('INSERT INTO t (n) VALUES (1)');
      const seen = conn.read(() => {
        const before = values(conn);
        other!.exec('BEGIN IMMEDIATE; INSERT INTO t (n) VALUES (2); COMMIT');
        return [before, values(conn)];
      });
      expect(seen).toEqual([[1], [1]]);
      expect(values(conn)).toEqual([1, 2]);
      expect(conn.db.inTransaction).toBe(false);
    });
  });

  it('refuses a read whose body wrote, and rolls the write back', () => {
    const conn = open();
    expect(() => conn.read(() => conn.run('INSERT INTO t (n) VALUES (1)'))).toThrow(/wrote rows/);
    expect(values(conn)).toEqual([]);
    expect(conn.db.inTransaction).toBe(false);
  });

  it('reads inside a transaction or an open group in it, seeing its writes', async () => {
    const conn = open();
    conn.tx(() => {
      conn.run('INSERT INTO t (n) VALUES (1)');
      expect(conn.read(() => values(conn))).toEqual([1]);
    });
    conn.grouped(() => conn.tx(() => conn.run('INSERT INTO t (n) VALUES (2)')), []);
    expect(conn.grouped(() => conn.read(() => values(conn)), [])).toEqual([1, 2]);
    expect(conn.db.inTransaction).toBe(true);
    await conn.groupCommitted;
    expect(conn.db.inTransaction).toBe(false);
    expect(values(conn)).toEqual([1, 2]);
  });
});
