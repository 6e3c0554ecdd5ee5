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
 * How long a held call waits at most; a restart the thread has not finished by then is given up
 * on, should the thread be wedged. A restart waits at most 200 ms for readers and otherwise only
 * for copying the frames written since the last pass, so this is far past any real one.
 */
const HOLD_LIMIT_MS = 10_000;

/**
 * The one Int32 the serving thread and the checkpoint thread share (see holdIfAsked): IDLE, ASKED
 * (the thread wants to restart the WAL and asks the serving thread to pause) or HELD (the serving
 * thread is paused until the thread sets IDLE again). The thread is given these values with its
 * workerData, so they are defined here only.
 */
const HoldState = { IDLE: 0, ASKED: 1, HELD: 2 } as const;

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
  readonly #state = new Int32Array(new SharedArrayBuffer(4));
  /** Set once the thread is told to stop or has gone: nothing is waited for any more. */
  #gone = false;

  constructor(db: Database.Database, busyTimeoutMs: number, restartFrames: number = RESTART_FRAMES) {
    db.pragma('wal_autocheckpoint = 0');
    this.#worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
      workerData: { path: db.name, busyTimeoutMs, intervalMs: INTERVAL_MS, nice: CHECKPOINT_NICE, restartFrames, state: this.#state, holdStates: HoldState },
    });
    this.#exited = once(this.#worker, 'exit').then(() => undefined, () => undefined);
    this.#worker.unref();
    this.#worker.on('error', () => {
      this.#gone = true;
      if (db.open) db.pragma('wal_autocheckpoint = 1000');
    });
    this.#worker.on('exit', () => {
      this.#gone = true;
    });
  }

  /**
   * Called before every store call, when no statement of this thread is open: if the thread has
   * asked to restart the WAL, waits here (blocking this thread) until it has. SQLite starts the
   * WAL over only when a write begins with every frame copied into the file, which a stream of
   * writes never allows (the file grew by 2.5 GB per 10 s bench cell of creates, and each create
   * cost more as it grew); so past RESTART_FRAMES the thread asks for a pause. A write begun
   * meanwhile would fail at once with SQLITE_BUSY if its transaction had read first (SQLite does
   * not wait for a lock a reading transaction upgrades to), so calls are paused, reads as well,
   * and the thread has the CPU to itself. The handshake is a word of shared memory rather than a
   * message, since a message waits for this thread's event loop to turn, which a caller awaiting
   * one store call after another never lets it do (the bench's dataset loader): the thread then
   * stopped checkpointing while it waited, and the WAL of a million-record load grew to 30 GB.
   */
  holdIfAsked(): void {
    const state = this.#state;
    if (Atomics.load(state, 0) !== HoldState.ASKED || this.#gone) return;
    if (Atomics.compareExchange(state, 0, HoldState.ASKED, HoldState.HELD) !== HoldState.ASKED) return;
    Atomics.notify(state, 0);
    if (Atomics.wait(state, 0, HoldState.HELD, HOLD_LIMIT_MS) === 'timed-out') {
      // A wedged thread: go on without it, as if it had never asked.
      Atomics.compareExchange(state, 0, HoldState.HELD, HoldState.IDLE);
    }
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
    this.#gone = true;
    this.#worker.postMessage('stop');
    await this.#exited;
  }
}
