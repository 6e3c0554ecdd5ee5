import type { Store } from '../../domain/store/port.ts';
import { commMethods } from './comms.ts';
import { Connection } from './connection.ts';
import { dumpMethods } from './dump.ts';
import { translateError } from './errors.ts';
import { entryMethods } from './entries.ts';
import { graphMethods } from './graph.ts';
import { idempotencyMethods } from './idempotency.ts';
import { listMethods } from './lists.ts';
import { loadMethods } from './load.ts';
import { noteMethods } from './notes.ts';
import { objectTypeMethods } from './object-types.ts';
import { queryMethods } from './queries.ts';
import { aggregateMethods } from './aggregate.ts';
import { reportMethods } from './reports.ts';
import { summaryMethods } from './summary.ts';
import { recordMethods } from './records.ts';
import { keyHolderMethods } from './key-holder.ts';
import { settingsMethods } from './settings.ts';
import { taskMethods } from './tasks.ts';
import { timelineMethods } from './timeline.ts';
import { viewMethods } from './views.ts';

export interface SqliteStoreOptions {
  /** A file path (parent directories are created) or ':memory:'. */
  path: string;
  /** How long a write waits for another process's lock before failing with `unavailable`; default 5000 ms. */
  busyTimeoutMs?: number;
  /** WAL frames past which the checkpoint thread restarts the WAL (default RESTART_FRAMES, 1 GB of pages). */
  walRestartFrames?: number;
}

type Method = (...args: any[]) => unknown;
type Async<T extends Record<string, Method>> = {
  [K in keyof T]: (...args: Parameters<T[K]>) => Promise<ReturnType<T[K]>>;
};

/**
 * The port is async, better-sqlite3 is synchronous: each method runs its synchronous body and
 * turns any failure into a CrmError through the one translateError. A method begins only once
 * the checkpoint thread is not restarting the WAL (Connection.holdIfAsked). Its writes join the
 * group of the event loop's turn, and a method that ran while a group was open resolves once that
 * group has committed (Connection.tx).
 */
function asyncMethods<T extends Record<string, Method>>(c: Connection, methods: T): Async<T> {
  const wrapped: Record<string, Method> = {};
  for (const [name, method] of Object.entries(methods)) {
    wrapped[name] = async (...args: unknown[]) => {
      c.holdIfAsked();
      let result: unknown;
      try {
        result = c.grouped(method, args);
      } catch (err) {
        translateError(err);
      }
      const committed = c.groupCommitted;
      if (committed) {
        try {
          await committed;
        } catch (err) {
          translateError(err);
        }
      }
      return result;
    };
  }
  return wrapped as Async<T>;
}

/**
 * The embedded Store: one SQLite file (WAL) holding records, their value index and an FTS5 index.
 * Call `init()` before anything else; it opens the database and applies pending migrations.
 */
export function createSqliteStore(opts: SqliteStoreOptions): Store {
  const c = new Connection(opts.path, opts.busyTimeoutMs, opts.walRestartFrames);
  const store: Store = {
    kind: 'sqlite',
    close: () => c.close(),
    beginCall: () => c.beginCall(),
    ...asyncMethods(c, {
      init: () => c.open(),
      ...settingsMethods(c),
      ...keyHolderMethods(c),
      ...objectTypeMethods(c),
      ...recordMethods(c),
      ...queryMethods(c),
      ...listMethods(c),
      ...entryMethods(c),
      ...viewMethods(c),
      ...noteMethods(c),
      ...taskMethods(c),
      ...timelineMethods(c),
      ...reportMethods(c),
      ...aggregateMethods(c),
      ...summaryMethods(c),
      ...commMethods(c),
      ...graphMethods(c),
      ...idempotencyMethods(c),
    }),
    ...dumpMethods(c),
    ...loadMethods(c),
    async health() {
      try {
        c.get('SELECT 1');
        return { ok: true };
      } catch (err) {
        return { ok: false, detail: err instanceof Error ? err.message : String(err) };
      }
    },
  };
  return store;
}
