import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrivateRedis, waitFor } from '../ratelimit/support.ts';
import { modernRpc } from '../mcp/modern.ts';
import { callTool, startHarness, STYLES, type Harness } from './harness.ts';

const LIMIT = 5;

describe('the gateway meters every call style per key through the shared Redis limiter', () => {
  let redis: PrivateRedis;
  let h: Harness;
  beforeAll(async () => {
    redis = await PrivateRedis.start();
    h = await startHarness({ REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(async () => {
    await h?.close();
    await redis?.kill();
  });

  it('carries RateLimit headers on every answer and refuses the call past the limit with 429 in each style', async () => {
    for (const style of STYLES) {
      const key = await h.keyFor(h.ws, h.ws.owner.user_id);
      for (let i = 1; i <= LIMIT; i++) {
        const out = await callTool(h, style, key, 'objects.list', {});
        expect(out.ok).toBe(true);
        expect(out.headers.get('ratelimit-policy')).toBe(`"default";q=${LIMIT};w=60`);
        expect(out.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${LIMIT - i};t=\\d+$`));
      }
      const refused = await callTool(h, style, key, 'objects.list', {});
      expect(refused).toMatchObject({ ok: false, status: 429, code: 'rate_limited' });
      const retry = Number(refused.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
    }
  });

  it('meters 2026-07-28 MCP requests, server/discover included, and answers past the limit with 429', async () => {
    const key = await h.keyFor(h.ws, h.ws.owner.user_id);
    expect((await modernRpc(h, key, 1, 'server/discover')).headers.get('ratelimit')).toMatch(new RegExp(`r=${LIMIT - 1};`));
    for (let i = 2; i <= LIMIT; i++) expect((await modernRpc(h, key, i, 'tools/list')).status).toBe(200);
    const refused = await modernRpc(h, key, 99, 'tools/call', { name: 'objects.list', arguments: {} }, { 'Mcp-Name': 'objects.list' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.data.code).toBe('rate_limited');
  });

  it('meters /graphql with the same budget', async () => {
    const key = await h.keyFor(h.ws, h.ws.owner.user_id);
    const post = () => fetch(`${h.url}/graphql`, {
      method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ objectTypes { slug } }' }),
    });
    for (let i = 0; i < LIMIT; i++) expect((await post()).status).toBe(200);
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
  });

  it('keeps serving on the in-process limiter while Redis is down, shows it on /readyz, and returns to Redis', async () => {
    const ready = async () => (await (await fetch(`${h.url}/readyz`)).json()).checks.rate_limiter;
    expect(await ready()).toMatchObject({ ok: true, backend: 'redis', healthy: true });
    await redis.kill();
    const key = await h.keyFor(h.ws, h.ws.owner.user_id);
    for (let i = 0; i < 3; i++) expect((await callTool(h, 'rest', key, 'objects.list', {})).ok).toBe(true);
    const degraded = await ready();
    expect(degraded).toMatchObject({ ok: true, healthy: false });
    expect(degraded.degraded_since).toBeTruthy();
    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    expect(metrics).toMatch(/^crm_ratelimit_degraded 1$/m);

    await redis.restart();
    await waitFor('limiter back on redis', async () => (await ready()).healthy === true, 8000);
    expect((await callTool(h, 'rest', key, 'objects.list', {})).ok).toBe(true);
    const client = redis.client();
    try {
      expect((await client.keys('crm:rl:*')).length).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  });
});
