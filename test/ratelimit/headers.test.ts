import { describe, expect, it } from 'vitest';
import { isCrmError, ERROR_TABLE } from '../../src/domain/errors.ts';
import { RateLimitedError, rateLimitHeaders, type RateDecision } from '../../gateway/ratelimit/index.ts';

const allowed: RateDecision = { allowed: true, limit: 1000, remaining: 998, resetSeconds: 42, retryAfterSeconds: 0, windowSeconds: 60 };
const refused: RateDecision = { allowed: false, limit: 1000, remaining: 0, resetSeconds: 7, retryAfterSeconds: 7, windowSeconds: 60 };

/** A quota item of the draft: an sf-string name, then `;key=integer` parameters. */
const ITEM = /^"([\x20-\x21\x23-\x5b\x5d-\x7e]*)"((?:;[a-z][a-z0-9_.*-]*=\d+)+)$/;

function params(field: string): Record<string, number> {
  const match = ITEM.exec(field);
  if (!match) throw new Error(`not a structured-field quota item: ${field}`);
  return Object.fromEntries(match[2]!.slice(1).split(';').map((p) => p.split('=')).map(([k, v]) => [k, Number(v)]));
}

describe('the RateLimit header fields', () => {
  it('state the policy and the remaining budget in the httpapi draft syntax', () => {
    expect(rateLimitHeaders(allowed)).toEqual({
      'RateLimit-Policy': '"default";q=1000;w=60',
      RateLimit: '"default";r=998;t=42',
    });
  });

  it('parse as structured-field items whose parameters match the decision', () => {
    const headers = rateLimitHeaders({ ...allowed, limit: 5, remaining: 3, resetSeconds: 2, windowSeconds: 2 });
    expect(params(headers['RateLimit-Policy']!)).toEqual({ q: 5, w: 2 });
    expect(params(headers.RateLimit!)).toEqual({ r: 3, t: 2 });
  });

  it('add Retry-After in delay-seconds only when the call is refused', () => {
    expect(rateLimitHeaders(allowed)).not.toHaveProperty('Retry-After');
    expect(rateLimitHeaders(refused)).toEqual({
      'RateLimit-Policy': '"default";q=1000;w=60',
      RateLimit: '"default";r=0;t=7',
      'Retry-After': '7',
    });
  });
});

describe('RateLimitedError', () => {
  it('is the rate_limited CrmError (429) with the budget in its details and its headers', () => {
    const err = new RateLimitedError(refused);
    expect(isCrmError(err)).toBe(true);
    expect(err.code).toBe('rate_limited');
    expect(err.status).toBe(ERROR_TABLE.rate_limited.status);
    expect(err.status).toBe(429);
    expect(err.message).toBe('Rate limit exceeded: this API key may make 1000 calls per 60 s; retry after 7 s');
    expect(err.toJSON().details).toEqual({ limit: 1000, window_seconds: 60, retry_after_seconds: 7 });
    expect(err.headers['Retry-After']).toBe('7');
  });
});
