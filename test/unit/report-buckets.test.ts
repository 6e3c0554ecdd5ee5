import { describe, expect, it } from 'vitest';
import { CrmError } from '../../src/domain/errors.ts';
import { bucketRange, MAX_BUCKETS, nextBucket } from '../../src/domain/reports/buckets.ts';

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
