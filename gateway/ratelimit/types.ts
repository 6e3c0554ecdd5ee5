/**
 * The limiter port shared by the Redis and in-process sliding logs, and the one function that
 * turns a log's state into the decision both of them return, so the two cannot drift apart.
 */

export type RateLimitBackend = 'redis' | 'memory';

/** The answer to one call: whether it may run, and the budget to show in the headers. */
export interface RateDecision {
  allowed: boolean;
  /** Calls admitted per window. */
  limit: number;
  /** Calls still admissible right now (after this one, when it was admitted). */
  remaining: number;
  /** Seconds until the oldest call in the window ages out and frees a slot (>= 1). */
  resetSeconds: number;
  /** 0 when allowed; when refused, whole seconds until a retry can be admitted (>= 1). */
  retryAfterSeconds: number;
  windowSeconds: number;
}

/** What /readyz shows: `healthy` is false while a Redis limiter runs on its fallback. */
export interface LimiterStatus {
  backend: RateLimitBackend;
  healthy: boolean;
  /** ISO 8601 start of the current outage, present only while degraded. */
  degraded_since?: string;
}

export interface RateLimiter {
  /** The backend configured; `status()` says whether it is the one answering. */
  readonly backend: RateLimitBackend;
  /**
   * Counts one call of `keyId` unless the key has used its limit; a refused call is not
   * recorded. `now` (epoch ms) is for tests and benchmarks; callers in production omit it.
   */
  hit(keyId: string, now?: number): Promise<RateDecision>;
  status(): LimiterStatus;
  close(): Promise<void>;
}

export interface RateLimitLogger {
  warn(msg: string): void;
  info(msg: string): void;
}

export interface SlidingLogState {
  allowed: boolean;
  /** Entries in the window after this call (including it when admitted). */
  count: number;
  /** Timestamp (ms) of the oldest entry in the window; `nowMs` when the window is empty. */
  oldestMs: number;
  nowMs: number;
}

/** Builds the decision from a sliding log's state after one call. */
export function toDecision(state: SlidingLogState, limit: number, windowMs: number): RateDecision {
  const windowSeconds = Math.ceil(windowMs / 1000);
  // An entry at t counts while now < t + window, so a slot frees at oldest + window.
  const untilFreeMs = state.oldestMs + windowMs - state.nowMs;
  const resetSeconds = Math.min(windowSeconds, Math.max(1, Math.ceil(untilFreeMs / 1000)));
  return {
    allowed: state.allowed,
    limit,
    remaining: Math.max(0, limit - state.count),
    resetSeconds,
    retryAfterSeconds: state.allowed ? 0 : resetSeconds,
    windowSeconds,
  };
}

/** Throws unless limit and window are positive integers (a limit of 0 would lock every key out). */
export function assertLimits(limit: number, windowMs: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`rate limit must be a positive integer, got ${limit}`);
  if (!Number.isInteger(windowMs) || windowMs < 1) throw new RangeError(`rate window must be a positive integer of ms, got ${windowMs}`);
}
