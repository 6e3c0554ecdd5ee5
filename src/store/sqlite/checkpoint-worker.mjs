// Runs in a worker thread (see checkpointer.ts): plain JavaScript, so it loads without the
// TypeScript loader. It holds its own connection to the database file and copies committed WAL
// frames back into the file on a timer, which SQLite would otherwise do inside whichever commit
// crosses the WAL size limit, stalling that request. When the WAL has grown past a bound it asks
// the serving thread to pause before its next store call, restarts the WAL from its beginning and
// lets it go on.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

// A lower scheduling priority for this thread only (on Linux a thread's nice value is its own).
// On one core a pass costs 10-20 ms of CPU every 250 ms under a stream of creates, and at equal
// priority it took that in whole time slices from the thread serving requests. At nice 10 it
// gets about a tenth of a busy core, spread out, which still finishes each pass well within the
// interval. 19 was tried and dropped: under load a pass took seconds, so the WAL went that long
// without the fsync a checkpoint gives it (synchronous = NORMAL), and close() waited for it.
try {
  setPriority(workerData.nice);
} catch {
  // not permitted here: the thread runs at normal priority, as before
}

const db = new Database(workerData.path, { fileMustExist: true });
db.pragma(`busy_timeout = ${workerData.busyTimeoutMs}`);

/** How long a restart waits for readers to leave the WAL before giving up until the next pass. */
const RESTART_BUSY_MS = 200;

/** After a restart that found a reader it could not wait out, the next is not asked for before this. */
const RESTART_BACKOFF_MS = 5000;

/** The word shared with the serving thread, and its values (checkpointer.ts, HoldState). */
const state = workerData.state;
const { IDLE, ASKED, HELD } = workerData.holdStates;

/** Date.now() before which no restart is asked for (see RESTART_BACKOFF_MS). */
let quietUntil = 0;

const timer = setInterval(() => {
  if (Atomics.load(state, 0) === HELD) return; // a restart is under way (see below)
  try {
    // PASSIVE never waits for readers or writers: it copies what it can and tries again later.
    // It goes on while a restart is asked for and not yet granted, which takes as long as the
    // serving thread goes without a store call.
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    // Under a steady stream of writes a PASSIVE pass never catches the writer, and SQLite only
    // starts the WAL over when a write begins with every frame already copied, so the file would
    // grow for as long as the writes go on. Past the bound, the calls are held for a moment; not
    // while a long reader (a dump's snapshot) keeps frames from being copied, since the restart
    // would then wait for it with the calls held.
    if (result && result.log >= workerData.restartFrames && result.checkpointed === result.log && Date.now() >= quietUntil) {
      if (Atomics.compareExchange(state, 0, IDLE, ASKED) === IDLE) awaitHold();
    }
  } catch {
    // A busy or closing database: the next tick tries again.
  }
}, workerData.intervalMs);

/** Restarts the WAL once the serving thread, at its next store call, has paused (HELD). */
function awaitHold() {
  const waiting = Atomics.waitAsync(state, 0, ASKED);
  const granted = () => {
    if (Atomics.load(state, 0) === HELD) restart();
  };
  if (waiting.async) void waiting.value.then(granted);
  else granted();
}

/**
 * The serving thread waits (HELD): RESTART copies the frames written since the last pass and waits
 * for readers to leave the WAL, after which the next write starts the WAL over from its first
 * frame. Writers in other processes wait on their busy timeout as for any writer.
 */
function restart() {
  try {
    // The calls wait meanwhile, so a reader that will not leave is not waited for long.
    db.pragma(`busy_timeout = ${RESTART_BUSY_MS}`);
    const [result] = db.pragma('wal_checkpoint(RESTART)');
    if (result?.busy) quietUntil = Date.now() + RESTART_BACKOFF_MS;
  } catch {
    // Busy past the timeout or closing: a later pass over the bound asks again.
    quietUntil = Date.now() + RESTART_BACKOFF_MS;
  } finally {
    try {
      db.pragma(`busy_timeout = ${workerData.busyTimeoutMs}`);
    } catch {
      // closing
    }
    Atomics.store(state, 0, IDLE);
    Atomics.notify(state, 0);
  }
}

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  // A restart asked for and never granted is simply dropped: the serving thread stops looking at
  // the shared word once it has told this thread to stop, and the pending waitAsync does not keep
  // the thread alive.
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
