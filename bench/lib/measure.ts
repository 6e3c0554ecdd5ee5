import autocannon from 'autocannon';
import type { PauseProbe, ServerPauses } from './pauses.ts';
import type { HttpCall } from './styles.ts';

export interface LoadOptions {
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

/** One cell of the table: what a server did under a closed loop of `connections` callers. */
export interface Figures {
  calls_per_s: number;
  p50_ms: number;
  p99_ms: number;
  mean_ms: number;
  calls: number;
  /** Transport errors, timeouts, non-2xx answers and 2xx answers that were not a success. */
  errors: number;
  bytes_per_answer: number;
  /**
   * The server's CPU time (user + system, all its threads) over the measured run per answer, when
   * the caller gave a way to read it: steadier than calls/s on a shared machine, since time the
   * server waits for a CPU is not in it. Absent for baselines and where /proc is not readable.
   * With an `afterwards` step it includes the CPU the server used during that step.
   */
  server_cpu_ms_per_call?: number;
  /** The part of server_cpu_ms_per_call used during the `afterwards` step: work the calls left behind. */
  server_cpu_left_ms_per_call?: number;
  /** The server's event-loop delay and GC pauses over the measured run, where it records them. */
  server_pauses?: ServerPauses;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * (sorted.length - 1)))]!;
}

/**
 * Drives the server with autocannon; `next` builds each request, so params vary per call.
 * Latency is taken from autocannon's per-response event at sub-millisecond precision (its own
 * histogram keeps whole milliseconds, too coarse for a floor of ~0.5 ms). `afterwards` runs once
 * the load stops (waiting for the server to go quiet, say) and its server CPU counts as the run's.
 */
export async function hammer(
  url: string, next: () => HttpCall, verify: ((body: string) => boolean) | undefined, opts: LoadOptions,
  serverCpuSeconds?: () => number | null, pauses?: PauseProbe, afterwards?: () => Promise<void>,
): Promise<Figures> {
  const run = (seconds: number, onResponse?: (status: number, ms: number) => void): Promise<autocannon.Result> =>
    new Promise((resolve, reject) => {
      const instance = autocannon({
        url,
        connections: opts.connections,
        duration: seconds,
        // Slow cells (list at 1M) are measured, not cut off at autocannon's default 10 s.
        timeout: 60,
        requests: [{ setupRequest: (req) => ({ ...req, ...next() }) }],
        ...(verify ? { verifyBody: (body: string | Buffer | undefined) => verify(String(body ?? '')) } : {}),
      }, (err, result) => (err ? reject(err as Error) : resolve(result)));
      if (onResponse) instance.on('response', (_client, status, _bytes, ms) => onResponse(status, ms));
    });
  if (opts.warmupSeconds > 0) await run(opts.warmupSeconds);
  const latencies: number[] = [];
  await pauses?.reset();
  const cpuBefore = serverCpuSeconds?.() ?? null;
  const result = await run(opts.seconds, (status, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const cpuAtStop = cpuBefore === null ? null : serverCpuSeconds!();
  const paused = await pauses?.read();
  await afterwards?.();
  const cpuAfter = cpuBefore === null || !afterwards ? cpuAtStop : serverCpuSeconds!();
  const sorted = Float64Array.from(latencies).sort();
  const ok = sorted.length - result.mismatches;
  return {
    calls_per_s: ok / result.duration,
    p50_ms: percentile(sorted, 0.5),
    p99_ms: percentile(sorted, 0.99),
    mean_ms: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
    calls: ok,
    // `errors` already counts timeouts.
    errors: result.errors + result.non2xx + result.mismatches,
    bytes_per_answer: result.throughput.total / Math.max(1, result.requests.total),
    ...(cpuBefore !== null && cpuAtStop !== null && cpuAfter !== null && result.requests.total > 0
      ? {
        server_cpu_ms_per_call: ((cpuAfter - cpuBefore) * 1000) / result.requests.total,
        ...(afterwards ? { server_cpu_left_ms_per_call: ((cpuAfter - cpuAtStop) * 1000) / result.requests.total } : {}),
      }
      : {}),
    ...(paused ? { server_pauses: paused } : {}),
  };
}
