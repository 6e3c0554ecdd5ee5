/**
 * The in-process sliding log: the same semantics as the Redis script (see index.ts), for a
 * single gateway without `REDIS_URL` and as the fallback while Redis is unavailable. Each key
 * holds at most `limit` ascending timestamps; a periodic sweep drops keys whose calls have all
 * aged out, so memory is bounded by the keys active within one window.
 */
import {
  admissible, assertCount, blockingEntry, assertLimits, toDecision, type LimiterStatus, type RateDecision, type RateLimiter, type RateTake, type TakeOptions,
} from './types.ts';

export interface MemoryRateLimiterOptions {
  limit: number;
  windowMs: number;
  /** How often idle keys are dropped; defaults to the window (at least 1 s). */
  sweepIntervalMs?: number;
}

export class MemoryRateLimiter implements RateLimiter {
  readonly backend = 'memory' as const;
  readonly limit: number;
  readonly windowMs: number;
  private readonly logs = new Map<string, number[]>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(options: MemoryRateLimiterOptions) {
    assertLimits(options.limit, options.windowMs);
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    const every = options.sweepIntervalMs ?? Math.max(options.windowMs, 1000);
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  hit(keyId: string, now: number = Date.now()): Promise<RateDecision> {
    return Promise.resolve(this.hitSync(keyId, now));
  }

  /** The synchronous core of `hit`, for callers that cannot await. */
  hitSync(keyId: string, now: number = Date.now()): RateDecision {
    return this.takeSync(keyId, 1, false, now).decision;
  }

  async take(keyId: string, count: number, options: TakeOptions = {}): Promise<RateTake> {
    return this.takeSync(keyId, count, options.partial ?? false, options.now ?? Date.now());
  }

  /**
   * Records calls another limiter admitted (as many as the window holds), so that metering here
   * goes on from them: the fallback of the Redis limiter keeps this replica's calls while Redis
   * answers, and an outage then starts from them instead of from an empty window.
   */
  record(keyId: string, count: number, now: number = Date.now()): void {
    this.takeSync(keyId, count, true, now);
  }

  private takeSync(keyId: string, count: number, partial: boolean, now: number): RateTake {
    assertCount(count);
    let log = this.logs.get(keyId);
    if (!log) {
      log = [];
      this.logs.set(keyId, log);
    }
    dropAged(log, now - this.windowMs);
    const admitted = admissible(log.length, count, this.limit, partial);
    for (let i = 0; i < admitted; i += 1) insertSorted(log, now);
    const allowed = admitted === count;
    // Refused whole: the retry waits until enough entries have aged out for all of them.
    const blocking = allowed || partial ? undefined : blockingEntry(log.length, count, this.limit);
    const state = {
      allowed, count: log.length, oldestMs: log[0] ?? now, nowMs: now, ...(blocking === undefined ? {} : { retryAtMs: log[blocking] ?? now }),
    };
    return { admitted, decision: toDecision(state, this.limit, this.windowMs) };
  }

  /** Drops keys with no call inside the window; returns how many were dropped. */
  sweep(now: number = Date.now()): number {
    let dropped = 0;
    for (const [keyId, log] of this.logs) {
      const newest = log[log.length - 1];
      if (newest === undefined || newest <= now - this.windowMs) {
        this.logs.delete(keyId);
        dropped += 1;
      }
    }
    return dropped;
  }

  /** How many keys are held in memory. */
  get trackedKeys(): number {
    return this.logs.size;
  }

  status(): LimiterStatus {
    return { backend: 'memory', healthy: true };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.logs.clear();
  }
}

/** Removes the entries at or before `cutoff` (they have aged out of the window). */
function dropAged(log: number[], cutoff: number): void {
  let aged = 0;
  while (aged < log.length && (log[aged] as number) <= cutoff) aged += 1;
  if (aged > 0) log.splice(0, aged);
}

/** Appends `ts`, keeping the log ascending even when a caller's clock steps back. */
function insertSorted(log: number[], ts: number): void {
  let at = log.length;
  while (at > 0 && (log[at - 1] as number) > ts) at -= 1;
  log.splice(at, 0, ts);
}
