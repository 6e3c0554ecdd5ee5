/**
 * The budget as HTTP fields, in the structured-field syntax of the IETF httpapi draft
 * "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers-08 onwards):
 *
 *   RateLimit-Policy: "default";q=1000;w=60     quota q calls per window w seconds
 *   RateLimit: "default";r=998;t=42             r calls remaining, t seconds until a slot frees
 *   Retry-After: 7                              only on a refused call (RFC 9110 delay-seconds)
 *
 * and the `rate_limited` error a refused call becomes.
 */
import { CrmError } from '../../src/domain/errors.ts';
import type { RateDecision } from './types.ts';

/** The policy's name in both fields. */
export const RATE_LIMIT_POLICY = 'default';
const POLICY_ITEM = `"${RATE_LIMIT_POLICY}"`;

/** `RateLimit-Policy` and `RateLimit` for every response, plus `Retry-After` when refused. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const name = POLICY_ITEM;
  const headers: Record<string, string> = {
    'RateLimit-Policy': `${name};q=${decision.limit};w=${decision.windowSeconds}`,
    RateLimit: `${name};r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.retryAfterSeconds);
  return headers;
}

/**
 * The `rate_limited` CrmError (429) for a refused call. It also carries the fields as
 * `headers`, which Koa's default error handler sets after clearing the response's own, so a
 * 429 keeps its fields whichever handler renders it.
 */
export class RateLimitedError extends CrmError {
  readonly headers: Record<string, string>;
  /** Koa's default handler shows the message only when the error is marked exposable. */
  readonly expose = true;

  /** `calls`: how many calls the refused request makes, when it makes more than one. */
  constructor(decision: RateDecision, calls = 1) {
    super('rate_limited', refusalMessage(decision, calls), {
      limit: decision.limit, window_seconds: decision.windowSeconds, retry_after_seconds: decision.retryAfterSeconds,
      ...(calls > 1 ? { calls } : {}),
    });
    this.headers = rateLimitHeaders(decision);
  }

  override get status(): number {
    return super.status;
  }

  /** Koa's default handler assigns `err.status`; the code already fixes it at 429. */
  override set status(_ignored: number) {}
}

function refusalMessage(decision: RateDecision, calls: number): string {
  const budget = `this API key may make ${decision.limit} calls per ${decision.windowSeconds} s`;
  if (calls > decision.limit) return `Rate limit exceeded: this request makes ${calls} calls and ${budget}; send fewer calls per request`;
  const asked = calls > 1 ? `; this request makes ${calls} calls (one per tool it runs)` : '';
  return `Rate limit exceeded: ${budget}${asked}; retry after ${decision.retryAfterSeconds} s`;
}
