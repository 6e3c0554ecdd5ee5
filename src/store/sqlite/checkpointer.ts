import type Database from 'better-sqlite3';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/** How often the background thread checkpoints the WAL. */
const INTERVAL_MS = 250;
/** The checkpoint thread's nice value (see checkpoint-worker.mjs); the serving thread keeps its own. */
export const CHECKPOINT_NICE = 10;
/**
 * WAL frames (pages) past which the thread restarts the WAL: 1 GB of 4 KB pages. A create writes
 * about 40 pages (one or more in each of the b-trees it touches), so a stream of creates at the
 * bench's pace (about 1,500 a second on one core) reaches it every five seconds or so; each restart
 * holds calls for about 100 ms there. At 64 MB the holds came four times a second and made up a
 * fifth of the time.
 */
export const RESTART_FRAMES = 262_144;
/**
 * A hold the thread has not released by then is released anyway, should the thread be wedged.
 * A restart waits at most 200 ms for readers and otherwise only for copying frames (about 1.5 s
 * for a whole 1 GB WAL here), so this is far past any real one.
 */
const HOLD_LIMIT_MS = 10_000;

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
  /** While the thread restarts the WAL: resolves when calls may go on (see held). */
  #hold: { promise: Promise<void>; release: () => void; timer: NodeJS.Timeout } | null = null;

  constructor(db: Database.Database, busyTimeoutMs: number, restartFrames: number = RESTART_FRAMES) {
    db.pragma('wal_autocheckpoint = 0');
    this.#worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
      workerData: { path: db.name, busyTimeoutMs, intervalMs: INTERVAL_MS, nice: CHECKPOINT_NICE, restartFrames },
    });
    this.#exited = once(this.#worker, 'exit').then(() => undefined, () => undefined);
    this.#worker.unref();
    this.#worker.on('error', () => {
      this.#release();
      if (db.open) db.pragma('wal_autocheckpoint = 1000');
    });
    this.#worker.on('exit', () => this.#release());
    this.#worker.on('message', (message) => {
      if (message === 'hold') this.#holdCalls();
      else if (message === 'release') this.#release();
    });
  }

  /**
   * Set while the thread restarts the WAL: a store call waits for it before it begins. SQLite
   * starts the WAL over only when a write begins with every frame copied into the file, which a
   * stream of writes never allows (the file grew by 2.5 GB per 10 s bench cell of creates, and each
   * create cost more as it grew); so past RESTART_FRAMES the thread asks for a pause. No statement
   * runs on this thread while it handles the message, so none is open when the thread is told to
   * go on. A write begun meanwhile would fail at once with SQLITE_BUSY if its transaction had read
   * first (SQLite does not wait for a lock a reading transaction upgrades to); reads are held too,
   * so the thread has the CPU to itself and the pause is short.
   */
  get held(): Promise<void> | null {
    return this.#hold?.promise ?? null;
  }

  #holdCalls(): void {
    if (!this.#hold) {
      let release!: () => void;
      const promise = new Promise<void>((resolve) => (release = resolve));
      const timer = setTimeout(() => this.#release(), HOLD_LIMIT_MS);
      timer.unref();
      this.#hold = { promise, release, timer };
    }
    this.#worker.postMessage('held');
  }

  #release(): void {
    const hold = this.#hold;
    if (!hold) return;
    this.#hold = null;
    clearTimeout(hold.timer);
    hold.release();
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
    this.#release();
    await this.#exited;
  }
}
