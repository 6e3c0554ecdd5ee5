// Runs in a worker thread (see checkpointer.ts): plain JavaScript, so it loads without the
// TypeScript loader. It holds its own connection to the database file and copies committed WAL
// frames back into the file on a timer, which SQLite would otherwise do inside whichever commit
// crosses the WAL size limit, stalling that request.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.path, { fileMustExist: true });
db.pragma(`busy_timeout = ${workerData.busyTimeoutMs}`);

const timer = setInterval(() => {
  try {
    // PASSIVE never waits for readers or writers: it copies what it can and tries again later.
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    // Under a steady stream of writes the WAL is never found fully copied between two commits,
    // so SQLite never starts it over and the file grows by every write (a bulk load left 3 GB
    // beside a 600 MB database). Once a large WAL has been copied entirely, TRUNCATE waits for
    // the writer of the moment and empties it: a short wait, as nothing is left to copy.
    if (result && result.log >= workerData.truncateFrames && result.checkpointed === result.log) {
      db.pragma('wal_checkpoint(TRUNCATE)');
    }
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
