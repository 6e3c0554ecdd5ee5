import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { TS_LOADER as LOADER } from '../../gateway/loader/index.ts';
import { pauseProbe, type PauseProbe } from './pauses.ts';
import { peakRssMb, pin, resetPeakRss } from './proc.ts';

export type Target = 'crm' | 'node-http' | 'koa';

/** A server process started by bench/server.ts. */
export interface ServerChild {
  target: Target;
  url: string;
  pid: number;
  pinned: boolean;
  /** The gateway's record of its event-loop delay and GC pauses; absent for the baselines. */
  pauses?: PauseProbe;
  /** Starts a new phase for peak RSS. */
  resetPeak(): void;
  /** Peak RSS (MB) since start or the last resetPeak. */
  peakRssMb(): number | null;
  stop(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('../server.ts', import.meta.url));
const READY_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;

/**
 * How the benchmarks serve the gateway: the limiter still runs on every call, with the limit out
 * of reach and a 100 ms window keeping its log as short as production's.
 */
export const GATEWAY_ENV = { LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_WINDOW_MS: '100', STORE: 'sqlite', REDIS_URL: '', NEO4J_URI: '' };

export interface ChildOptions {
  env?: Record<string, string>;
  /** CPU to pin the server to (the load generator takes the other); undefined: no pinning. */
  cpu?: number;
  /** Directory for a V8 CPU profile (node --cpu-prof), written when the server stops. */
  cpuProfDir?: string;
  /** A command and its options that run the Node process (valgrind for instructions.ts); its pid is the server's. */
  wrapper?: string[];
  /** How long the server may take to print BENCH_READY; default 180 s. */
  readyTimeoutMs?: number;
}

/** Spawns the server in its own Node process (the service's loader, as `npm start`) and waits for its BENCH_READY line. */
export async function startChild(target: Target, opts: ChildOptions = {}): Promise<ServerChild> {
  // The gateway may be asked for a full collection between cells (lib/pauses.ts); the baselines stay bare.
  const flags = [
    '--import', LOADER, ...(target === 'crm' ? ['--expose-gc'] : []), ...(opts.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfDir}`] : []),
  ];
  const [command, ...args] = [...(opts.wrapper ?? []), process.execPath, ...flags, ENTRY];
  const child = spawn(command!, args, {
    env: { ...process.env, ...opts.env, BENCH_TARGET: target },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr.push(chunk.toString());
    if (stderr.length > 50) stderr.shift();
  });
  const ready = await waitReady(child, () => stderr.join(''), opts.readyTimeoutMs ?? READY_TIMEOUT_MS);
  const pid = child.pid!;
  const pinned = opts.cpu !== undefined && pin(pid, opts.cpu);
  let stopped: Promise<void> | null = null;
  return {
    target, url: ready.url, pid, pinned,
    ...(ready.pauses ? { pauses: pauseProbe(ready.pauses) } : {}),
    resetPeak: () => resetPeakRss(pid),
    peakRssMb: () => peakRssMb(pid),
    stop: () => (stopped ??= stop(child)),
  };
}

function waitReady(child: ChildProcess, errors: () => string, timeoutMs: number): Promise<{ url: string; pauses?: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bench server did not start within ${timeoutMs / 1000} s\n${errors()}`));
    }, timeoutMs);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('BENCH_READY ')) return;
      clearTimeout(timer);
      resolve(JSON.parse(line.slice('BENCH_READY '.length)) as { url: string; pauses?: string });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bench server exited with ${code} before it was ready\n${errors()}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
