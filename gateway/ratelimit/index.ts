/**
 * Per-key rate limiting (README.md, "Keys, scopes, roles, billing"): `RATE_LIMIT_PER_MINUTE` calls (default 1000) per API
 * key in any sliding 60 s window, shared by every gateway replica through Redis when
 * `REDIS_URL` is set, in-process otherwise.
 *
 * Algorithm: an exact sliding LOG (one timestamp per admitted call), not the weighted
 * two-bucket counter. The counter is O(1) per key but approximates: it assumes calls were
 * spread evenly over the previous bucket, so a burst there can admit more or fewer than the
 * limit inside a real window, and its Retry-After is a guess. The log admits exactly `limit`
 * calls in every window and knows when the oldest call ages out, so Retry-After is exact. Its
 * cost is bounded: refused calls are not recorded, so a key holds at most `limit` entries
 * (1000 × ~40 bytes in Redis), and a key's entries expire with its window.
 *
 * Clock: Redis uses its server `TIME` (one clock for every replica); the in-process limiter and
 * the fallback use `Date.now()`. `hit(key, now)` accepts an explicit time for tests.
 */
import { MemoryRateLimiter } from './memory.ts';
import { ResilientRateLimiter, type ResilientRateLimiterOptions } from './resilient.ts';
import type { RateLimiter, RateLimitLogger } from './types.ts';

export type { LimiterStatus, RateDecision, RateLimitBackend, RateLimiter, RateLimitLogger, RateTake, TakeOptions } from './types.ts';
export { RATE_LIMIT_POLICY, RateLimitedError, rateLimitHeaders } from './headers.ts';
export { MemoryRateLimiter } from './memory.ts';
export { meterCalls, rateLimitMiddleware, type MeteredCalls } from './middleware.ts';
export { KEY_PREFIX, RedisRateLimiter } from './redis.ts';
export { ResilientRateLimiter } from './resilient.ts';

/** The Redis tuning knobs (timeouts, probe interval, registry) apply only with a `redisUrl`. */
export type RateLimiterOptions = Omit<ResilientRateLimiterOptions, 'redisUrl' | 'logger'> & {
  /** Redis-backed (with the in-process fallback) when set; in-process only when absent. */
  redisUrl?: string | undefined;
  /** Where outage lines go; defaults to the console. */
  logger?: RateLimitLogger;
};

const consoleLogger: RateLimitLogger = {
  warn: (msg) => console.warn(msg),
  info: (msg) => console.info(msg),
};

/**
 * The gateway's limiter: Redis with the in-process fallback when `redisUrl` is given, the
 * in-process log alone otherwise. Close it on shutdown (it holds a connection and timers).
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { redisUrl, ...rest } = options;
  if (!redisUrl) return new MemoryRateLimiter(rest);
  return new ResilientRateLimiter({ ...rest, redisUrl, logger: options.logger ?? consoleLogger });
}

/** The limiter's options from `REDIS_URL` and `RATE_LIMIT_PER_MINUTE` (README.md, "Configuration"). */
export function rateLimitOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): Pick<RateLimiterOptions, 'redisUrl' | 'limit' | 'windowMs'> {
  const raw = env.RATE_LIMIT_PER_MINUTE?.trim() || '1000';
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < 1) throw new RangeError(`RATE_LIMIT_PER_MINUTE must be a positive integer, got ${JSON.stringify(raw)}`);
  return { redisUrl: env.REDIS_URL?.trim() || undefined, limit, windowMs: 60_000 };
}
