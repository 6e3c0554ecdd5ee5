import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { CrmError } from '../../domain/errors.ts';
import { Checkpointer, RESTART_FRAMES } from './checkpointer.ts';
import { applyMigrations } from './migrations.ts';
import { SEARCH_SCRATCH_DDL } from './search-terms.ts';

/** What better-sqlite3 binds: booleans and undefined are not among them. */
export type SqlParam = string | number | bigint | null | Uint8Array;

/** Statements are prepared once per SQL text; dynamic filter SQL is bounded by this cap. */
const STATEMENT_CACHE_LIMIT = 500;
/**
 * A bare parameter as a LIMIT or as the pattern of LIKE or GLOB is a value SQLite's planner reads
 * when it plans (this build has STAT4). Binding such a parameter marks the statement expired, so
 * every execution compiles it again: about 5 µs for a one-table read, about 100 µs for the search
 * page. Written `LIMIT +?` or `LIKE +?`, the value is the same and the planner does not look at it.
 * Statements are refused here rather than quietly rewritten, so the SQL in the code is what runs.
 */
const REPLANNED_EVERY_RUN = /\b(?:LIMIT|LIKE|GLOB)\s+\?/i;
/**
 * How much of the file the scattered-reads connection maps (SQLite's ceiling in this build, 2 GB);
 * the serving connection maps 256 MB (see Connection.scattered).
 */
const SCATTERED_MMAP_BYTES = 0x7fff0000;
/**
 * The scattered-reads connection's page cache, in KiB: the pages past the map (a 1M-record file is
 * three times its size) are read into it. 256 MB against 16 MB made REST `records.search` at 1M
 * 0.88–0.92× the server CPU per call, measured while a search still read each match's `records`
 * row; it now reads a `search_docs` row instead (a far smaller table), and the size was not
 * measured again. Only pages read past the map are copied into it, so a file inside the map leaves
 * it nearly empty.
 */
const SCATTERED_CACHE_KIB = 262_144;
/** How long a write waits for another connection's lock before the store reports `unavailable`. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * One better-sqlite3 database with a statement cache. Opened by `open()` (from Store.init) so a
 * missing directory or a broken file surfaces as a rejected init, not a throwing constructor.
 */
export class Connection {
  #db: Database.Database | null = null;
  #checkpointer: Checkpointer | null = null;
  readonly #statements = new Map<string, Database.Statement<SqlParam[]>>();
  /** Statements read with `rows`, by the same SQL text: prepared apart, since raw mode is a statement's state. */
  readonly #rawStatements = new Map<string, Database.Statement<SqlParam[]>>();
  /**
   * better-sqlite3's transaction wrapper, made once: `db.transaction(fn)` builds a wrapper with
   * four variants each call (about a tenth of what a create allocated), and the wrapper decides
   * BEGIN or SAVEPOINT when it is called, not when it is made.
   */
  #transaction: Database.Transaction<(fn: () => unknown) => unknown> | null = null;
  /** What the writes of the open transaction owe, by key: settled just before it commits (see owe). */
  readonly #owed = new Map<string, { total: number; settle: (total: number) => void }>();
  /** BEGIN, COMMIT and ROLLBACK of a group's transaction, prepared once per writable database (see tx). */
  #groupStatements: { begin: Database.Statement; commit: Database.Statement; rollback: Database.Statement } | null = null;
  /** `SELECT total_changes()` and `PRAGMA data_version` of the open database (see writtenRows, othersVersion). */
  #versions: { totalChanges: Database.Statement; dataVersion: Database.Statement } | null = null;
  /** How many databases this connection has opened: a new one starts both counters over. */
  #opens = 0;
  /** Calls in flight (see beginCall). */
  #calls = 0;
  /** `othersVersion` as read since the last call began, while any call is in flight; else null. */
  #callVersion: string | null = null;
  /** The open group of Store calls' writes, committed when the event loop turns (see tx). */
  #group: WriteGroup | null = null;
  /** True while a Store call runs (see grouped): its transactions join the open group. */
  #grouping = false;
  /** How many groups failed to commit (see lostGroups). */
  #lostGroups = 0;
  /** What to call when a group fails to commit: the caches that may hold what it wrote start over. */
  readonly #onLostGroup: Array<() => void> = [];
  /** How many `tx` bodies are running (nested ones included). */
  #depth = 0;

  /** The read-only second connection of `scattered`, opened on first use. */
  #scattered: Connection | null = null;

  constructor(
    readonly path: string,
    readonly busyTimeoutMs: number = DEFAULT_BUSY_TIMEOUT_MS,
    readonly walRestartFrames: number = RESTART_FRAMES,
    /** A read-only connection for scattered reads (see `scattered`): no migrations, no checkpoint thread. */
    private readonly scatteredReader = false,
  ) {}

  open(): void {
    if (this.scatteredReader) {
      this.#openScatteredReader();
      return;
    }
    if (!this.#db) {
      if (this.path !== ':memory:' && !this.path.startsWith('file:')) mkdirSync(dirname(this.path), { recursive: true });
      // The default 2 MB page cache holds a sliver of a large workspace's value index, so big
      // lists and bulk loads went to the OS for every other page: 64 MB (and mapped reads) keep
      // the hot index pages in the process.
      this.#adopt(new Database(this.path), [
        'journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON', 'cache_size = -65536', 'mmap_size = 268435456', 'temp_store = MEMORY',
      ]);
    }
    const db = this.db;
    applyMigrations(db);
    if (!db.readonly) db.exec(SEARCH_SCRATCH_DDL);
    if (!this.#checkpointer && !db.memory && !db.readonly) this.#checkpointer = new Checkpointer(db, this.busyTimeoutMs, this.walRestartFrames);
  }

  /**
   * Closes the connection, after the checkpoint thread has closed its own: two connections closing
   * at the same moment on two threads can each still see the other open, and then neither is the
   * last one, which checkpoints the WAL into the file and deletes it (a copy of the file taken
   * next would miss the WAL's writes). Unusable from the call on.
   */
  async close(): Promise<void> {
    if (this.#group) this.#settleGroup(this.#group);
    const scattered = this.#scattered;
    this.#scattered = null;
    if (scattered) await scattered.close();
    const db = this.#db;
    const stopped = this.#checkpointer?.stop();
    this.#checkpointer = null;
    this.#statements.clear();
    this.#rawStatements.clear();
    this.#transaction = null;
    this.#groupStatements = null;
    this.#versions = null;
    this.#callVersion = null;
    this.#db = null;
    await stopped;
    db?.close();
  }

  #openScatteredReader(): void {
    if (this.#db) return;
    this.#adopt(new Database(this.path, { readonly: true, fileMustExist: true }), [`cache_size = -${SCATTERED_CACHE_KIB}`, `mmap_size = ${SCATTERED_MMAP_BYTES}`]);
  }

  /** Sets the busy timeout and the given pragmas on a newly opened database (closing it if one fails) and makes it this connection's. */
  #adopt(db: Database.Database, pragmas: readonly string[]): void {
    try {
      db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(this.busyTimeoutMs))}`);
      for (const pragma of pragmas) db.pragma(pragma);
    } catch (err) {
      db.close();
      throw err;
    }
    this.#db = db;
    this.#transaction = db.transaction((fn: () => unknown) => fn());
    this.#groupStatements = db.readonly ? null : { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), rollback: db.prepare('ROLLBACK') };
    this.#versions = { totalChanges: db.prepare('SELECT total_changes()').pluck(), dataVersion: db.prepare('PRAGMA data_version').pluck() };
    this.#opens++;
    this.#callVersion = null;
  }

  /**
   * Rows this connection has inserted, updated or deleted since it opened the database, trigger
   * programs included, committed or rolled back: it never goes back, and reading it takes no lock.
   */
  writtenRows(): number {
    if (!this.#versions) throw notOpen();
    return this.#versions.totalChanges.get() as number;
  }

  /**
   * A version of what other connections (the CLI, another process) have committed, as this one
   * sees it: `PRAGMA data_version`, which moves with their commits and never with this
   * connection's own writes, prefixed by how many databases this connection has opened, since a
   * database opened again starts it over. Caches of rows that another connection may change keep
   * their entries under it. While calls are in flight, read once per call begun (see beginCall).
   */
  othersVersion(): string {
    if (!this.#versions) throw notOpen();
    if (this.#callVersion !== null) return this.#callVersion;
    const version = `${this.#opens}:${this.#versions.dataVersion.get() as number}`;
    if (this.#calls > 0) this.#callVersion = version;
    return version;
  }

  /**
   * Drops the version this call read, so the next `othersVersion` reads anew: for a write that
   * found, in its transaction, that another connection changed what the call had read from a
   * cache (an object type), and is to be redone within the same call on the current state.
   */
  forgetCallVersion(): void {
    this.#callVersion = null;
  }

  /**
   * Marks a call in flight (the gateway's, from authentication to its answer) until the returned
   * function runs. `PRAGMA data_version` is a statement that takes the WAL's read lock (two
   * `fcntl` calls), and a call checked three caches with such a statement each (the key holder
   * and object types by this version, the graph cache by reading its change log). While calls are
   * in flight `othersVersion` is read once after each call begins and kept until the next one
   * begins: a call still sees every commit another connection made before it began, and one made
   * while it runs shows from the next call on, as it would had the commit come a moment later.
   * With no call in flight (the CLI, tests, background work between calls) every `othersVersion`
   * reads anew.
   */
  beginCall(): () => void {
    this.#calls++;
    this.#callVersion = null;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.#calls === 0) this.#callVersion = null;
    };
  }

  /**
   * Where to run a read whose pages lie all over the file: a search at a million records looks up
   * the record row of each of its ~200 matches, one random page each of a 6.7 GB file. A second,
   * read-only connection on the same file maps its first 2 GB, so those pages cost no system call
   * and no copy into SQLite's cache; the serving connection keeps its 256 MB map, since mapping
   * more there made the reads with a small hot set (records.get, lists) slower (a mapped page is
   * fetched without SQLite's page cache, which serves a hot set more cheaply). Inside a
   * transaction, on an in-memory or a read-only connection, this connection itself (a second one
   * would not see the transaction's writes, or another database altogether). It reads committed
   * data as of its statement, as this connection does outside a transaction.
   */
  get scattered(): Connection {
    const db = this.db;
    if (db.inTransaction || db.memory || db.readonly || this.scatteredReader) return this;
    if (!this.#scattered) {
      const reader = new Connection(db.name, this.busyTimeoutMs, this.walRestartFrames, true);
      reader.open();
      this.#scattered = reader;
    }
    return this.#scattered;
  }

  /**
   * Called before each store call: waits while the checkpoint thread restarts the WAL, if it has
   * asked to (Checkpointer.holdIfAsked). Connections without the thread (in memory, read-only)
   * never wait.
   */
  holdIfAsked(): void {
    // Never with a group's transaction open: the restart waits for it, and it for the restart.
    // The next call after the group commits holds instead.
    if (this.#group) return;
    this.#checkpointer?.holdIfAsked();
  }

  /** True between open() and close(). */
  get isOpen(): boolean {
    return this.#db !== null;
  }

  get db(): Database.Database {
    if (!this.#db) throw notOpen();
    return this.#db;
  }

  /** The prepared statement for this SQL text, prepared on first use. */
  stmt(sql: string): Database.Statement<SqlParam[]> {
    return this.#statements.get(sql) ?? this.#prepare(this.#statements, sql, false);
  }

  #prepare(cache: Map<string, Database.Statement<SqlParam[]>>, sql: string, raw: boolean): Database.Statement<SqlParam[]> {
    if (REPLANNED_EVERY_RUN.test(sql)) throw new Error(`SQL binds a LIMIT or a LIKE/GLOB pattern the planner reads, so it would be compiled on every run; write +? there: ${sql}`);
    const statement = this.db.prepare<SqlParam[]>(sql);
    if (raw) statement.raw(true);
    if (cache.size >= STATEMENT_CACHE_LIMIT) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    cache.set(sql, statement);
    return statement;
  }

  get<T>(sql: string, ...params: SqlParam[]): T | undefined {
    return this.stmt(sql).get(...params) as T | undefined;
  }

  all<T>(sql: string, ...params: SqlParam[]): T[] {
    return this.stmt(sql).all(...params) as T[];
  }

  /**
   * The rows as arrays of column values, in select order: for statements whose many rows are
   * unpacked at once, where an object per row is the larger cost. A SQL text read with `rows` is
   * prepared apart from the same text read with `all`.
   */
  rows<T extends unknown[]>(sql: string, ...params: SqlParam[]): T[] {
    return ((this.#rawStatements.get(sql) ?? this.#prepare(this.#rawStatements, sql, true)).all(...params)) as T[];
  }

  run(sql: string, ...params: SqlParam[]): Database.RunResult {
    return this.stmt(sql).run(...params);
  }

  /**
   * Runs `fn` in a transaction (a savepoint when nested); a throw rolls back what `fn` wrote. The
   * outermost transaction settles what its writes owe (see owe) after `fn`, before it commits.
   *
   * The outermost transaction takes the write lock when it begins (BEGIN IMMEDIATE), so while
   * another process (the CLI, a second server) holds it, the transaction waits for it up to the
   * busy timeout. A transaction begun deferred that reads before it writes cannot wait: SQLite
   * fails its first write at once with SQLITE_BUSY (a reader that waited for the lock could
   * deadlock with the writer, or find its snapshot stale once it had it), and every call of its
   * group answered `unavailable` while the other process wrote. A transaction that only reads
   * goes through `read`, which takes no write lock.
   *
   * Inside a Store call (see grouped) the outermost transaction is not committed at once: it stays
   * open until the event loop turns (setImmediate), and the transactions of the Store calls made
   * meanwhile (the other requests of the same turn) run in it, each in a savepoint of its own, so
   * that a throw takes back that call's writes only. Then one COMMIT writes them all: each
   * transaction writes every page it changed to the WAL, and most of a create's ~33 pages are the
   * same hot pages (the ends of the append-ordered indexes, the version counters), so ten creates
   * committed together write a fraction of the frames ten commits do. A Store call that ran while
   * a group was open resolves only once it has committed (groupCommitted), so no answer shows a
   * write before it is durable, and a failed COMMIT fails every call of the group. A transaction
   * that wrote nothing (a write that found nothing to change) commits at once and opens no group.
   * A transaction outside a Store call (a timer's catch-up, tests driving a Connection) commits
   * any open group first and then runs on its own, as before. Reads between a group's calls keep
   * the caches (cacheable).
   */
  tx<T>(fn: () => T): T {
    if (!this.#transaction) throw notOpen();
    this.#depth++;
    try {
      return this.#tx(fn);
    } finally {
      this.#depth--;
    }
  }

  #tx<T>(fn: () => T): T {
    const db = this.db;
    const group = this.#group;
    if (group) {
      if (this.#grouping && db.inTransaction) return this.#joined(fn);
      // A write outside a Store call, or a group SQLite rolled back underneath (an I/O error).
      this.#settleGroup(group);
    }
    if (db.inTransaction) return this.#transaction!(fn) as T;
    if (!this.#grouping || !this.#groupStatements) return this.#alone(fn);
    const { begin, commit, rollback } = this.#groupStatements;
    const written = this.writtenRows();
    begin.run();
    let result: T;
    try {
      result = fn();
      // A transaction that wrote nothing commits at once: nothing to share.
      if (this.writtenRows() === written && this.#owed.size === 0) {
        commit.run();
        return result;
      }
    } catch (err) {
      if (db.inTransaction) rollback.run();
      this.#owed.clear();
      throw err;
    }
    this.#openGroup();
    return result;
  }

  /**
   * Whether a read may use and fill the connection's caches: outside any transaction, or between
   * the calls of an open group (not inside a `tx` body), where what it reads is what the group
   * commits; a group that fails to commit makes those caches start over (onLostGroup). Inside a
   * transaction that may still roll back on its own, no.
   */
  get cacheable(): boolean {
    return !this.db.inTransaction || (this.#group !== null && this.#depth === 0);
  }

  /** Registers what to do when a group fails to commit: drop what a cache read inside it. */
  onLostGroup(listener: () => void): void {
    this.#onLostGroup.push(listener);
  }

  /**
   * Runs `run(...args)` (a Store call's synchronous body) with its transactions joining the open
   * group; the caller awaits `groupCommitted` afterwards.
   */
  grouped<A extends unknown[], T>(run: (...args: A) => T, args: A): T {
    this.#grouping = true;
    try {
      return run(...args);
    } finally {
      this.#grouping = false;
    }
  }

  /** The commit of the open group: a Store call that ran while one was open waits for it (it may have read or written what the group holds). */
  get groupCommitted(): Promise<void> | undefined {
    return this.#group?.committed;
  }

  /** How many groups failed to commit (see tx). */
  get lostGroups(): number {
    return this.#lostGroups;
  }

  /** A transaction of its own: BEGIN IMMEDIATE, `fn`, what its writes owe, COMMIT. */
  #alone<T>(fn: () => T): T {
    try {
      return this.#transaction!.immediate(() => {
        const result = fn();
        for (const owed of this.#owed.values()) owed.settle(owed.total);
        return result;
      }) as T;
    } finally {
      this.#owed.clear();
    }
  }

  /**
   * Runs `fn`, which only reads, in one snapshot: a deferred transaction of its own, which takes
   * no write lock, so it neither waits for another process's writes nor holds theirs up. Inside a
   * transaction (a caller's, or the open group's between Store calls) `fn` runs in it and sees
   * its writes. A `fn` that writes is a bug, refused once it has run (its writes roll back): its
   * write would have had to wait for the lock after reading, which SQLite cannot do (see tx).
   */
  read<T>(fn: () => T): T {
    if (!this.#transaction) throw notOpen();
    const db = this.db;
    if (this.#group && !(this.#grouping && db.inTransaction)) this.#settleGroup(this.#group);
    this.#depth++;
    try {
      if (db.inTransaction) return fn();
      const written = this.writtenRows();
      return this.#transaction.deferred(() => {
        const result = fn();
        if (this.writtenRows() !== written) throw new Error('Connection.read: the body wrote rows; writes go through tx');
        return result;
      }) as T;
    } finally {
      this.#depth--;
    }
  }

  /** `fn` in a savepoint of the open group: a throw rolls back its writes and what they owe. */
  #joined<T>(fn: () => T): T {
    const owedBefore = this.#owed.size === 0 ? null : new Map([...this.#owed].map(([key, owed]) => [key, owed.total]));
    try {
      return this.#transaction!(fn) as T;
    } catch (err) {
      for (const [key, owed] of this.#owed) {
        const before = owedBefore?.get(key);
        if (before === undefined) this.#owed.delete(key);
        else owed.total = before;
      }
      throw err;
    }
  }

  #openGroup(): void {
    let resolve!: () => void;
    let reject!: (err: unknown) => void;
    const committed = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // A call that failed after writing (its body threw past its transaction) does not wait for the
    // commit, so a failed one may have nobody waiting: it must not be an unhandled rejection.
    committed.catch(() => {});
    const group: WriteGroup = { committed, resolve, reject };
    this.#group = group;
    setImmediate(() => this.#settleGroup(group));
  }

  /** Commits the group (what its writes owe first), or rolls it back and fails its calls. No-op once settled. */
  #settleGroup(group: WriteGroup): void {
    if (this.#group !== group) return;
    this.#group = null;
    const db = this.#db;
    try {
      if (!db?.inTransaction) throw new CrmError('unavailable', 'The database rolled this write back with the others of its transaction; try again', { cause: 'rolled_back' });
      for (const owed of this.#owed.values()) owed.settle(owed.total);
      this.#groupStatements!.commit.run();
      group.resolve();
    } catch (err) {
      this.#lostGroups++;
      try {
        if (db?.inTransaction) this.#groupStatements!.rollback.run();
      } catch {
        // Already rolled back by SQLite.
      }
      for (const listener of this.#onLostGroup) listener();
      group.reject(err);
    } finally {
      this.#owed.clear();
    }
  }

  /**
   * Work a write owes that is cheaper done once per transaction than once per write: `amount` is
   * added to the tally under `key`, and `settle` receives the sum just before the outermost
   * transaction commits (inside it, so a failure rolls the writes back too). A rollback drops the
   * tally with the writes. Outside a transaction the write has committed already, so the work is
   * done at once.
   */
  owe(key: string, amount: number, settle: (total: number) => void): void {
    if (!this.db.inTransaction) {
      settle(amount);
      return;
    }
    const owed = this.#owed.get(key);
    if (owed) owed.total += amount;
    else this.#owed.set(key, { total: amount, settle });
  }

  /**
   * A second, private connection that sees the database as it is now and no later write, for long
   * reads that yield between rows (the dump): its statements can stay open across awaits without
   * blocking this connection. A file is opened read-only; an in-memory database is copied. Run
   * `BEGIN` on it before the first read to hold the snapshot; close it when done.
   */
  snapshot(): Database.Database {
    const db = this.db;
    if (db.memory) return new Database(db.serialize());
    const reader = new Database(db.name, { readonly: true, fileMustExist: true });
    reader.pragma(`busy_timeout = ${Math.max(0, Math.trunc(this.busyTimeoutMs))}`);
    return reader;
  }
}

/** An open group of Store calls' writes (see Connection.tx). */
interface WriteGroup {
  committed: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

function notOpen(): CrmError {
  return new CrmError('unavailable', 'The SQLite store is not open; call init() first', { cause: 'closed' });
}

/** `INSERT INTO {table} ({columns}) VALUES (?, ...)`, one placeholder per column of a plain column list. */
export function insertSql(table: string, columns: string): string {
  return `INSERT INTO ${table} (${columns}) VALUES (${columns.split(',').map(() => '?').join(', ')})`;
}

/**
 * `column = ?` assignments for the columns whose value is not undefined (undefined = unchanged).
 * Column names come from code, never from callers; values are bound.
 */
export function assignments(columns: Record<string, SqlParam | undefined>): { sql: string[]; params: SqlParam[] } {
  const set = Object.entries(columns).filter((entry): entry is [string, SqlParam] => entry[1] !== undefined);
  return { sql: set.map(([column]) => `${column} = ?`), params: set.map(([, value]) => value) };
}

/** One `make(c)` per connection, made on first use: state that lives as long as the connection (caches). */
export function perConnection<T>(make: (c: Connection) => T): (c: Connection) => T {
  const made = new WeakMap<Connection, T>();
  return (c) => {
    if (!made.has(c)) made.set(c, make(c));
    return made.get(c)!;
  };
}
