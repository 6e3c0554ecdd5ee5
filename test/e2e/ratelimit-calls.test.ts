/**
 * The limit counts calls, not requests: a JSON-RPC batch pays for each request in it and a
 * /graphql operation for each root field, on the in-process limiter and on the shared Redis one,
 * so no call style makes more than the limit by packing calls into one request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisAvailable } from '../ratelimit/support.ts';
import { callTool, rpc, startHarness, type Harness, type Workspace } from './harness.ts';

const LIMIT = 10;
const reachable = await redisAvailable();

const BACKENDS: { backend: string; env: Record<string, string>; skip: boolean }[] = [
  { backend: 'the in-process limiter', env: {}, skip: false },
  // CI=true fails the run when Redis is unreachable (redisAvailable), so this never skips there.
  { backend: 'the shared Redis limiter', env: { REDIS_URL }, skip: !reachable },
];

const createCall = (id: number) => ({
  jsonrpc: '2.0', id, method: 'tools/call',
  params: { name: 'records.create', arguments: { object_type_slug: 'companies', data: { name: `Batch ${id}` } } },
});

describe.each(BACKENDS)('per-call metering on $backend', ({ env, skip }) => {
  let h: Harness;
  beforeAll(async () => {
    if (!skip) h = await startHarness({ RATE_LIMIT_PER_MINUTE: String(LIMIT), ...env });
  });
  afterAll(async () => {
    await h?.close();
  });

  /** The companies of a workspace, counted with a fresh key of its owner (the limit is per key). */
  async function companies(ws: Workspace): Promise<number> {
    const out = await callTool(h, 'rest', await h.keyFor(ws, ws.owner.user_id), 'records.list', { object_type_slug: 'companies', page_size: 1 });
    if (!out.ok) throw new Error(out.message);
    return out.result.total;
  }

  it.skipIf(skip)('runs only the limit of a 100-call MCP batch and answers the rest, in place, with rate_limited errors', async () => {
    const ws = await h.newWorkspace();
    const key = await h.keyFor(ws, ws.owner.user_id);
    const before = await companies(ws);
    const batch = Array.from({ length: 100 }, (_, i) => createCall(i + 1));
    const res = await rpc(h, key, batch);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((r: { id: number }) => r.id)).toEqual(batch.map((m) => m.id));
    const [ran, refused] = [res.body.slice(0, LIMIT), res.body.slice(LIMIT)];
    for (const r of ran) expect(r.result.isError ?? false).toBe(false);
    for (const r of refused) {
      expect(r.result).toBeUndefined();
      expect(r.error).toMatchObject({ code: -32004, data: { code: 'rate_limited', details: { limit: LIMIT, window_seconds: 60 } } });
      expect(r.error.data.details.retry_after_seconds).toBeGreaterThanOrEqual(1);
    }
    expect(res.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await companies(ws) - before).toBe(LIMIT);

    // The window is used up: the next batch is refused whole, before any of it is read.
    const next = await rpc(h, key, batch);
    expect(next.status).toBe(429);
    expect(next.body.error.data.code).toBe('rate_limited');
    expect(await companies(ws) - before).toBe(LIMIT);
  });

  it.skipIf(skip)('never admits more than the limit over repeated batches (the reported 12 × 100)', async () => {
    const ws = await h.newWorkspace();
    const key = await h.keyFor(ws, ws.owner.user_id);
    const before = await companies(ws);
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await rpc(h, key, Array.from({ length: 100 }, (_, j) => createCall(i * 100 + j)))).status);
    expect(statuses).toEqual([200, ...Array(11).fill(429)]);
    expect(await companies(ws) - before).toBe(LIMIT);
  });

  it.skipIf(skip)('charges a batch one call per request in it, notifications free, and runs it whole when it fits', async () => {
    const key = await h.keyFor(h.ws, h.ws.owner.user_id);
    const res = await rpc(h, key, [
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'objects.list', arguments: {} } },
      { jsonrpc: '2.0', id: 'c', method: 'ping' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.map((r: { id: string }) => r.id)).toEqual(['a', 'b', 'c']);
    expect(res.body.every((r: { result?: unknown }) => r.result !== undefined)).toBe(true);
    expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${LIMIT - 3};`));
    expect(res.headers.get('retry-after')).toBeNull();
    // A lone request still costs one.
    expect((await callTool(h, 'mcp', key, 'objects.list', {})).headers.get('ratelimit')).toMatch(new RegExp(`r=${LIMIT - 4};`));
  });

  it.skipIf(skip)('answers the one request of a batch cut to one in an array, its refused neighbours beside it', async () => {
    const key = await h.keyFor(h.ws, h.ws.owner.user_id);
    for (let i = 0; i < LIMIT - 1; i++) expect((await callTool(h, 'rest', key, 'objects.list', {})).ok).toBe(true);
    const res = await rpc(h, key, [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'objects.list', arguments: {} } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toMatchObject({ id: 1, result: { structuredContent: expect.any(Object) } });
    expect(res.body[1]).toMatchObject({ id: 2, error: { data: { code: 'rate_limited' } } });
  });

  describe.each<{ path: string; headers: Record<string, string> }>([
    { path: 'the direct path', headers: {} },
    // Not a plain JSON exchange, so yoga itself runs the operation.
    { path: 'yoga', headers: { Accept: 'application/graphql-response+json' } },
  ])('/graphql through $path', ({ headers }) => {
    const graphql = (key: string, query: string) => fetch(`${h.url}/graphql`, {
      method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ query }),
    });
    const creates = (n: number, tag: string) =>
      `mutation { ${Array.from({ length: n }, (_, i) => `c${i}: createRecord(object_type_slug: "companies", data: {name: "${tag} ${i}"}) { id }`).join(' ')} }`;

    it.skipIf(skip)('charges an operation one call per root field and refuses one the key cannot afford whole, with 429', async () => {
      const ws = await h.newWorkspace();
      const key = await h.keyFor(ws, ws.owner.user_id);
      const before = await companies(ws);

      const four = await graphql(key, creates(4, 'four'));
      expect(four.status).toBe(200);
      expect(Object.keys((await four.json()).data)).toHaveLength(4);
      expect(four.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${LIMIT - 4};`));

      // Thirty aliased creates (the reported case) are thirty calls: more than the key has.
      const thirty = await graphql(key, creates(30, 'thirty'));
      expect(thirty.status).toBe(429);
      expect(Number(thirty.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const body = await thirty.json();
      expect(body.errors[0].extensions).toMatchObject({ code: 'rate_limited', details: { limit: LIMIT, calls: 30 } });
      expect(body.data ?? null).toBeNull();
      expect(await companies(ws) - before).toBe(4);

      // The refused operation cost its request's one call only: 5 are left, and 5 fit.
      const five = await graphql(key, creates(5, 'five'));
      expect(five.status).toBe(200);
      expect(five.headers.get('ratelimit')).toMatch(/r=0;/);
      expect(await companies(ws) - before).toBe(9);

      // With nothing left the request itself is refused before its operation is read: the same
      // 429 in GraphQL's shape (and in REST's, which the other edges answer).
      const none = await graphql(key, '{ objectTypes { slug } }');
      expect(none.status).toBe(429);
      const refused = await none.json();
      expect(refused.errors[0]).toMatchObject({ message: expect.any(String), extensions: { code: 'rate_limited', details: { limit: LIMIT } } });
      expect(refused).toMatchObject({ code: 'rate_limited', error: refused.errors[0].message });
    });

    it.skipIf(skip)('counts root fields reached through fragments, and not introspection', async () => {
      const key = await h.keyFor(h.ws, h.ws.owner.user_id);
      const res = await graphql(key, '{ __typename a: objectTypes { slug } ...F ... on Query { c: objectTypes { slug } } } fragment F on Query { b: objectTypes { slug } }');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`r=${LIMIT - 3};`));
      const introspection = await graphql(key, '{ __typename }');
      expect(introspection.headers.get('ratelimit')).toMatch(new RegExp(`r=${LIMIT - 4};`));
    });
  });
});
