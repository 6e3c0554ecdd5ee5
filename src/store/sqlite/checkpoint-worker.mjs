// Runs in a worker thread (see checkpointer.ts): plain JavaScript, so it loads without the
// TypeScript loader. It holds its own connection to the database file and copies committed WAL
// frames back into the file on a timer, which SQLite would otherwise do inside whichever commit
// crosses the WAL size limit, stalling that request.
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

const timer = setInterval(() => {
  try {
    // PASSIVE never waits for readers or writers: it copies what it can and tries again later.
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy or closing database: the next tick tries again.
  }
}, workerData.intervalMs);

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
