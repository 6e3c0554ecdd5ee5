/**
 * One suite of sliding-window semantics, run against every limiter (in-process and Redis) so
 * the two cannot drift apart. Times are passed explicitly, so no test waits on a clock.
 */
import { expect, it } from 'vitest';
import type { RateLimiter } from '../../gateway/ratelimit/index.ts';
import { uniqueKey } from './support.ts';

export type MakeLimiter = (limit: number, windowMs: number) => RateLimiter;

export function slidingWindowSemantics(make: MakeLimiter): void {
  const T = Date.now();

  it('admits exactly the limit inside one window and refuses the next with a correct Retry-After', async () => {
    const limiter = make(5, 10_000);
    const key = uniqueKey('exact');
    const admitted = [];
    for (let i = 0; i < 5; i += 1) admitted.push(await limiter.hit(key, T + i * 1000));
    expect(admitted.map((d) => [d.allowed, d.remaining])).toEqual([[true, 4], [true, 3], [true, 2], [true, 1], [true, 0]]);
    expect(admitted.every((d) => d.retryAfterSeconds === 0)).toBe(true);

    const refused = await limiter.hit(key, T + 4500);
    // The oldest call (at T) ages out at T + 10 s, 5.5 s from now: rounded up to 6.
    expect(refused).toEqual({ allowed: false, limit: 5, remaining: 0, resetSeconds: 6, retryAfterSeconds: 6, windowSeconds: 10 });
    expect((await limiter.hit(key, T + 9999)).allowed).toBe(false);
    expect((await limiter.hit(key, T + 9999)).retryAfterSeconds).toBe(1);
  });

  it('slides: when the oldest call ages out exactly one more is admitted, not a whole new limit', async () => {
    // A 10 s window keeps Redis' real-time PEXPIRE out of the way of the explicit clock.
    const limiter = make(3, 10_000);
    const key = uniqueKey('slide');
    for (const at of [0, 1000, 2000]) expect((await limiter.hit(key, T + at)).allowed).toBe(true);
    expect((await limiter.hit(key, T + 9999)).allowed).toBe(false);
    expect((await limiter.hit(key, T + 10_000)).allowed).toBe(true);
    expect((await limiter.hit(key, T + 10_000)).allowed).toBe(false);
    expect((await limiter.hit(key, T + 11_000)).allowed).toBe(true);
    expect((await limiter.hit(key, T + 11_500)).allowed).toBe(false);
    // After a full quiet window the whole limit is back.
    const later = [];
    for (let i = 0; i < 4; i += 1) later.push((await limiter.hit(key, T + 50_000)).allowed);
    expect(later).toEqual([true, true, true, false]);
  });

  it('does not record refused calls, so a client that keeps hammering is not locked out', async () => {
    const limiter = make(2, 10_000);
    const key = uniqueKey('hammer');
    await limiter.hit(key, T);
    await limiter.hit(key, T + 1);
    for (let i = 0; i < 50; i += 1) expect((await limiter.hit(key, T + 100 + i * 100)).allowed).toBe(false);
    const afterOldest = await limiter.hit(key, T + 10_000);
    expect(afterOldest).toMatchObject({ allowed: true, remaining: 0 });
    expect((await limiter.hit(key, T + 10_001)).allowed).toBe(true);
  });

  it('counts calls made in the same millisecond as separate calls', async () => {
    const limiter = make(4, 10_000);
    const key = uniqueKey('same-ms');
    const decisions = await Promise.all(Array.from({ length: 7 }, () => limiter.hit(key, T)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(4);
  });

  it('meters keys independently', async () => {
    const limiter = make(2, 10_000);
    const [a, b] = [uniqueKey('a'), uniqueKey('b')];
    await limiter.hit(a, T);
    await limiter.hit(a, T);
    expect((await limiter.hit(a, T)).allowed).toBe(false);
    expect(await limiter.hit(b, T)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('reports the reset as the seconds until the oldest call in the window frees a slot', async () => {
    const limiter = make(10, 60_000);
    const key = uniqueKey('reset');
    expect(await limiter.hit(key, T)).toEqual({ allowed: true, limit: 10, remaining: 9, resetSeconds: 60, retryAfterSeconds: 0, windowSeconds: 60 });
    expect(await limiter.hit(key, T + 30_500)).toMatchObject({ remaining: 8, resetSeconds: 30 });
  });

  it('takes several calls at once all or none, recording nothing when they do not all fit', async () => {
    const limiter = make(10, 10_000);
    const key = uniqueKey('take-all');
    expect(await limiter.take(key, 4, { now: T })).toMatchObject({ admitted: 4, decision: { allowed: true, remaining: 6 } });
    expect(await limiter.take(key, 7, { now: T + 1000 })).toMatchObject({ admitted: 0, decision: { allowed: false, remaining: 6 } });
    expect(await limiter.take(key, 6, { now: T + 2000 })).toMatchObject({ admitted: 6, decision: { allowed: true, remaining: 0 } });
    expect((await limiter.hit(key, T + 2000)).allowed).toBe(false);
  });

  it('takes as many as fit with partial, and one call at a time after that', async () => {
    const limiter = make(10, 10_000);
    const key = uniqueKey('take-partial');
    await limiter.hit(key, T);
    const taken = await limiter.take(key, 99, { partial: true, now: T + 1000 });
    expect(taken.admitted).toBe(9);
    // The call at T ages out first, 9 s from now: one slot frees then.
    expect(taken.decision).toEqual({ allowed: false, limit: 10, remaining: 0, resetSeconds: 9, retryAfterSeconds: 9, windowSeconds: 10 });
    expect(await limiter.take(key, 5, { partial: true, now: T + 1000 })).toMatchObject({ admitted: 0 });
    expect(await limiter.take(key, 5, { partial: true, now: T + 10_000 })).toMatchObject({ admitted: 1 });
  });

  it('tells a refused all-or-none take to wait until enough calls have aged out for all of them', async () => {
    const limiter = make(5, 10_000);
    const key = uniqueKey('take-retry');
    for (const at of [0, 1000, 2000, 3000, 4000]) await limiter.hit(key, T + at);
    // Three calls need the three oldest (T, T + 1 s, T + 2 s) gone: at T + 12 s, 7 s after T + 5 s.
    const refused = await limiter.take(key, 3, { now: T + 5000 });
    expect(refused.decision).toMatchObject({ allowed: false, resetSeconds: 5, retryAfterSeconds: 7 });
  });

  it('refuses a count that is not a positive integer', async () => {
    const limiter = make(5, 10_000);
    await expect(limiter.take(uniqueKey('bad-count'), 0)).rejects.toThrow(RangeError);
  });
}
