import type Database from 'better-sqlite3';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/** How often the background thread checkpoints the WAL. */
const INTERVAL_MS = 250;
/** The checkpoint thread's nice value (see checkpoint-worker.mjs); the serving thread keeps its own. */
export const CHECKPOINT_NICE = 10;

/**
 * Moves WAL checkpoints out of the request path. SQLite's automatic checkpoint runs inside the
 * commit that grows the WAL past 1000 pages, so one create in a few hundred paid for copying the
 * whole WAL back into the database file (records.create p99 was six times its p50). The
 * connection turns automatic checkpoints off and a worker thread with its own connection
 * checkpoints every INTERVAL_MS instead. Should the worker fail, automatic checkpoints come back,
 * so the WAL never grows without bound. Other processes (the CLI) keep their own defaults.
 */
export class Checkpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;

  constructor(db: Database.Database, busyTimeoutMs: number) {
    db.pragma('wal_autocheckpoint = 0');
    this.#worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
      workerData: { path: db.name, busyTimeoutMs, intervalMs: INTERVAL_MS, nice: CHECKPOINT_NICE },
    });
    this.#exited = once(this.#worker, 'exit').then(() => undefined, () => undefined);
    this.#worker.unref();
    this.#worker.on('error', () => {
      if (db.open) db.pragma('wal_autocheckpoint = 1000');
    });
  }

  /**
   * Stops the thread and resolves once it has closed its connection and exited. Until then the
   * thread may be inside a checkpoint holding the database's checkpoint lock, so whoever opens the
   * file next (a TRUNCATE checkpoint, a copy of the file) must wait for this.
   */
  async stop(): Promise<void> {
    // Referenced again while it winds down: an unreferenced thread would let a process with
    // nothing else to do exit before this promise settles (a CLI command's last await).
    this.#worker.ref();
    this.#worker.postMessage('stop');
    await this.#exited;
  }
}
