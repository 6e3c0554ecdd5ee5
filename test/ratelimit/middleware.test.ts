/** The Koa step over real HTTP, with a stand-in error middleware rendering shape A. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { isCrmError } from '../../src/domain/errors.ts';
import { MemoryRateLimiter, rateLimitMiddleware } from '../../gateway/ratelimit/index.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function serve(withErrorMiddleware: boolean): Promise<string> {
  const app = new Koa();
  app.silent = true;
  if (withErrorMiddleware) {
    app.use(async (ctx, next) => {
      try {
        await next();
      } catch (err) {
        if (!isCrmError(err)) throw err;
        ctx.status = err.status;
        ctx.body = { error: err.message, code: err.code };
      }
    });
  }
  const limiter = new MemoryRateLimiter({ limit: 2, windowMs: 60_000 });
  app.use(rateLimitMiddleware(limiter, (ctx) => ctx.get('x-key-id') || undefined));
  app.use((ctx) => {
    ctx.body = { ok: true };
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const call = (url: string, key?: string) => fetch(url, { method: 'POST', headers: key ? { 'x-key-id': key } : {} });

describe('rateLimitMiddleware', () => {
  it('puts the budget on every metered response and answers 429 rate_limited with Retry-After', async () => {
    const url = await serve(true);
    const first = await call(url, 'k1');
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"default";q=2;w=60');
    expect(first.headers.get('ratelimit')).toBe('"default";r=1;t=60');
    expect(first.headers.get('retry-after')).toBeNull();
    expect((await call(url, 'k1')).headers.get('ratelimit')).toBe('"default";r=0;t=60');

    const refused = await call(url, 'k1');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ code: 'rate_limited', error: expect.stringContaining('retry after 60 s') });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('ratelimit')).toBe('"default";r=0;t=60');
    expect((await call(url, 'k2')).status).toBe(200);
  });

  it('keeps the fields on a 429 that reaches Koa’s own error handler', async () => {
    const url = await serve(false);
    await call(url, 'k');
    await call(url, 'k');
    const refused = await call(url, 'k');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=2;w=60');
  });

  it('leaves a request without a key id unmetered', async () => {
    const url = await serve(true);
    const response = await call(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).toBeNull();
  });
});
