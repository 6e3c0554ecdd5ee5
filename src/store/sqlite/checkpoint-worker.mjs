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
