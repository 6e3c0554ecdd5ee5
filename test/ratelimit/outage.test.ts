/**
 * Faults, on a redis-server of the test's own (never the shared one): a flushed script cache,
 * a crash mid-test, and the return of the server on the same port.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../../gateway/metrics.ts';
import { createRateLimiter, KEY_PREFIX, type RateLimiter } from '../../gateway/ratelimit/index.ts';
import { captureLogger, PrivateRedis, redisServerAvailable, uniqueKey, waitFor } from './support.ts';

const ERRORS = 'crm_ratelimit_redis_errors_total';
const DEGRADED = 'crm_ratelimit_degraded';

describe.skipIf(!redisServerAvailable())('the limiter on a Redis that fails', () => {
  let server: PrivateRedis;
  const open: RateLimiter[] = [];

  beforeAll(async () => {
    server = await PrivateRedis.start();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((l) => l.close()));
  });
  afterAll(async () => {
    await server?.kill();
  });

  function limiterOn(limit: number, windowMs = 60_000) {
    const logger = captureLogger();
    const metrics = new MetricsRegistry();
    const limiter = createRateLimiter({ redisUrl: server.url, limit, windowMs, logger, metrics, probeIntervalMs: 100 });
    open.push(limiter);
    return { limiter, logger, metrics };
  }

  it('runs the script by EVALSHA and re-sends it by EVAL once after SCRIPT FLUSH', async () => {
    const { limiter, logger, metrics } = limiterOn(10);
    const admin = server.client();
    try {
      await admin.config('RESETSTAT');
      const key = uniqueKey('noscript');
      await limiter.hit(key); // a fresh server: NOSCRIPT, then EVAL
      await limiter.hit(key);
      await admin.script('FLUSH');
      await limiter.hit(key); // NOSCRIPT again, then EVAL
      await limiter.hit(key);
      const stats = await admin.info('commandstats');
      const calls = (cmd: string) => Number(new RegExp(`cmdstat_${cmd}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
      expect(calls('eval')).toBe(2);
      expect(calls('evalsha')).toBe(4);
      expect(await admin.zcard(KEY_PREFIX + key)).toBe(4);
      expect(limiter.status().healthy).toBe(true);
      expect(logger.warns).toEqual([]);
      expect(await metrics.value(ERRORS)).toBe(0);
    } finally {
      admin.disconnect();
    }
  });

  it('serves on the fallback while Redis is down, logs once per outage, and returns to Redis', async () => {
    const { limiter, logger, metrics } = limiterOn(3);
    const peer = limiterOn(3).limiter;
    const key = uniqueKey('outage');
    expect((await limiter.hit(key)).remaining).toBe(2);
    expect(limiter.status()).toEqual({ backend: 'redis', healthy: true });

    await server.kill();
    // A burst in flight when the outage starts: every call fails over, the outage starts once.
    const burst = await Promise.all(Array.from({ length: 10 }, () => limiter.hit(key)));
    const during = [];
    for (let i = 0; i < 10; i += 1) during.push(await limiter.hit(key));
    // The fallback goes on from this replica's call made through Redis and meters with the same
    // rules: 2 more admitted, then refused (an empty fallback admitted 3, a whole new window).
    expect(burst.filter((d) => d.allowed)).toHaveLength(2);
    expect(during.some((d) => d.allowed)).toBe(false);
    const status = limiter.status();
    expect(status.healthy).toBe(false);
    expect(Date.parse(status.degraded_since ?? '')).toBeGreaterThan(Date.now() - 10_000);
    expect(await metrics.value(DEGRADED)).toBe(1);
    expect(await metrics.value(ERRORS)).toBe(10);
    expect(logger.warns).toHaveLength(1);
    expect(logger.warns[0]).toMatch(/^rate limiter: Redis unavailable .*in-process/);
    expect(await metrics.render()).toContain(`${DEGRADED} 1\n`);

    await server.restart();
    await waitFor('the limiter to return to Redis', () => limiter.status().healthy);
    expect(limiter.status()).toEqual({ backend: 'redis', healthy: true });
    expect(await metrics.value(DEGRADED)).toBe(0);
    expect(logger.infos).toEqual([expect.stringMatching(/^rate limiter: Redis is back after \d+\.\d s/)]);

    // Shared again: the restarted (empty) server sees both limiters' calls on one log.
    await waitFor('the peer to return to Redis', () => peer.status().healthy);
    const shared = uniqueKey('after-outage');
    expect((await limiter.hit(shared)).remaining).toBe(2);
    expect((await peer.hit(shared)).remaining).toBe(1);
    const admin = server.client();
    expect(await admin.zcard(KEY_PREFIX + shared)).toBe(2);
    admin.disconnect();

    // A second outage is a second line, not one per call.
    await server.kill();
    for (let i = 0; i < 10; i += 1) await limiter.hit(key);
    expect(logger.warns).toHaveLength(2);
    await server.restart();
    await waitFor('the second recovery', () => limiter.status().healthy);
    expect(logger.infos).toHaveLength(2);
  });

  it('treats a stalled Redis as an outage after the command timeout, and returns when PING answers', async () => {
    const { limiter, logger } = limiterOn(5);
    const key = uniqueKey('stall');
    await limiter.hit(key);
    const admin = server.client();
    try {
      await admin.ping();
      const stall = admin.debug('SLEEP', '0.6'); // the server answers nobody for 600 ms
      const started = Date.now();
      expect((await limiter.hit(key)).allowed).toBe(true);
      expect(Date.now() - started).toBeLessThan(500);
      expect(limiter.status().healthy).toBe(false);
      expect(logger.warns).toEqual([expect.stringMatching(/timed out/i)]);
      await stall;
      await waitFor('the probe to find Redis answering', () => limiter.status().healthy, 2000);
      expect(logger.infos).toHaveLength(1);
    } finally {
      admin.disconnect();
    }
  });

  it('starts on the fallback when Redis is unreachable at boot, then moves to Redis when it comes up', async () => {
    await server.kill();
    const { limiter, logger } = limiterOn(2);
    const decision = await limiter.hit(uniqueKey('boot'));
    expect(decision.allowed).toBe(true);
    expect(limiter.status().healthy).toBe(false);
    expect(logger.warns).toHaveLength(1);
    await server.restart();
    await waitFor('the limiter to reach Redis', () => limiter.status().healthy);
    expect(logger.infos).toHaveLength(1);
  });
});
