import { afterEach, describe, expect, it } from 'vitest';
import { createRateLimiter, MemoryRateLimiter, type RateLimiter } from '../../gateway/ratelimit/index.ts';
import { slidingWindowSemantics } from './semantics.ts';

const open: RateLimiter[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

describe('the in-process limiter', () => {
  slidingWindowSemantics((limit, windowMs) => {
    const limiter = new MemoryRateLimiter({ limit, windowMs });
    open.push(limiter);
    return limiter;
  });

  it('is what createRateLimiter builds without a Redis URL, and is always healthy', () => {
    const limiter = createRateLimiter({ limit: 3, windowMs: 1000 });
    open.push(limiter);
    expect(limiter).toBeInstanceOf(MemoryRateLimiter);
    expect(limiter.backend).toBe('memory');
    expect(limiter.status()).toEqual({ backend: 'memory', healthy: true });
  });

  it('drops keys whose calls have all aged out, so memory stays bounded', async () => {
    const limiter = new MemoryRateLimiter({ limit: 5, windowMs: 1000 });
    open.push(limiter);
    for (let i = 0; i < 100; i += 1) await limiter.hit(`key-${i}`, 10_000 + i);
    expect(limiter.trackedKeys).toBe(100);
    expect(limiter.sweep(10_500)).toBe(0);
    expect(limiter.sweep(11_050)).toBe(51);
    expect(limiter.trackedKeys).toBe(49);
    limiter.sweep(20_000);
    expect(limiter.trackedKeys).toBe(0);
  });

  it('keeps at most the limit of timestamps per key however hard it is hit', () => {
    const limiter = new MemoryRateLimiter({ limit: 3, windowMs: 60_000 });
    open.push(limiter);
    for (let i = 0; i < 1000; i += 1) limiter.hitSync('k', 1000 + i);
    const log = (limiter as unknown as { logs: Map<string, number[]> }).logs.get('k');
    expect(log).toEqual([1000, 1001, 1002]);
  });

  it('stays exact when a caller’s clock steps back', async () => {
    const limiter = new MemoryRateLimiter({ limit: 2, windowMs: 1000 });
    open.push(limiter);
    await limiter.hit('k', 5000);
    await limiter.hit('k', 4500);
    expect((await limiter.hit('k', 5400)).allowed).toBe(false);
    // The call at 4500 ages out at 5500; the one at 5000 is still in the window.
    expect(await limiter.hit('k', 5500)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('rejects a limit or window that is not a positive integer', () => {
    expect(() => new MemoryRateLimiter({ limit: 0, windowMs: 1000 })).toThrow(/positive integer/);
    expect(() => new MemoryRateLimiter({ limit: 1.5, windowMs: 1000 })).toThrow(/positive integer/);
    expect(() => new MemoryRateLimiter({ limit: 5, windowMs: 0 })).toThrow(/positive integer/);
  });
});
