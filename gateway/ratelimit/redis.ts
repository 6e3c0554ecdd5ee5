/**
 * The shared sliding log in Redis: one sorted set per key (`crm:rl:<keyId>`, score = call time
 * in ms, member unique per call), updated by ONE Lua script so that prune, count, admit and
 * expire are atomic across every gateway replica. The script is run by EVALSHA; on NOSCRIPT
 * (a restarted or flushed server) it is sent once with EVAL, which caches it again.
 *
 * Clock: without an explicit `now` the script reads the Redis server's `TIME`, so replicas with
 * skewed clocks still agree on one timeline. An explicit `now` (tests, benchmarks) is used as
 * given; do not mix both on one key.
 *
 * This class does not own its client and never falls back; `resilient.ts` adds both.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  assertCount, assertLimits, toDecision, type LimiterStatus, type RateDecision, type RateLimiter, type RateTake, type TakeOptions,
} from './types.ts';

export const KEY_PREFIX = 'crm:rl:';

/**
 * KEYS[1] log; ARGV limit, window ms, now ms ('' = server TIME), unique member prefix, calls
 * asked for, '1' to admit the ones that fit (else all or none). Each admitted call is one member
 * (`<prefix>:<i>`), so the log still holds one entry per call. Returns admitted, entries held,
 * the oldest entry, now, and for calls refused whole the entry whose ageing out makes room for
 * all of them (else the oldest).
 */
export const SLIDING_LOG_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local want = tonumber(ARGV[5])
local free = limit - count
local admitted = 0
if free >= want then
  admitted = want
elseif ARGV[6] == '1' and free > 0 then
  admitted = free
end
if admitted > 0 then
  for i = 1, admitted do
    redis.call('ZADD', KEYS[1], now, ARGV[4] .. ':' .. i)
  end
  redis.call('PEXPIRE', KEYS[1], window)
  count = count + admitted
end
local oldest = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]) or now
local retry_at = oldest
if admitted < want and ARGV[6] ~= '1' and want <= limit then
  local blocking = count + want - limit - 1
  retry_at = tonumber(redis.call('ZRANGE', KEYS[1], blocking, blocking, 'WITHSCORES')[2]) or oldest
end
return { admitted, count, oldest, now, retry_at }
`;

export const SLIDING_LOG_SHA = createHash('sha1').update(SLIDING_LOG_SCRIPT).digest('hex');

export interface RedisRateLimiterOptions {
  limit: number;
  windowMs: number;
}

export class RedisRateLimiter implements RateLimiter {
  readonly backend = 'redis' as const;
  readonly limit: number;
  readonly windowMs: number;
  /** Makes members unique across processes; the counter makes them unique within one. */
  private readonly instanceId = randomBytes(6).toString('base64url');
  private sequence = 0;

  constructor(
    private readonly client: Redis,
    options: RedisRateLimiterOptions,
  ) {
    assertLimits(options.limit, options.windowMs);
    this.limit = options.limit;
    this.windowMs = options.windowMs;
  }

  async hit(keyId: string, now?: number): Promise<RateDecision> {
    return (await this.take(keyId, 1, now === undefined ? {} : { now })).decision;
  }

  async take(keyId: string, count: number, options: TakeOptions = {}): Promise<RateTake> {
    assertCount(count);
    this.sequence += 1;
    const { now, partial = false } = options;
    const args = [
      this.limit, this.windowMs, now === undefined ? '' : Math.floor(now), `${this.instanceId}:${this.sequence}`, count, partial ? '1' : '0',
    ];
    const reply = await this.run(KEY_PREFIX + keyId, args);
    if (!Array.isArray(reply) || reply.length !== 5 || !reply.every((n) => typeof n === 'number')) {
      throw new Error(`unexpected reply from the rate-limit script: ${JSON.stringify(reply)}`);
    }
    const [admitted, held, oldestMs, nowMs, retryAtMs] = reply as [number, number, number, number, number];
    const state = { allowed: admitted === count, count: held, oldestMs, nowMs, ...(retryAtMs === oldestMs ? {} : { retryAtMs }) };
    return { admitted, decision: toDecision(state, this.limit, this.windowMs) };
  }

  private async run(key: string, args: (string | number)[]): Promise<unknown> {
    try {
      return await this.client.evalsha(SLIDING_LOG_SHA, 1, key, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return await this.client.eval(SLIDING_LOG_SCRIPT, 1, key, ...args);
    }
  }

  status(): LimiterStatus {
    return { backend: 'redis', healthy: this.client.status === 'ready' };
  }

  /** The client belongs to whoever passed it in; closing the limiter leaves it open. */
  async close(): Promise<void> {}
}
