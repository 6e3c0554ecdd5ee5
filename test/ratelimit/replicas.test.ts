/** Two real gateway processes (child processes under the service's loader) sharing one Redis. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TS_LOADER as LOADER } from '../../gateway/loader/index.ts';
import { REDIS_URL, redisAvailable, uniqueKey } from './support.ts';

const reachable = await redisAvailable();
const SCRIPT = fileURLToPath(new URL('./fixtures/gateway-process.ts', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  // Kill the replica's whole process group, which this test created.
  for (const child of children.splice(0)) if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
});

/** Starts one replica and resolves with it and its stdout lines once it says "ready". */
async function startReplica(keyId: string, limit: number, calls: number): Promise<Replica> {
  const child = spawn(process.execPath, ['--import', LOADER, SCRIPT, keyId, String(limit), String(calls)], { env: { ...process.env, REDIS_URL }, detached: true });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done) throw new Error(`replica exited early: ${stderr}`);
    return line.value;
  };
  expect(await next()).toBe('ready');
  return { child, next, exited };
}

interface Replica {
  child: ChildProcessWithoutNullStreams;
  next: () => Promise<string>;
  exited: Promise<number | null>;
}

describe.skipIf(!reachable)('two gateway processes on one Redis', () => {
  it('admit the limit in total, not the limit each', async () => {
    const key = uniqueKey('replicas');
    const replicas = await Promise.all([startReplica(key, 7, 10), startReplica(key, 7, 10)]);
    for (const { child } of replicas) child.stdin.end('go\n');
    const results = await Promise.all(replicas.map(async ({ next }) => JSON.parse(await next()) as { admitted: number; healthy: boolean }));
    expect(results.every((r) => r.healthy)).toBe(true);
    // Each replica alone would have admitted 7 of its 10.
    expect(results[0]!.admitted + results[1]!.admitted).toBe(7);
    expect(await Promise.all(replicas.map((r) => r.exited))).toEqual([0, 0]);
  });
});
