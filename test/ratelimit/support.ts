/** Shared by the rate-limit tests: Redis reachability, private redis-server children, helpers. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import type { RateLimitLogger } from '../../gateway/ratelimit/index.ts';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const IN_CI = process.env.CI === 'true';

/** True when Redis answers PING; in CI an unreachable Redis fails the run instead of skipping. */
export async function redisAvailable(url: string = REDIS_URL): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (err) {
    if (IN_CI) throw new Error(`CI=true but Redis at ${url} is unreachable: ${(err as Error).message}`);
    return false;
  } finally {
    client.disconnect();
  }
}

/** True when a redis-server binary is on the PATH; in CI its absence fails the run. */
export function redisServerAvailable(): boolean {
  const found = spawnSync('redis-server', ['--version']).status === 0;
  if (!found && IN_CI) throw new Error('CI=true but no redis-server binary is on the PATH');
  return found;
}

/** A key id no other test (or earlier run) uses. */
export function uniqueKey(label: string): string {
  return `test-${label}-${randomBytes(6).toString('hex')}`;
}

export interface CapturedLogger extends RateLimitLogger {
  warns: string[];
  infos: string[];
}

export function captureLogger(): CapturedLogger {
  const warns: string[] = [];
  const infos: string[] = [];
  return { warns, infos, warn: (msg) => warns.push(msg), info: (msg) => infos.push(msg) };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` until it holds; fails with `what` after `timeoutMs`. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(25);
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A redis-server child on a loopback port of its own, which a test may kill and restart. */
export class PrivateRedis {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again, on the same port) and resolves once it accepts connections. */
  async restart(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--enable-debug-command', 'local'];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 5000);
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
  }

  /** Kills the server abruptly (a crash, not a shutdown) and waits for it to be gone. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /** A plain client for inspecting the server; the caller disconnects it. */
  client(): Redis {
    return new Redis(this.url, { maxRetriesPerRequest: 1 });
  }
}
