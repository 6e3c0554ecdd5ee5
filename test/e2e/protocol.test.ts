import Router from '@koa/router';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Middleware } from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountBridge } from '../../gateway/transports/bridge.ts';
import { mountGraphQL } from '../../gateway/transports/graphql.ts';
import { mountMcp } from '../../gateway/transports/mcp.ts';
import { mountRest } from '../../gateway/transports/rest.ts';
import { listTools } from '../../gateway/tools/index.ts';
import { MODERN, modernRpc } from '../mcp/modern.ts';
import { callTool, rpc, startHarness, type Harness } from './harness.ts';

let h: Harness;
let plain: Harness;
beforeAll(async () => {
  h = await startHarness({ BODY_LIMIT_BYTES: '4096', ALLOWED_ORIGINS: 'https://console.example' });
  plain = await startHarness({ BRIDGE_RESPONSE_SHAPE: 'plain' });
});
afterAll(async () => {
  await h?.close();
  await plain?.close();
});

describe('MCP protocol edges', () => {
  const key = () => h.ws.owner.key;

  it('answers initialize with the 2025-11-25 protocol and no session id', async () => {
    const res = await rpc(h, key(), {
      jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.protocolVersion).toBe('2025-11-25');
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  it('accepts notifications/initialized with 202 and answers ping', async () => {
    expect((await rpc(h, key(), { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect((await rpc(h, key(), { jsonrpc: '2.0', id: 2, method: 'ping' })).body).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('answers malformed JSON with -32700', async () => {
    const res = await rpc(h, key(), '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(res.body.error.code).toBe(-32700);
  });

  it('answers a bad envelope with -32600', async () => {
    const res = await rpc(h, key(), { hello: 'world' });
    expect(res.body.error.code).toBe(-32600);
  });

  it('answers an unknown method with -32601', async () => {
    const res = await rpc(h, key(), { jsonrpc: '2.0', id: 3, method: 'tools/explode', params: {} });
    expect(res.body.error.code).toBe(-32601);
  });

  it('answers a malformed tools/call with -32602', async () => {
    const res = await rpc(h, key(), { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { arguments: {} } });
    expect(res.body.error.code).toBe(-32602);
  });

  it('returns argument validation failures as isError results an agent can correct', async () => {
    const res = await rpc(h, key(), { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'records.list', arguments: { object_type_slug: 'deals', page_size: 500 } } });
    expect(res.body.result.isError).toBe(true);
    expect(res.body.result.structuredContent.error).toMatchObject({ code: 'validation_error', details: { param: 'page_size' } });
  });

  it('lists every tool on one tools/list page and rejects a forged cursor', async () => {
    const first = await rpc(h, key(), { jsonrpc: '2.0', id: 6, method: 'tools/list', params: {} });
    expect(first.body.result.tools).toHaveLength(62);
    expect(first.body.result.nextCursor).toBeUndefined();
    const forged = (o: unknown) => Buffer.from(JSON.stringify({ o })).toString('base64url');
    for (const cursor of ['not-a-cursor', forged(5000), forged(60), forged(0), forged(-1), forged(1.5), forged('100')]) {
      const bad = await rpc(h, key(), { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { cursor } });
      expect(bad.body.error, cursor).toMatchObject({ code: -32602, message: expect.stringContaining('cursor') });
    }
  });

  it('answers initialize for each 2025 revision with that revision', async () => {
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      const res = await rpc(h, key(), { jsonrpc: '2.0', id: 20, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
      expect(res.body.result.protocolVersion).toBe(version);
    }
  });

  it('answers server/discover with 2026-07-28 and the tools capability, as JSON, with no handshake before it', async () => {
    const res = await modernRpc(h, key(), 21, 'server/discover');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.result).toMatchObject({ supportedVersions: [MODERN], capabilities: { tools: {} } });
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  it('serves 2026-07-28 tools/list and tools/call per request, with isError results and plain JSON-RPC error messages', async () => {
    const list = await modernRpc(h, key(), 22, 'tools/list');
    expect(list.body.result.tools.map((t: { name: string }) => t.name)).toEqual(listTools().slice(0, 100).map((t) => t.name));
    const bad = await modernRpc(h, key(), 23, 'tools/call', { name: 'records.list', arguments: { object_type_slug: 'deals', page_size: 0 } }, { 'Mcp-Name': 'records.list' });
    expect(bad.body.result).toMatchObject({ isError: true, structuredContent: { error: { code: 'validation_error', details: { param: 'page_size' } } } });
    const unknown = await modernRpc(h, key(), 24, 'tools/call', { name: 'records.nope', arguments: {} }, { 'Mcp-Name': 'records.nope' });
    expect(unknown.body.error).toEqual({
      code: -32602, message: expect.stringMatching(/^tool "records.nope" does not exist/),
      data: { code: 'tool_not_found', details: { param: 'tool', suggestion: expect.any(String) } },
    });
  });

  it('names the error code of an unknown or over-long tool name in the JSON-RPC error, as REST and the bridge do', async () => {
    const typo = await rpc(h, key(), { jsonrpc: '2.0', id: 30, method: 'tools/call', params: { name: 'records.serch', arguments: {} } });
    expect(typo.body.error).toMatchObject({ code: -32602, data: { code: 'tool_not_found', details: { param: 'tool', suggestion: 'records.search' } } });
    const long = await rpc(h, key(), { jsonrpc: '2.0', id: 31, method: 'tools/call', params: { name: 'x'.repeat(65), arguments: {} } });
    expect(long.body.error).toMatchObject({ code: -32602, data: { code: 'validation_error', details: { param: 'tool', rule: 'max' } } });
  });

  it('answers badly typed params of every method with -32602 and a plain message, never -32603, in both eras', async () => {
    const client = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } };
    const cases: Array<[string, unknown]> = [
      ['tools/list', { cursor: 5 }], ['tools/list', { cursor: null }], ['tools/list', { cursor: {} }], ['tools/list', []], ['tools/list', 'x'],
      ['initialize', undefined], ['initialize', {}], ['initialize', { ...client, protocolVersion: 2025 }], ['initialize', { ...client, capabilities: null }],
      ['initialize', { ...client, clientInfo: { name: 'raw' } }], ['initialize', { ...client, clientInfo: 'raw' }],
      ['ping', 5], ['ping', { _meta: 5 }], ['tools/call', { name: 'records.list', arguments: [] }],
    ];
    let id = 40;
    for (const [method, params] of cases) {
      const res = await rpc(h, key(), { jsonrpc: '2.0', id: id++, method, ...(params === undefined ? {} : { params }) });
      expect(res.body.error, `${method} ${JSON.stringify(params)}`).toMatchObject({ code: -32602, message: expect.stringContaining(method) });
      expect(res.body.error.message).not.toMatch(/"code"|invalid_type|Internal error/);
    }
    for (const cursor of [5, null, {}]) {
      const res = await modernRpc(h, key(), id++, 'tools/list', { cursor });
      expect(res.body.error, `modern cursor ${JSON.stringify(cursor)}`).toMatchObject({ code: -32602, message: expect.stringContaining('cursor') });
    }
  });

  it('sends JSON-RPC error messages without an "MCP error" prefix', async () => {
    const res = await rpc(h, key(), { jsonrpc: '2.0', id: 25, method: 'tools/call', params: { name: 'nope', arguments: {} } }, { 'MCP-Protocol-Version': '2025-11-25' });
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.message).not.toMatch(/MCP error/);
  });

  it('refuses a JSON-RPC batch with -32600 under 2025-06-18 and later, and answers one under 2025-03-26', async () => {
    const batch = [{ jsonrpc: '2.0', id: 26, method: 'ping' }, { jsonrpc: '2.0', id: 27, method: 'tools/list' }];
    for (const version of ['2025-06-18', '2025-11-25', MODERN]) {
      const res = await rpc(h, key(), batch, { 'MCP-Protocol-Version': version });
      expect(res.body).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining(version) } });
    }
    const initBatch = [{ jsonrpc: '2.0', id: 28, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }];
    expect((await rpc(h, key(), initBatch)).body.error.code).toBe(-32600);
    for (const headers of [{ 'MCP-Protocol-Version': '2025-03-26' }, {}] as Array<Record<string, string>>) {
      const res = await rpc(h, key(), batch, headers);
      expect(res.status).toBe(200);
      expect(res.body.map((m: { id: number }) => m.id)).toEqual([26, 27]);
      expect(res.body[1].result.tools.length).toBeGreaterThan(0);
    }
    // A batch of one request (and a notification) is still answered with an array.
    const one = await rpc(h, key(), [{ jsonrpc: '2.0', id: 29, method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect([one.status, one.body]).toEqual([200, [{ jsonrpc: '2.0', id: 29, result: {} }]]);
    // Two requests with one id are refused before either runs: their answers could not be told apart.
    const name = `Twin id ${Date.now()}`;
    const create = (n: number) => ({ jsonrpc: '2.0', id: 30, method: 'tools/call', params: { name: 'records.create', arguments: { object_type_slug: 'companies', data: { name: `${name} ${n}` } } } });
    const twins = await rpc(h, key(), [create(1), create(2)]);
    expect(twins.body).toMatchObject({ error: { code: -32600, message: expect.stringContaining('the id 30') } });
    const found = await callTool(h, 'rest', key(), 'records.list', { object_type_slug: 'companies', filters: { name: { starts_with: name } } });
    expect(found).toMatchObject({ ok: true, result: { total: 0 } });
  });

  it('answers each malformed message of a batch in its place and runs the rest', async () => {
    const name = `Beside malformed ${Date.now()}`;
    const batch = [
      { jsonrpc: '2.0', id: 41, method: 'ping' },
      7,
      { jsonrpc: '2.0', id: 43, method: 'tools/call', params: { arguments: {} } },
      { jsonrpc: '1.0', id: 44, method: 'ping' },
      { jsonrpc: '2.0', id: 45, method: 'tools/call', params: { name: 'records.create', arguments: { object_type_slug: 'companies', data: { name } } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ];
    const res = await rpc(h, key(), batch, { 'MCP-Protocol-Version': '2025-03-26' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { jsonrpc: '2.0', id: 41, result: {} },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'a JSON-RPC message must be an object' } },
      { jsonrpc: '2.0', id: 43, error: { code: -32602, message: 'tools/call needs params.name, the tool name' } },
      { jsonrpc: '2.0', id: 44, error: { code: -32600, message: 'jsonrpc must be "2.0"' } },
      { jsonrpc: '2.0', id: 45, result: expect.objectContaining({ structuredContent: expect.objectContaining({ data: expect.objectContaining({ name }) }) }) },
    ]);
    expect(await callTool(h, 'rest', key(), 'records.list', { object_type_slug: 'companies', filters: { name } })).toMatchObject({ ok: true, result: { total: 1 } });
    // Beside only a notification the errors are still answered; with nothing well-formed, a 400.
    const beside = await rpc(h, key(), [8, { jsonrpc: '2.0', method: 'notifications/initialized' }]);
    expect([beside.status, beside.body]).toEqual([200, [{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'a JSON-RPC message must be an object' } }]]);
    const none = await rpc(h, key(), [1, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 3 } }]);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject([{ id: null, error: { code: -32600 } }, { id: 2, error: { code: -32602, message: expect.stringContaining('cursor') } }]);
  });

  it('answers in place, free of charge, the messages only the protocol schema refuses, and runs the rest', async () => {
    const name = `Beside unreadable ${Date.now()}`;
    const unreadable = [
      { jsonrpc: '2.0', id: null, method: 'ping' },
      { jsonrpc: '2.0', id: 1.5, method: 'ping' },
      { jsonrpc: '2.0', id: true, method: 'ping' },
      { jsonrpc: '2.0', id: {}, method: 'ping' },
      { jsonrpc: '2.0', id: 55, method: 'ping', extra: true },
      { jsonrpc: '2.0', method: 'notifications/initialized', params: [] },
      { jsonrpc: '2.0', id: 57, error: 'not an error object' },
    ];
    const create = { jsonrpc: '2.0', id: 50, method: 'tools/call', params: { name: 'records.create', arguments: { object_type_slug: 'companies', data: { name } } } };
    const ws = await h.newWorkspace();
    const before = await rpc(h, ws.owner.key, { jsonrpc: '2.0', id: 1, method: 'ping' });
    const res = await rpc(h, ws.owner.key, [create, ...unreadable], { 'MCP-Protocol-Version': '2025-03-26' });
    expect(res.status).toBe(200);
    const refusal = (id: unknown) => ({ jsonrpc: '2.0', id, error: { code: -32600, message: expect.stringContaining('not a JSON-RPC 2.0') } });
    expect(res.body).toEqual([
      { jsonrpc: '2.0', id: 50, result: expect.objectContaining({ structuredContent: expect.objectContaining({ data: expect.objectContaining({ name }) }) }) },
      refusal(null), refusal(null), refusal(null), refusal(null), refusal(55), refusal(null), refusal(57),
    ]);
    expect(await callTool(h, 'rest', ws.owner.key, 'records.list', { object_type_slug: 'companies', filters: { name } })).toMatchObject({ ok: true, result: { total: 1 } });
    // Since the first ping: the batch cost one call (its POST, the create), records.list one, this ping one.
    const left = (r: { headers: Headers }) => Number(/r=(\d+)/.exec(r.headers.get('RateLimit') ?? '')?.[1]);
    const after = await rpc(h, ws.owner.key, { jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(left(before) - left(after)).toBe(3);
  });

  it('bills a /graphql operation one call per root field, as the rate limiter counts it', async () => {
    const ws = await plain.newWorkspace();
    const graphql = (query: string) => fetch(`${plain.url}/graphql`, {
      method: 'POST', headers: { Authorization: `Bearer ${ws.owner.key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query }),
    }).then((r) => r.json());
    const billed = async () => {
      const out = await callTool(plain, 'rest', ws.owner.key, 'billing.get', {});
      if (!out.ok) throw new Error(out.message);
      return out.result.usage.calls_by_style.graphql as number;
    };
    const start = await billed();
    expect((await graphql('{ a: reports { total } b: reports { total } c: objectTypes { slug } }')).data.a.total).toBe(0);
    expect(await billed()).toBe(start + 3);
    // The direct path (one tool's fixed document) counts the same way.
    expect((await graphql('{ reports { total } }')).data.reports.total).toBe(0);
    expect(await billed()).toBe(start + 4);
    // Refused before it runs (not valid against the schema): no tool ran, nothing billed.
    expect((await graphql('{ nope }')).errors).toBeDefined();
    expect(await billed()).toBe(start + 4);
  });

  it('refuses null parameters in every call style, and a REST body that is no object naming the body, and reads no body as none', async () => {
    const rest = (body?: string) => fetch(`${h.url}/v1/lists/list`, {
      method: 'POST', headers: { Authorization: `Bearer ${key()}`, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body }),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));
    expect(await rest('null')).toMatchObject({ status: 400, body: { code: 'validation_error', details: { param: 'body', rule: 'type' } } });
    for (const [body, got] of [['[]', 'an array'], ['5', 'a number'], ['"x"', 'a string'], ['true', 'a boolean']]) {
      expect(await rest(body), body).toMatchObject({ status: 400, body: { code: 'validation_error', error: expect.stringContaining(`got ${got}`), details: { param: 'body', rule: 'type' } } });
    }
    expect(await rest()).toMatchObject({ status: 200, body: { items: expect.any(Array) } });
    expect(await callTool(h, 'bridge', key(), 'lists.list', null)).toMatchObject({ ok: false, status: 400, details: { param: 'params' } });
    expect(await callTool(h, 'mcp', key(), 'lists.list', null)).toMatchObject({ ok: false, rpc: -32602 });
  });

  it('answers a batch whose results pass its bound, refusing the reads past it in their places', async () => {
    // 80 records of about 900 KB of JSON each (45 text fields of 10,000 characters that JSON escapes).
    const k = plain.ws.owner.key;
    const fields = [{ slug: 'name', name: 'Name', type: 'text' }, ...Array.from({ length: 45 }, (_, i) => ({ slug: `f${i}`, name: `F${i}`, type: 'text' }))];
    expect((await callTool(plain, 'rest', k, 'objects.create', { slug: 'blobs', name: 'Blobs', fields })).ok).toBe(true);
    const data: Record<string, string> = { name: 'blob' };
    for (let i = 0; i < 45; i++) data[`f${i}`] = '"\\'.repeat(5_000);
    const base = { object_type_slug: 'blobs', uniques: [], created_by: plain.ws.owner.user_id, assignee_id: plain.ws.owner.user_id, data };
    await plain.server.store.createRecords(plain.ws.id, Array.from({ length: 80 }, () => ({ ...base, refs: [] })));
    const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const page = { object_type_slug: 'blobs', page_size: 40 };
    const batch = [call(1, 'records.list', page), call(2, 'records.list', page), call(3, 'records.create', { object_type_slug: 'blobs', data: { name: 'late' } }), call(4, 'objects.list', {})];
    const res = await rpc(plain, k, batch, { 'MCP-Protocol-Version': '2025-03-26' });
    expect(res.status).toBe(200);
    expect(res.body.map((m: { id: number }) => m.id)).toEqual([1, 2, 3, 4]);
    // Each page is about 36 MB of JSON: the first to finish fits the 64 MiB, the other does not.
    const [a, b] = res.body.slice(0, 2);
    const refused = [a, b].filter((m: { error?: unknown }) => m.error);
    expect(refused).toEqual([{ jsonrpc: '2.0', id: expect.any(Number), error: {
      code: -32004, message: expect.stringContaining('call records.list alone or in a smaller batch'),
      data: { code: 'payload_too_large', details: { limit: 64 * 1024 * 1024, tool: 'records.list' } },
    } }]);
    expect([a, b].find((m: { result?: unknown }) => m.result).result.structuredContent.items).toHaveLength(40);
    // The write is answered whatever the reads took, and a small read still fits.
    expect(res.body[2].result.structuredContent).toMatchObject({ data: { name: 'late' } });
    expect(res.body[3].result.structuredContent.items.length).toBeGreaterThan(0);
    // Alone, the refused read is answered.
    expect(await callTool(plain, 'mcp', k, 'records.list', page)).toMatchObject({ ok: true, result: { total: 81 } });
  }, 60_000);

  it('answers GET with 405', async () => {
    const res = await fetch(`${h.url}/mcp/`, { headers: { Authorization: `Bearer ${key()}`, Accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('refuses a foreign Origin with 403 and admits a configured one', async () => {
    const ping = { jsonrpc: '2.0', id: 8, method: 'ping' };
    expect((await rpc(h, key(), ping, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await rpc(h, key(), ping, { Origin: 'https://console.example' })).status).toBe(200);
  });

  it('answers a missing or bad key with 401 and WWW-Authenticate: Bearer', async () => {
    for (const k of [null, 'crm_live_tttttttttttttttttttttttttttttttttttttttttttt', 'nonsense']) {
      const res = await rpc(h, k, { jsonrpc: '2.0', id: 9, method: 'tools/list' });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(res.body.error.data.code).toBe('unauthorized');
    }
  });
});

describe('REST and bridge edges', () => {
  it('refuses a body over the limit with 413 payload_too_large', async () => {
    const big = { object_type_slug: 'companies', data: { name: 'x'.repeat(10_000) } };
    for (const style of ['rest', 'bridge', 'mcp'] as const) {
      const out = await callTool(h, style, h.ws.owner.key, 'records.create', big);
      expect(out).toMatchObject({ ok: false, status: 413, code: 'payload_too_large' });
    }
  });

  it('refuses a body that is not UTF-8 on every call style instead of storing it damaged', async () => {
    const name = `bad ${Date.now()}`;
    const headers = { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const post = async (path: string, json: string) => {
      const at = json.indexOf('@');
      const body = Buffer.concat([Buffer.from(json.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(json.slice(at + 1))]);
      const res = await fetch(`${h.url}${path}`, { method: 'POST', headers, body });
      return { status: res.status, body: await res.json() };
    };
    const rest = await post('/v1/records/create', `{"object_type_slug":"companies","data":{"name":"${name}@"}}`);
    expect(rest).toMatchObject({ status: 400, body: { code: 'validation_error', details: { param: 'body', rule: 'utf8' } } });
    const bridge = await post('/mcp/api/developers/mcp/call/', `{"tool":"records.create","params":{"object_type_slug":"companies","data":{"name":"${name}@"}}}`);
    expect(bridge).toMatchObject({ status: 400, body: { success: false, error: { code: 'VALIDATION_ERROR' } } });
    const mcp = await post('/mcp/', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"records.create","arguments":{"object_type_slug":"companies","data":{"name":"${name}@"}}}}`);
    expect(mcp).toMatchObject({ status: 400, body: { error: { code: -32700 } } });
    const gql = await post('/graphql', `{"query":"mutation { createRecord(object_type_slug: \\"companies\\", data: {name: \\"${name}@\\"}) { record_id } }"}`);
    // Refused before GraphQL reads it, so in the gateway's shape A, as /graphql's other transport refusals.
    expect(gql).toMatchObject({ status: 400, body: { code: 'validation_error', details: { param: 'body', rule: 'utf8' } } });
    const found = await callTool(h, 'rest', h.ws.owner.key, 'records.list', { object_type_slug: 'companies', filters: { name: { starts_with: name } } });
    expect(found).toMatchObject({ ok: true, result: { total: 0 } });
  });

  it('answers malformed JSON on REST with validation_error naming the body', async () => {
    const res = await fetch(`${h.url}/v1/records/list`, {
      method: 'POST', headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json' }, body: '{nope',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'validation_error', details: { param: 'body' } });
  });

  it('answers a path it does not serve with 404 not_found in shape A, whatever the method', async () => {
    for (const [method, path] of [['POST', '/v1/records/get/extra'], ['GET', '/nowhere'], ['POST', '/mcp/api/other']]) {
      const res = await fetch(`${h.url}${path}`, { method, headers: { Authorization: `Bearer ${h.ws.owner.key}` } });
      expect([method, path, res.status]).toEqual([method, path, 404]);
      expect(await res.json()).toEqual({ error: `no route for ${method} ${path}; tools are at POST /v1/<category>/<action>`, code: 'not_found' });
    }
  });

  it('answers GET on a tool path with 405', async () => {
    const res = await fetch(`${h.url}/v1/records/list`, { headers: { Authorization: `Bearer ${h.ws.owner.key}` } });
    expect(res.status).toBe(405);
  });

  it('answers other methods than POST on the bridge with 405 and Allow: POST, with or without the trailing slash', async () => {
    for (const path of ['/mcp/api/developers/mcp/call/', '/mcp/api/developers/mcp/call']) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const res = await fetch(`${h.url}${path}`, { method, headers: { Authorization: `Bearer ${h.ws.owner.key}` } });
        expect([path, method, res.status, res.headers.get('allow')]).toEqual([path, method, 405, 'POST']);
        expect(await res.json()).toEqual({ error: `method ${method} is not allowed here; use POST` });
      }
    }
  });

  it('serves the bridge and MCP with or without the trailing slash', async () => {
    for (const path of ['/mcp/api/developers/mcp/call/', '/mcp/api/developers/mcp/call']) {
      const res = await fetch(`${h.url}${path}`, {
        method: 'POST', headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ tool: 'objects.list', params: {} }),
      });
      expect([path, res.status]).toEqual([path, 200]);
      expect(await res.json()).toMatchObject({ success: true });
    }
    for (const path of ['/mcp/', '/mcp']) {
      const res = await fetch(`${h.url}${path}`, {
        method: 'POST', headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
      });
      expect([path, res.status]).toEqual([path, 200]);
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    }
  });

  it('routes a call of each style through one route, whatever the method', async () => {
    // @koa/router builds and flattens the middleware chain of every route a request matches, on
    // every request: a second route per path (a catch-all for the 405, a second spelling of the
    // path) doubled that work for every call.
    const router = new Router();
    const deps = { config: h.config, store: h.server.store, logger: { debug() {}, info() {}, warn() {}, error() {} } };
    const pass: Middleware = (_ctx, next) => next();
    mountRest(router, deps, pass);
    mountBridge(router, deps, pass);
    mountMcp(router, deps, pass);
    mountGraphQL(router, deps, pass);
    for (const path of ['/v1/records/get', '/mcp/api/developers/mcp/call/', '/mcp/api/developers/mcp/call', '/mcp/', '/mcp', '/graphql']) {
      for (const method of ['POST', 'GET']) expect([path, method, router.match(path, method).pathAndMethod.length]).toEqual([path, method, 1]);
    }
  });

  it('answers the bridge without a tool name with validation_error naming tool', async () => {
    const res = await fetch(`${h.url}/mcp/api/developers/mcp/call/`, {
      method: 'POST', headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ params: {} }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      success: false, error: { code: 'VALIDATION_ERROR', message: expect.stringContaining('tool'), details: { param: 'tool', rule: 'required' } },
    });
  });

  it('answers the bridge in shape B by default: {success, data} and {success: false, error: {code, message}}', async () => {
    const post = (body: unknown) => fetch(`${h.url}/mcp/api/developers/mcp/call/`, {
      method: 'POST', headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    const ok = await (await post({ tool: 'records.create', params: { object_type_slug: 'companies', data: { name: 'Shape B' } } })).json();
    expect(ok).toMatchObject({ success: true, data: { object_type_slug: 'companies', record_id: expect.stringMatching(/^rec_/) } });
    const missing = await post({ tool: 'records.get', params: { record_id: 'rec_01M80M9R1HS9S9FP9P9YQ048KD' } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND', message: expect.stringContaining('not found') } });
  });

  it('answers the bridge in shape A when configured: the result itself and {error, code}', async () => {
    const post = (body: unknown) => fetch(`${plain.url}/mcp/api/developers/mcp/call/`, {
      method: 'POST', headers: { Authorization: `Bearer ${plain.ws.owner.key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    const created = await (await post({ tool: 'records.create', params: { object_type_slug: 'companies', data: { name: 'Shape A' } } })).json();
    expect(created).toMatchObject({ object_type_slug: 'companies', data: { name: 'Shape A' } });
    expect(created.success).toBeUndefined();
    const unknown = await post({ tool: 'records.nope', params: {} });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'tool_not_found', error: expect.stringContaining('records.nope') });
  });
});

describe('GraphQL at /graphql', () => {
  const gql = (key: string | null, query: string, variables: Record<string, unknown> = {}) => fetch(`${h.url}/graphql`, {
    method: 'POST',
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });

  it('names the tool on the timeline when an operation runs one tool, on the direct path and on yoga\'s', async () => {
    const note = async (title: string, headers: Record<string, string>) => {
      const res = await fetch(`${h.url}/graphql`, {
        method: 'POST', headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ query: `mutation { createNote(title: ${JSON.stringify(title)}) { note_id } }` }),
      });
      return ((await res.json()) as { data: { createNote: { note_id: string } } }).data.createNote.note_id;
    };
    // A plain JSON exchange takes the direct path; an Accept of the GraphQL response type, yoga's.
    const direct = await note('Via the direct path', {});
    const viaYoga = await note('Via yoga', { Accept: 'application/graphql-response+json' });
    const both = await gql(h.ws.owner.key, 'mutation { a: createNote(title: "A") { note_id } b: createTask(title: "B") { task_id } }');
    const { a, b } = ((await both.json()) as { data: { a: { note_id: string }; b: { task_id: string } } }).data;
    const events = await callTool(h, 'rest', h.ws.owner.key, 'timeline.list', { page_size: 10 });
    if (!events.ok) throw new Error(events.message);
    const byResource = new Map((events.result.items as Array<{ resource_id: string; via: string; tool: string | null }>).map((e) => [e.resource_id, [e.via, e.tool]]));
    expect([direct, viaYoga, a.note_id, b.task_id].map((id) => byResource.get(id))).toEqual([
      ['graphql', 'notes.create'], ['graphql', 'notes.create'], ['graphql', null], ['graphql', null],
    ]);
  });

  it('bounds Record.relations by its limit, counts them all, and prices the limit into the cost', async () => {
    const key = h.ws.owner.key;
    const hub = await callTool(h, 'rest', key, 'records.create', { object_type_slug: 'companies', data: { name: 'Relations hub' } });
    if (!hub.ok) throw new Error(hub.message);
    const id = hub.result.record_id as string;
    for (let i = 0; i < 3; i++) await callTool(h, 'rest', key, 'records.create', { object_type_slug: 'contacts', data: { name: `Near ${i}`, company: id } });
    const body = async (res: Response) => ({ status: res.status, json: await res.json() });
    const two = await body(await gql(key, 'query($id: String!) { record(record_id: $id) { relations(limit: 2) { type } relations_total } }', { id }));
    expect(two).toEqual({ status: 200, json: { data: { record: { relations: [{ type: 'company' }, { type: 'company' }], relations_total: 3 } } } });
    for (const limit of [0, 1001]) {
      const out = await body(await gql(key, `query($id: String!) { record(record_id: $id) { relations(limit: ${limit}) { type } } }`, { id }));
      expect(out.json.errors[0]).toMatchObject({ extensions: { code: 'validation_error', details: { param: 'limit', max: 1000 } } });
    }
    // A page of records, each with up to 1,000 relations, is priced as that many.
    const page = await body(await gql(key, '{ records(object_type_slug: "companies", page_size: 100) { items { relations { type } } } }'));
    expect(page).toMatchObject({ status: 400, json: { errors: [{ extensions: { code: 'validation_error', rule: 'max_cost' } }] } });
    const bounded = await body(await gql(key, '{ records(object_type_slug: "companies", page_size: 100) { items { relations(limit: 10) { type } } } }'));
    expect(bounded.status).toBe(200);
  });

  it('serves the same data behind the same bearer auth', async () => {
    const res = await gql(h.ws.owner.key, '{ objectTypes { slug fields { slug type } } }');
    const body = await res.json();
    expect(body.data.objectTypes.map((t: { slug: string }) => t.slug)).toEqual(expect.arrayContaining(['companies', 'contacts', 'deals']));
    expect((await gql(null, '{ objectTypes { slug } }')).status).toBe(401);
  });

  it('enforces scopes and roles with the service error codes in extensions', async () => {
    const scoped = await (await gql(h.ws.recordsOnly, 'mutation { updateObjectType(slug: "companies", name: "Orgs") { name } }')).json();
    expect(scoped.errors[0].extensions.code).toBe('permission_denied');
    const member = await (await gql(h.ws.member.key, 'mutation { createObjectType(slug: "x_member", name: "X", fields: [{slug: "name", name: "Name", type: text}]) { slug } }')).json();
    expect(member.errors[0].extensions.code).toBe('permission_denied');
    const invalid = await (await gql(h.ws.owner.key, 'mutation($d: JSON!) { createRecord(object_type_slug: "contacts", data: $d) { id } }', { d: { nam: 'x' } })).json();
    expect(invalid.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { param: 'data.nam', suggestion: 'name' } });
  });
});

describe('operations endpoints', () => {
  it('reports health, readiness of the store, metrics and the OpenAPI document', async () => {
    expect(await (await fetch(`${h.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await (await fetch(`${h.url}/readyz`)).json();
    expect(ready).toMatchObject({ status: 'ready', checks: { store: { ok: true }, rate_limiter: { ok: true, backend: 'memory' } } });
    expect(await (await fetch(`${h.url}/metrics`)).text()).toMatch(/crm_http_requests_total\{edge="ops",status="200"\} \d+/);
    const openapi = await (await fetch(`${h.url}/openapi.json`)).json();
    expect(openapi.info.version).toBe('1.0.0');
  });
});

describe('answers on the wire', () => {
  // Beyond Latin-1, so the answer's text is not one byte per character.
  const name = 'Zoë Ærøskøbing 東京 🚀';

  /** A raw POST: the status, headers and exact bytes of the answer. */
  async function post(path: string, body: unknown, extra: Record<string, string> = {}) {
    const res = await fetch(`${h.url}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json', ...extra },
      body: JSON.stringify(body),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, type: res.headers.get('content-type'), length: Number(res.headers.get('content-length')), bytes };
  }

  it('sends every call style\'s JSON as UTF-8 with its exact byte length', async () => {
    const created = await callTool(h, 'rest', h.ws.owner.key, 'records.create', { object_type_slug: 'companies', data: { name } });
    expect(created.ok).toBe(true);
    const id = (created as { result: { record_id: string } }).result.record_id;
    const answers = {
      rest: await post('/v1/records/get', { record_id: id }),
      bridge: await post('/mcp/api/developers/mcp/call/', { tool: 'records.get', params: { record_id: id } }),
      mcp: await post('/mcp/', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'records.get', arguments: { record_id: id } } },
        { Accept: 'application/json, text/event-stream' }),
      graphql: await post('/graphql', { query: 'query($id: String!) { record(record_id: $id) { display_name } }', variables: { id } }),
    };
    for (const [style, answer] of Object.entries(answers)) {
      expect({ style, status: answer.status, type: answer.type }).toEqual({ style, status: 200, type: expect.stringMatching(/^application\/json/) });
      expect(answer.length).toBe(answer.bytes.length);
      expect(answer.bytes.toString('utf8')).toContain(JSON.stringify(name).slice(1, -1));
    }
  });
});

describe('request heads and bodies every edge refuses alike', () => {
  type EdgeName = 'rest' | 'bridge' | 'mcp' | 'graphql';
  const EDGES: Array<{ edge: EdgeName; path: string; body: unknown; headers?: Record<string, string> }> = [
    { edge: 'rest', path: '/v1/objects/list', body: {} },
    { edge: 'bridge', path: '/mcp/api/developers/mcp/call/', body: { tool: 'objects.list', params: {} } },
    { edge: 'mcp', path: '/mcp/', body: { jsonrpc: '2.0', id: 1, method: 'ping' }, headers: { Accept: 'application/json, text/event-stream' } },
    { edge: 'graphql', path: '/graphql', body: { query: '{ objectTypes { slug } }' } },
  ];

  /**
   * A POST through node:http, which sends each value of an array as its own header line (fetch
   * joins them into one) and sends the body bytes as given.
   */
  function send(path: string, headers: Record<string, string | string[]>, body: Buffer | string, method = 'POST') {
    return new Promise<{ status: number; headers: IncomingHttpHeaders; body: any }>((resolve, reject) => {
      const req = httpRequest(`${h.url}${path}`, { method, headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : null });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** The error's code, message and details, read from the edge's own error shape. */
  function errorOf(edge: EdgeName, body: any): { code: string; message: string; details?: unknown } {
    if (edge === 'bridge') return { code: String(body.error.code).toLowerCase(), message: body.error.message, details: body.error.details };
    if (edge === 'mcp') return { code: body.error.data.code, message: body.error.message, details: body.error.data.details };
    return { code: body.code, message: body.error, details: body.details };
  }

  it('refuses two Authorization headers with 401 on every call style and /graphql, whichever key comes first', async () => {
    const pairs = [[h.ws.owner.key, h.other.owner.key], [h.other.owner.key, h.ws.owner.key], [h.ws.owner.key, h.ws.owner.key]];
    for (const { edge, path, body, headers } of EDGES) {
      for (const keys of pairs) {
        const res = await send(path, { ...headers, Authorization: keys.map((k) => `Bearer ${k}`) }, JSON.stringify(body));
        expect([edge, res.status, res.headers['www-authenticate']]).toEqual([edge, 401, expect.stringMatching(/^Bearer /)]);
        expect(errorOf(edge, res.body)).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('2 Authorization headers; send exactly one') });
      }
      const one = await send(path, { ...headers, Authorization: `Bearer ${h.ws.owner.key}` }, JSON.stringify(body));
      expect([edge, one.status]).toEqual([edge, 200]);
    }
  });

  it('refuses a body in any Content-Encoding but identity with 415 in each edge\'s error shape, and takes identity', async () => {
    const auth = { Authorization: `Bearer ${h.ws.owner.key}` };
    for (const { edge, path, body, headers } of EDGES) {
      const json = JSON.stringify(body);
      const refusals = [
        { coding: 'gzip', bytes: gzipSync(json) },
        // A plain body labelled compressed used to be read as if the label were not there.
        { coding: 'br', bytes: Buffer.from(json) },
        { coding: 'identity, gzip', bytes: gzipSync(json) },
      ];
      for (const { coding, bytes } of refusals) {
        const res = await send(path, { ...auth, ...headers, 'Content-Encoding': coding }, bytes);
        expect([edge, coding, res.status, res.headers['accept-encoding']]).toEqual([edge, coding, 415, 'identity']);
        expect(errorOf(edge, res.body)).toEqual({
          code: 'validation_error', message: `Content-Encoding ${JSON.stringify(coding)} is not supported: send the body uncompressed, without Content-Encoding`,
          details: { param: 'content-encoding', rule: 'media_type', allowed: ['identity'] },
        });
      }
      const plain = await send(path, { ...auth, ...headers, 'Content-Encoding': 'identity' }, json);
      expect([edge, plain.status]).toEqual([edge, 200]);
    }
  });

  it('answers a body declared as another type than JSON with a 415 in each call style\'s error shape', async () => {
    const auth = { Authorization: `Bearer ${h.ws.owner.key}` };
    for (const { edge, path, body, headers } of EDGES.filter((e) => e.edge !== 'graphql')) {
      const json = JSON.stringify(body);
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const res = await send(path, { ...auth, ...headers, 'Content-Type': type }, json);
        expect([edge, type, res.status]).toEqual([edge, type, 415]);
        expect(errorOf(edge, res.body)).toEqual({
          code: 'validation_error', message: `Content-Type must be application/json, got ${JSON.stringify(type)}`,
          details: { param: 'content-type', rule: 'media_type', allowed: ['application/json'] },
        });
      }
      // An empty list of values sends no Content-Type line at all: REST and the bridge read the
      // body as JSON (curl -d without -H); MCP's transport requires the type.
      for (const type of edge === 'mcp' ? ['application/json; charset=utf-8'] : ['application/json; charset=utf-8', []]) {
        const res = await send(path, { ...auth, ...headers, 'Content-Type': type }, json);
        expect([edge, type, res.status]).toEqual([edge, type, 200]);
      }
    }
  });

  it('answers a POST to /graphql of a type it does not read with a 415 that says which types it takes', async () => {
    const auth = { Authorization: `Bearer ${h.ws.owner.key}` };
    const query = JSON.stringify({ query: '{ objectTypes { slug } }' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await send('/graphql', { ...auth, 'Content-Type': type }, query);
      expect([type, res.status]).toEqual([type, 415]);
      const error = `Content-Type must be application/json for a POST to /graphql; got ${JSON.stringify(type)}`;
      const details = { param: 'content-type', rule: 'media_type', allowed: ['application/json', 'application/graphql+json', 'application/graphql'] };
      expect(res.body).toEqual({ error, code: 'validation_error', details, errors: [{ message: error, extensions: { code: 'validation_error', details } }] });
    }
    const bare = await send('/graphql', { ...auth, 'Content-Type': 'application/graphql' }, '{ objectTypes { slug } }');
    expect(bare.status).toBe(200);
    expect(bare.body.data.objectTypes.length).toBeGreaterThan(0);
  });

  it('answers methods other than GET and POST on /graphql with 405 and Allow: GET, POST, and still serves GET queries', async () => {
    const auth = { Authorization: `Bearer ${h.ws.owner.key}` };
    for (const method of ['PATCH', 'PUT', 'DELETE']) {
      const res = await send('/graphql', auth, '', method);
      expect([method, res.status, res.headers.allow]).toEqual([method, 405, 'GET, POST']);
      expect(res.body).toEqual({ error: `method ${method} is not allowed on /graphql; use POST (or GET for a query)` });
    }
    const get = await fetch(`${h.url}/graphql?query=${encodeURIComponent('{ objectTypes { slug } }')}`, { headers: auth });
    expect(get.status).toBe(200);
    expect((await get.json()).data.objectTypes.length).toBeGreaterThan(0);
  });

  it('refuses GET variables or extensions that are not one JSON object with 400 naming them, and serves good ones', async () => {
    const auth = { Authorization: `Bearer ${h.ws.owner.key}` };
    const query = encodeURIComponent('query($slug: String!) { objectType(slug: $slug) { slug } }');
    for (const [name, raw] of [['variables', 'notjson'], ['extensions', 'notjson'], ['variables', '[1]'], ['variables', '"x"'], ['extensions', '5']]) {
      const res = await fetch(`${h.url}/graphql?query=${query}&${name}=${encodeURIComponent(raw!)}`, { headers: auth });
      expect([name, raw, res.status]).toEqual([name, raw, 400]);
      expect((await res.json()).errors[0]).toMatchObject({ extensions: { code: 'validation_error', details: { param: name, rule: 'json' } } });
    }
    const twice = await fetch(`${h.url}/graphql?query=${query}&variables=%7B%7D&variables=%7B%7D`, { headers: auth });
    expect(twice.status).toBe(400);
    const good = await fetch(`${h.url}/graphql?query=${query}&variables=${encodeURIComponent('{"slug":"deals"}')}`, { headers: auth });
    expect([good.status, (await good.json()).data]).toEqual([200, { objectType: { slug: 'deals' } }]);
  });
});
