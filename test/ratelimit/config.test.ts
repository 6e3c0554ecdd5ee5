import { describe, expect, it } from 'vitest';
import { rateLimitOptionsFromEnv } from '../../gateway/ratelimit/index.ts';

describe('rateLimitOptionsFromEnv', () => {
  it('defaults to 1000 calls per 60 s window in process when nothing is set', () => {
    expect(rateLimitOptionsFromEnv({})).toEqual({ redisUrl: undefined, limit: 1000, windowMs: 60_000 });
  });

  it('reads REDIS_URL and RATE_LIMIT_PER_MINUTE', () => {
    expect(rateLimitOptionsFromEnv({ REDIS_URL: 'redis://cache:6379', RATE_LIMIT_PER_MINUTE: '250' })).toEqual({
      redisUrl: 'redis://cache:6379',
      limit: 250,
      windowMs: 60_000,
    });
  });

  it('rejects a RATE_LIMIT_PER_MINUTE that is not a positive integer, naming the variable', () => {
    for (const bad of ['0', '-5', '1.5', 'lots']) {
      expect(() => rateLimitOptionsFromEnv({ RATE_LIMIT_PER_MINUTE: bad })).toThrow(/^RATE_LIMIT_PER_MINUTE must be a positive integer/);
    }
  });
});
