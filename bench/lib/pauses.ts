import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';

/**
 * What held a server's calls up besides their own work over a measured run: how late the event
 * loop ran a timer that should have fired every few milliseconds (a call arriving then waits as
 * long), and the garbage collector's pauses. A p99 well above p50 with a loop p99 near it says the
 * tail is the process stalling, not the call.
 */
export interface ServerPauses {
  /** 99th percentile of the event loop's delay, ms. */
  loop_p99_ms: number;
  loop_max_ms: number;
  /** Milliseconds of GC pause per second of the run. */
  gc_ms_per_s: number;
  gc_max_ms: number;
  gc_count: number;
}

/** How often the loop's delay is sampled: often enough for a p99 over a few seconds, cheap enough not to show. */
const RESOLUTION_MS = 5;

/** V8's full collection, when the process was started with `--expose-gc` (lib/child.ts does for the gateway). */
const fullGc = (globalThis as { gc?: () => void }).gc;

/**
 * Records pauses in this process and serves them on a private port of 127.0.0.1: `POST /reset`
 * starts a run, `GET /` reads it, `POST /collect` runs a full garbage collection (501 without
 * `--expose-gc`). Only the bench's gateway process runs this (bench/server.ts).
 */
export async function servePauses(): Promise<{ url: string; close(): Promise<void> }> {
  const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  loop.enable();
  let since = performance.now();
  let gcMs = 0;
  let gcMax = 0;
  let gcCount = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcMs += entry.duration;
      gcMax = Math.max(gcMax, entry.duration);
      gcCount++;
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  const read = (): ServerPauses => ({
    loop_p99_ms: loop.percentile(99) / 1e6,
    loop_max_ms: loop.max / 1e6,
    gc_ms_per_s: gcMs / Math.max(1e-3, (performance.now() - since) / 1000),
    gc_max_ms: gcMax,
    gc_count: gcCount,
  });
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/collect') {
      if (!fullGc) {
        res.writeHead(501).end('started without --expose-gc');
        return;
      }
      fullGc();
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'POST' && req.url === '/reset') {
      loop.reset();
      since = performance.now();
      gcMs = gcMax = gcCount = 0;
      res.writeHead(204).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(read()));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      loop.disable();
      gc.disconnect();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The runner's side: resets a server's record before a measured run and reads it after. */
export interface PauseProbe {
  /** A full garbage collection in the server, done when this resolves. */
  collect(): Promise<void>;
  reset(): Promise<void>;
  read(): Promise<ServerPauses>;
}

export function pauseProbe(url: string): PauseProbe {
  return {
    collect: async () => {
      const res = await fetch(`${url}/collect`, { method: 'POST' });
      if (res.status !== 204) throw new Error(`pause probe collect answered ${res.status}: ${await res.text()}`);
    },
    reset: async () => {
      const res = await fetch(`${url}/reset`, { method: 'POST' });
      if (res.status !== 204) throw new Error(`pause probe reset answered ${res.status}`);
    },
    read: async () => (await (await fetch(url)).json()) as ServerPauses,
  };
}
