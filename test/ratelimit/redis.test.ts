/** The shared limiter against the real Redis (REDIS_URL, default 127.0.0.1:6379). */
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRateLimiter, KEY_PREFIX, RedisRateLimiter, ResilientRateLimiter, type RateLimiter } from '../../gateway/ratelimit/index.ts';
import { MetricsRegistry } from '../../gateway/metrics.ts';
import { slidingWindowSemantics } from './semantics.ts';
import { captureLogger, REDIS_URL, redisAvailable, sleep, uniqueKey } from './support.ts';

const reachable = await redisAvailable();

describe.skipIf(!reachable)('the Redis limiter', () => {
  const client = new Redis(REDIS_URL);
  const open: RateLimiter[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((l) => l.close()));
  });
  afterAll(() => {
    client.disconnect();
  });

  function shared(limit: number, windowMs: number, logger = captureLogger()): RateLimiter {
    const limiter = createRateLimiter({ redisUrl: REDIS_URL, limit, windowMs, logger, metrics: new MetricsRegistry() });
    open.push(limiter);
    return limiter;
  }

  describe('run bare on one connection', () => {
    slidingWindowSemantics((limit, windowMs) => new RedisRateLimiter(client, { limit, windowMs }));
  });

  describe('run through createRateLimiter', () => {
    slidingWindowSemantics((limit, windowMs) => shared(limit, windowMs));
  });

  it('keeps one sorted set per key under crm:rl:, expiring with the window', async () => {
    const limiter = shared(3, 5000);
    const key = uniqueKey('layout');
    for (let i = 0; i < 5; i += 1) await limiter.hit(key);
    expect(limiter).toBeInstanceOf(ResilientRateLimiter);
    expect(limiter.status()).toEqual({ backend: 'redis', healthy: true });
    expect(await client.type(KEY_PREFIX + key)).toBe('zset');
    expect(await client.zcard(KEY_PREFIX + key)).toBe(3);
    const ttl = await client.pttl(KEY_PREFIX + key);
    expect(ttl).toBeGreaterThan(4000);
    expect(ttl).toBeLessThanOrEqual(5000);
  });

  it('slides on the Redis server clock when no time is passed', async () => {
    const limiter = shared(2, 1000);
    const key = uniqueKey('server-clock');
    expect((await limiter.hit(key)).allowed).toBe(true);
    await sleep(400);
    expect((await limiter.hit(key)).allowed).toBe(true);
    const refused = await limiter.hit(key);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1, windowSeconds: 1 });
    await sleep(700); // the first call has aged out, the second (400 ms later) has not
    expect((await limiter.hit(key)).allowed).toBe(true);
    expect((await limiter.hit(key)).allowed).toBe(false);
  });

  it('admits the limit in total across two limiters on two connections, not the limit each', async () => {
    const [one, two] = [shared(5, 10_000), shared(5, 10_000)];
    const key = uniqueKey('two-instances');
    const sequential = [];
    for (let i = 0; i < 6; i += 1) sequential.push((await (i % 2 ? two : one).hit(key)).allowed);
    expect(sequential).toEqual([true, true, true, true, true, false]);

    const burstKey = uniqueKey('two-instances-burst');
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? two : one).hit(burstKey)));
    expect(burst.filter((d) => d.allowed)).toHaveLength(5);
    expect(burst.filter((d) => !d.allowed).every((d) => d.retryAfterSeconds >= 1 && d.retryAfterSeconds <= 10)).toBe(true);
  });
});
