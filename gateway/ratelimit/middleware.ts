/**
 * The Koa step that meters a call: it runs after authentication (it needs the key id) and
 * before any call style parses its body, so MCP gets a plain HTTP 429 before JSON-RPC.
 *
 * A request counts one call when it arrives. A request that turns out to carry more (a JSON-RPC
 * batch of several requests, a GraphQL operation of several root fields) has the rest counted by
 * its call style through `meterCalls` once its body is read, so no call style makes more calls
 * than the limit, however it packs them.
 */
import type { Context, Middleware } from 'koa';
import { RateLimitedError, rateLimitHeaders } from './headers.ts';
import type { RateLimiter, RateTake } from './types.ts';

type Take = (count: number, partial: boolean) => Promise<RateTake>;

/** The metered requests' limiter and key, for the calls counted after the first. */
const meters = new WeakMap<Context, Take>();

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
    meters.set(ctx, (count, partial) => limiter.take(keyId, count, { partial }));
    await next();
  };
}

/** How many of a request's calls may run, and the refusal for the others. */
export interface MeteredCalls {
  /** 1 … calls: the first `admitted` calls run. */
  admitted: number;
  /** Present when some were not admitted: their `rate_limited` error (429, retry information). */
  refusal?: RateLimitedError;
}

/**
 * Counts the calls of a request past the first (which arrived metered), for a request that
 * carries `calls` of them, and updates the RateLimit fields (with Retry-After when any is
 * refused). `partial` admits the first ones that fit (a batch, answered message by message);
 * otherwise all or none (an operation, which runs whole), and a refused rest is not recorded. A
 * request that was not metered (no key, no limiter) runs every call.
 */
export async function meterCalls(ctx: Context, calls: number, options: { partial: boolean }): Promise<MeteredCalls> {
  const take = meters.get(ctx);
  if (!take || calls <= 1) return { admitted: calls };
  const { admitted, decision } = await take(calls - 1, options.partial);
  ctx.set(rateLimitHeaders(decision));
  if (decision.allowed) return { admitted: calls };
  return { admitted: 1 + admitted, refusal: new RateLimitedError(decision, options.partial ? 1 : calls) };
}
