import { validationError } from '../errors.ts';
import type { TimeBucket } from './types.ts';

/** At most this many buckets between a report's first and last bucket with data. */
export const MAX_BUCKETS = 5000;

/**
 * At most this many points in the series of one report answer: groups × buckets of a grouped
 * line, area or stacked_bar chart (about 5 MB of JSON). Each bound alone left their product free:
 * 2,000 groups over 4,992 days were 10 million points, a 440 MB answer built over 5–8 s.
 */
export const MAX_SERIES_POINTS = 100_000;

/** The first day of the bucket after `start` (both `YYYY-MM-DD`, UTC). */
export function nextBucket(start: string, bucket: TimeBucket): string {
  const d = new Date(`${start}T00:00:00Z`);
  switch (bucket) {
    case 'day':
      d.setUTCDate(d.getUTCDate() + 1);
      break;
    case 'week':
      d.setUTCDate(d.getUTCDate() + 7);
      break;
    case 'month':
      d.setUTCMonth(d.getUTCMonth() + 1);
      break;
    case 'quarter':
      d.setUTCMonth(d.getUTCMonth() + 3);
      break;
    case 'year':
      d.setUTCFullYear(d.getUTCFullYear() + 1);
      break;
  }
  return d.toISOString().slice(0, 10);
}

/**
 * Every bucket from the first to the last of `seen` (bucket starts as the store returns them), in
 * order, so empty buckets in between can be shown as 0. Empty when nothing was seen. More than
 * MAX_BUCKETS is refused, naming config.time_bucket: a coarser bucket answers.
 */
export function bucketRange(seen: readonly string[], bucket: TimeBucket, param = 'config.time_bucket'): string[] {
  if (seen.length === 0) return [];
  const sorted = [...seen].sort();
  const last = sorted[sorted.length - 1]!;
  const out: string[] = [];
  for (let at = sorted[0]!; ; at = nextBucket(at, bucket)) {
    out.push(at);
    if (out.length > MAX_BUCKETS) {
      throw validationError(param, `${param}: the data spans more than ${MAX_BUCKETS} ${bucket} buckets; use a coarser bucket or a filter`, {
        rule: 'too_many_buckets', max: MAX_BUCKETS,
      });
    }
    // Stops at the last, never past it: the bucket after one in December 9999 is in year 10000,
    // which ISO text writes "+010000-…", sorting before every date, so `at <= last` held forever.
    if (at >= last) return out;
  }
}
