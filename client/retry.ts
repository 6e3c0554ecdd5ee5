/** How a client retries a call refused with 429 or 503. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 3; 0 turns retries off). */
  maxRetries: number;
  /** The longest wait between attempts, in ms, whatever Retry-After asks (default 30 000). */
  maxDelayMs: number;
  /** The wait when the answer carries no Retry-After, doubled per attempt (default 500). */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, maxDelayMs: 30_000, baseDelayMs: 500 };

/** Statuses worth retrying: the service asked the caller to come back later. */
export function retryable(status: number): boolean {
  return status === 429 || status === 503;
}

/**
 * The wait before attempt `attempt + 1`: Retry-After (delay-seconds or an HTTP date) when given,
 * else exponential backoff; never above maxDelayMs, never negative.
 */
export function retryDelay(retryAfter: string | null, attempt: number, policy: RetryPolicy, now = Date.now()): number {
  let ms = policy.baseDelayMs * 2 ** attempt;
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) ms = seconds * 1000;
    else if (!Number.isNaN(Date.parse(retryAfter))) ms = Date.parse(retryAfter) - now;
  }
  return Math.min(Math.max(ms, 0), policy.maxDelayMs);
}
