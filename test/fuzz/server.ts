import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { TS_LOADER as LOADER } from '../../gateway/loader/index.ts';
import type { Harness, Workspace } from '../e2e/harness.ts';

const SCRIPT = fileURLToPath(new URL('./server-process.ts', import.meta.url));

/** The gateway under test, in a child process whose event loop we can probe. */
export interface ServerProcess {
  /** Enough of a Harness for `callTool` and `rpc`. */
  h: Harness;
  ws: Workspace;
  other: Workspace;
  /** The server's data directory (its SQLite file), for full exports between calls. */
  dataDir: string;
  /** The longest the server's event loop was blocked since the previous probe, in ms. */
  probe(): Promise<number>;
  close(): Promise<void>;
}

/** One event loop stall allowed per call, as the issue states it (a safety bound, not a benchmark). */
export const STALL_BOUND_MS = 250;

export async function startServerProcess(): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', LOADER, SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<any> => {
    const { value, done } = await lines.next();
    if (done) throw new Error('the server process exited');
    return JSON.parse(value as string);
  };
  const ready = await next();
  let queue = Promise.resolve<unknown>(undefined);
  const ask = <T>(line: string): Promise<T> => {
    const answer = queue.then(() => {
      child.stdin.write(`${line}\n`);
      return next();
    });
    queue = answer.catch(() => undefined);
    return answer as Promise<T>;
  };
  const h = { url: ready.url, config: { bridgeShape: 'envelope' }, ws: ready.ws, other: ready.other } as unknown as Harness;
  return {
    h, ws: ready.ws, other: ready.other, dataDir: ready.dataDir,
    probe: async () => (await ask<{ maxMs: number }>('probe')).maxMs,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.write('close\n');
      await exited;
    },
  };
}
