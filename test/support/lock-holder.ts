import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A second process holding SQLite's write lock on a file, as the CLI does for the length of its transaction. */
export interface LockHolder {
  /** Resolves once the process has committed and let the lock go. */
  released: Promise<void>;
  /** Ends the process early (after a failed expectation). */
  kill(): void;
}

const SCRIPT = `
  const Database = require('better-sqlite3');
  const [path, workspaceId, holdMs] = process.argv.slice(1);
  const db = new Database(path);
  db.pragma('busy_timeout = 5000');
  const touch = db.prepare("UPDATE workspaces SET name = name || '' WHERE id = ?");
  db.transaction(() => touch.run(workspaceId)).immediate();
  db.exec('BEGIN IMMEDIATE');
  touch.run(workspaceId);
  console.log('held');
  setTimeout(() => { db.exec('COMMIT'); db.close(); console.log('released'); }, Number(holdMs));
`;

/**
 * Starts a process that commits a write to the workspace's row (so a snapshot read before it is
 * stale) and then holds the write lock in a second transaction for `holdMs`. Resolves once the
 * lock is held.
 */
export async function holdWriteLock(path: string, workspaceId: string, holdMs: number): Promise<LockHolder> {
  const child: ChildProcess = spawn(process.execPath, ['-e', SCRIPT, path, workspaceId, String(holdMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const said = (word: string) => new Promise<void>((resolve, reject) => {
    lines.on('line', (line) => line === word && resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before it said ${word}`)));
  });
  const released = said('released');
  released.catch(() => {});
  try {
    await said('held');
  } catch (err) {
    child.kill();
    throw err;
  }
  return { released, kill: () => child.kill() };
}
