/**
 * The Koa step that meters a call: it runs after authentication (it needs the key id) and
 * before any call style parses its body, so MCP gets a plain HTTP 429 before JSON-RPC.
 */
import type { Context, Middleware } from 'koa';
import { RateLimitedError, rateLimitHeaders } from './headers.ts';
import type { RateLimiter } from './types.ts';

/**
 * Sets the RateLimit fields on every metered response and throws `RateLimitedError` (429,
 * `rate_limited`, with `Retry-After`) when the key has used its window. A request for which
 * `keyOf` returns undefined (no authenticated key) is not metered.
 */
export function rateLimitMiddleware(limiter: RateLimiter, keyOf: (ctx: Context) => string | undefined): Middleware {
  return async (ctx, next) => {
    const keyId = keyOf(ctx);
    if (keyId === undefined) return next();
    const decision = await limiter.hit(keyId);
    ctx.set(rateLimitHeaders(decision));
    if (!decision.allowed) throw new RateLimitedError(decision);
    await next();
  };
}
