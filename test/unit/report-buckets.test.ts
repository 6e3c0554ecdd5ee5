import { describe, expect, it } from 'vitest';
import { CrmError } from '../../src/domain/errors.ts';
import { bucketRange, MAX_BUCKETS, nextBucket } from '../../src/domain/reports/buckets.ts';
import { shapeSeries, tidyNumber } from '../../src/domain/reports/series.ts';

describe('report time buckets', () => {
  it('steps from one bucket start to the next across month, quarter and year ends', () => {
    expect(nextBucket('2025-12-31', 'day')).toBe('2026-01-01');
    expect(nextBucket('2025-12-29', 'week')).toBe('2026-01-05');
    expect(nextBucket('2024-12-01', 'month')).toBe('2025-01-01');
    expect(nextBucket('2025-10-01', 'quarter')).toBe('2026-01-01');
    expect(nextBucket('2025-01-01', 'year')).toBe('2026-01-01');
  });

  it('fills every bucket between the first and the last seen, in order, and nothing when none was seen', () => {
    expect(bucketRange(['2025-03-01', '2025-01-01'], 'month')).toEqual(['2025-01-01', '2025-02-01', '2025-03-01']);
    expect(bucketRange([], 'day')).toEqual([]);
  });

  it('ends at the last bucket of year 9999, whose next one ISO text cannot order', () => {
    for (const [bucket, last] of [['day', '9999-12-31'], ['week', '9999-12-27'], ['month', '9999-12-01'], ['quarter', '9999-10-01'], ['year', '9999-01-01']] as const) {
      expect(bucketRange([last], bucket)).toEqual([last]);
    }
    expect(bucketRange(['9999-12-27', '9999-12-20'], 'week')).toEqual(['9999-12-20', '9999-12-27']);
    expect(bucketRange(['0001-01-01'], 'year')).toEqual(['0001-01-01']);
  });

  it('refuses a range of more than the bucket limit, naming config.time_bucket', () => {
    const failure = (() => {
      try {
        bucketRange(['1990-01-01', '2030-01-01'], 'day');
        return undefined;
      } catch (err) {
        return err;
      }
    })();
    expect(failure).toBeInstanceOf(CrmError);
    expect((failure as CrmError).details).toMatchObject({ param: 'config.time_bucket', rule: 'too_many_buckets', max: MAX_BUCKETS });
  });
});

describe('pie and donut shares', () => {
  const shaping = { chart: 'pie' as const, metric: 'sum' as const, group: undefined, bucket: null };
  const row = (group: string, value: number | null) => ({ group, value, count: 1 });

  it('are shares of the positive total, 0 for a value of 0 or less, so they stay in 0..1 and add up to 1', () => {
    const shares = (shapeSeries([row('a', 90), row('b', 30), row('c', -30), row('d', null)], shaping) as Array<{ share: number }>).map((s) => s.share);
    expect(shares).toEqual([0.75, 0.25, 0, 0]);
    expect((shapeSeries([row('a', -30)], shaping) as Array<{ value: number; share: number }>)[0]).toEqual({ label: 'a', value: -30, share: 0 });
    expect((shapeSeries([row('a', 30), row('b', -30)], { ...shaping, chart: 'donut' }) as Array<{ share: number }>).map((s) => s.share)).toEqual([1, 0]);
  });
});

describe('computed values', () => {
  it('lose the floating-point noise of adding decimals, and integers stay exact', () => {
    expect(tidyNumber(0.1 + 0.2)).toBe(0.3);
    expect(tidyNumber((0.1 + 0.2) / 2)).toBe(0.15);
    expect(tidyNumber(1234567890123.45)).toBe(1234567890123.45);
    expect(tidyNumber(9007199254740991)).toBe(9007199254740991);
    expect(tidyNumber(-2.5)).toBe(-2.5);
    expect(tidyNumber(1 / 3)).toBe(0.333333333333333);
  });
});
