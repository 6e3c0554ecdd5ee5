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

/** The answer to several calls counted at once (`RateLimiter.take`). */
export interface RateTake {
  /** How many of the calls asked for were admitted and recorded (0 … count). */
  admitted: number;
  /** The budget after them; `allowed` is true only when every call asked for was admitted. */
  decision: RateDecision;
}

/** How `take` treats calls the window cannot hold all of. */
export interface TakeOptions {
  /**
   * Admit as many as still fit (a JSON-RPC batch, whose messages are answered one by one); by
   * default all or none (a GraphQL operation, which runs whole).
   */
  partial?: boolean;
  /** Epoch ms, for tests and benchmarks; callers in production omit it. */
  now?: number;
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
  /**
   * Counts `count` calls of `keyId` at once (one request carrying several calls), atomically:
   * all or none, or with `partial` the first ones that fit. Calls not admitted are not recorded.
   */
  take(keyId: string, count: number, options?: TakeOptions): Promise<RateTake>;
  status(): LimiterStatus;
  close(): Promise<void>;
}

export interface RateLimitLogger {
  warn(msg: string): void;
  info(msg: string): void;
}

export interface SlidingLogState {
  /** Every call asked for was admitted. */
  allowed: boolean;
  /** Entries in the window after this call (including it when admitted). */
  count: number;
  /** Timestamp (ms) of the oldest entry in the window; `nowMs` when the window is empty. */
  oldestMs: number;
  /**
   * When refused, the timestamp (ms) of the entry whose ageing out makes room for the calls asked
   * for (the oldest for one call); defaults to `oldestMs`.
   */
  retryAtMs?: number;
  nowMs: number;
}

/** Builds the decision from a sliding log's state after one call. */
export function toDecision(state: SlidingLogState, limit: number, windowMs: number): RateDecision {
  const windowSeconds = Math.ceil(windowMs / 1000);
  // An entry at t counts while now < t + window, so a slot frees at oldest + window.
  const untilFreeMs = state.oldestMs + windowMs - state.nowMs;
  const resetSeconds = secondsUntil(untilFreeMs, windowSeconds);
  const retryAfterSeconds = state.retryAtMs === undefined ? resetSeconds : secondsUntil(state.retryAtMs + windowMs - state.nowMs, windowSeconds);
  return {
    allowed: state.allowed,
    limit,
    remaining: Math.max(0, limit - state.count),
    resetSeconds,
    retryAfterSeconds: state.allowed ? 0 : retryAfterSeconds,
    windowSeconds,
  };
}

function secondsUntil(ms: number, windowSeconds: number): number {
  return Math.min(windowSeconds, Math.max(1, Math.ceil(ms / 1000)));
}

/**
 * Which entry (0-based, oldest first) must age out before `count` calls fit all at once in a
 * window holding `held` of `limit`; undefined when they fit or can never fit (count > limit).
 */
export function blockingEntry(held: number, count: number, limit: number): number | undefined {
  if (count > limit || held + count <= limit) return undefined;
  return held + count - limit - 1;
}

/** Throws unless a number of calls to take at once is a positive integer. */
export function assertCount(count: number): void {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`calls to count must be a positive integer, got ${count}`);
}

/** How many of `count` calls a window holding `held` of `limit` admits: all, the ones that fit (partial), or none. */
export function admissible(held: number, count: number, limit: number, partial: boolean): number {
  const free = Math.max(0, limit - held);
  if (free >= count) return count;
  return partial ? free : 0;
}

/** Throws unless limit and window are positive integers (a limit of 0 would lock every key out). */
export function assertLimits(limit: number, windowMs: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`rate limit must be a positive integer, got ${limit}`);
  if (!Number.isInteger(windowMs) || windowMs < 1) throw new RangeError(`rate window must be a positive integer of ms, got ${windowMs}`);
}
