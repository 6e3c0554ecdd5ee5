import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../gateway/app.ts';
import type { Logger } from '../../gateway/logger.ts';
import { startHarness, type Harness } from '../e2e/harness.ts';
import { MODERN } from './modern.ts';

/**
 * The direct tools/call path against the SDK: two gateways on one store, one with the direct
 * path and one without, are sent the same requests and must answer alike — status, headers,
 * body bytes and the call record — while the direct one builds no SDK Server for the requests
 * it claims.
 */

interface Gateway {
  url: string;
  http: HttpServer;
  calls: Array<Record<string, unknown>>;
}

let h: Harness;
let direct: Gateway;
let sdk: Gateway;

async function gateway(useDirect: boolean): Promise<Gateway> {
  const calls: Array<Record<string, unknown>> = [];
  const quiet = () => undefined;
  const logger: Logger = { debug: quiet, warn: quiet, error: quiet, info: (msg, fields) => { if (msg === 'call') calls.push(fields ?? {}); } };
  const app = createApp({ config: h.config, store: h.server.store, logger }, { mcp: { direct: useDirect } });
  const http = createServer(app.callback());
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, http, calls };
}

beforeAll(async () => {
  h = await startHarness();
  direct = await gateway(true);
  sdk = await gateway(false);
});
afterAll(async () => {
  for (const g of [direct, sdk]) await new Promise((resolve) => g?.http.close(resolve));
  await h?.close();
});

const connects = vi.spyOn(Server.prototype, 'connect');
afterEach(() => connects.mockClear());

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: unknown;
  call: { tool?: unknown; code?: unknown; status?: unknown };
  /** How many SDK Servers were connected to answer it. */
  servers: number;
}

/** Headers that differ between any two answers: the generated request id and the clock. */
const VARYING = new Set(['x-request-id', 'date']);

async function send(g: Gateway, key: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const before = connects.mock.calls.length;
  const res = await fetch(`${g.url}/mcp/`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const { tool, code, status } = g.calls.at(-1) ?? {};
  return {
    status: res.status,
    headers: Object.fromEntries([...res.headers].filter(([name]) => !VARYING.has(name))),
    text,
    body: text ? JSON.parse(text) : null,
    call: { tool, code, status },
    servers: connects.mock.calls.length - before,
  };
}

/**
 * Sends one request to both gateways and requires the same answer; returns the direct one, with
 * the number of SDK Servers the other one connected.
 */
async function same(key: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer & { sdkServers: number }> {
  const a = await send(direct, key, body, headers);
  const b = await send(sdk, key, body, headers);
  expect(a.status).toBe(b.status);
  expect(a.headers).toEqual(b.headers);
  expect(a.body).toEqual(b.body);
  expect(a.text).toBe(b.text);
  expect(a.call).toEqual(b.call);
  return { ...a, sdkServers: b.servers };
}

function call(id: string | number, name: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...extra } };
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const modernHeaders = (name: string) => ({ 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': name });
const MISSING_RECORD = 'rec_01J9ZK3M4N5P6Q7R8S9T0V1W2X';

describe('the direct tools/call path answers exactly as the SDK does', () => {
  const owner = () => h.ws.owner.key;
  let recordId: string;

  beforeAll(async () => {
    const created = await send(sdk, h.ws.owner.key, call(1, 'records.create', { object_type_slug: 'companies', data: { name: 'Direct Co', domain: 'direct.example' } }));
    recordId = (created.body as any).result.structuredContent.record_id;
  });

  it('answers a successful 2025-era call, as the bench sends it, directly and identically', async () => {
    const a = await same(owner(), call(7, 'records.get', { record_id: recordId }));
    expect(a.servers).toBe(0);
    expect(a.sdkServers).toBe(1);
    expect((a.body as any).result.structuredContent.record_id).toBe(recordId);
    expect(a.call).toMatchObject({ tool: 'records.get', code: 'ok', status: 200 });
  });

  it('answers a record whose text needs escaping and goes beyond Latin-1 with the same bytes', async () => {
    // The direct path escapes the text block from the answer's UTF-8 bytes (embeddedJsonBytes).
    const name = 'Say "hi" \\ C:\\temp – Zürich 東京 🚀\nline\ttab\u0001';
    const created = await send(sdk, owner(), call(2, 'records.create', { object_type_slug: 'companies', data: { name, domain: 'escape.example' } }));
    const id = (created.body as any).result.structuredContent.record_id as string;
    const a = await same(owner(), call('id – "é" 🚀', 'records.get', { record_id: id }));
    expect(a.servers).toBe(0);
    expect((a.body as any).result.structuredContent.data.name).toBe(name);
    expect(JSON.parse((a.body as any).result.content[0].text)).toEqual((a.body as any).result.structuredContent);
  });

  it('answers a call with a string id and a 2025-06-18 MCP-Protocol-Version header directly', async () => {
    const a = await same(owner(), call('req-1', 'records.get', { record_id: recordId }), { 'MCP-Protocol-Version': '2025-06-18' });
    expect(a.servers).toBe(0);
  });

  it('answers a 2025-era call with an Mcp-Method header directly, as the SDK classifier routes it', async () => {
    const a = await same(owner(), call(35, 'records.get', { record_id: recordId }), { 'Mcp-Method': 'tools/call' });
    expect(a.servers).toBe(0);
    expect(a.status).toBe(200);
  });

  it('answers a validation failure as the same isError result', async () => {
    const a = await same(owner(), call(8, 'records.get', { record_id: 'rec_nope' }));
    expect(a.servers).toBe(0);
    expect((a.body as any).result).toMatchObject({ isError: true, structuredContent: { error: { code: 'validation_error' } } });
    expect(a.call.code).toBe('validation_error');
  });

  it('answers a missing record as the same not_found result', async () => {
    const a = await same(owner(), call(9, 'records.get', { record_id: MISSING_RECORD }));
    expect(a.servers).toBe(0);
    expect((a.body as any).result.structuredContent.error.code).toBe('not_found');
  });

  it('answers a call the key may not make as the same permission_denied result', async () => {
    const a = await same(h.ws.recordsOnly, call(10, 'tasks.list', {}));
    expect(a.servers).toBe(0);
    expect((a.body as any).result.structuredContent.error.code).toBe('permission_denied');
  });

  it('answers an unknown tool with the same JSON-RPC error', async () => {
    const a = await same(owner(), call(11, 'records.gett', {}));
    expect(a.servers).toBe(0);
    expect((a.body as any).error).toMatchObject({ code: -32602, message: expect.stringContaining('did you mean "records.get"') });
    expect(a.call).toMatchObject({ tool: 'unknown', code: 'tool_not_found' });
  });

  it('answers a 2026-07-28 call with its _meta envelope directly, stamped like the SDK stamps it', async () => {
    const a = await same(owner(), call(12, 'records.get', { record_id: recordId }, { _meta: ENVELOPE }), modernHeaders('records.get'));
    expect(a.servers).toBe(0);
    expect((a.body as any).result).toMatchObject({ resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'crm-tool-service' } } });
  });

  it('answers a 2026-07-28 tool failure and unknown tool directly', async () => {
    expect((await same(owner(), call(13, 'records.get', { record_id: MISSING_RECORD }, { _meta: ENVELOPE }), modernHeaders('records.get'))).servers).toBe(0);
    expect((await same(owner(), call(14, 'nope.nope', {}, { _meta: ENVELOPE }), modernHeaders('nope.nope'))).servers).toBe(0);
  });

  it('replays an Idempotency-Key write the same way whichever path answers the retry', async () => {
    const key = `direct-${Date.now()}`;
    const create = call(15, 'records.create', { object_type_slug: 'companies', data: { name: 'Once Co' } });
    const first = await send(direct, owner(), create, { 'Idempotency-Key': key });
    expect(first.servers).toBe(0);
    const retry = await same(owner(), create, { 'Idempotency-Key': key });
    expect(retry.servers).toBe(0);
    expect(retry.body).toEqual(first.body);
    const other = await same(owner(), call(16, 'records.create', { object_type_slug: 'companies', data: { name: 'Other Co' } }), { 'Idempotency-Key': key });
    expect((other.body as any).result.structuredContent.error.code).toBe('conflict');
  });

  it.each([
    ['an MCP-Protocol-Version the server does not list', call(20, 'records.get', {}), { 'MCP-Protocol-Version': '2024-01-01' }],
    ['an empty MCP-Protocol-Version', call(21, 'records.get', {}), { 'MCP-Protocol-Version': '' }],
    ['an Accept without text/event-stream', call(22, 'records.get', {}), { Accept: 'application/json' }],
    ['a +json Content-Type', call(23, 'records.get', {}), { 'Content-Type': 'application/vnd.api+json' }],
    ['request _meta on a 2025-era call', call(24, 'records.get', {}, { _meta: { progressToken: 1 } }), {}],
    ['a member the SDK does not expect', { ...call(25, 'records.get', {}), extra: true }, {}],
    ['a fractional id', call(26.5, 'records.get', {}), {}],
    ['an id beyond the safe integers', call(2 ** 53, 'records.get', {}), {}],
    ['a 2026-07-28 call without Mcp-Name', call(27, 'records.get', {}, { _meta: ENVELOPE }), { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call' }],
    ['a 2026-07-28 call whose Mcp-Name names another tool', call(28, 'records.get', {}, { _meta: ENVELOPE }), modernHeaders('records.list')],
    ['a 2026-07-28 call without MCP-Protocol-Version', call(29, 'records.get', {}, { _meta: ENVELOPE }), { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'records.get' }],
    ['a 2026-07-28 envelope without client capabilities', call(30, 'records.get', {}, { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } }), modernHeaders('records.get')],
    ['an unserved 2026-era revision', call(31, 'records.get', {}, { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } }), { ...modernHeaders('records.get'), 'MCP-Protocol-Version': '2027-01-01' }],
    ['a 2026-era header on a 2025-era body', call(32, 'records.get', {}), modernHeaders('records.get')],
    ['a batch', [call(33, 'records.get', {})], {}],
    ['another method', { jsonrpc: '2.0', id: 34, method: 'tools/list', params: {} }, {}],
  ])('leaves %s to the SDK', async (_what, body, headers) => {
    const a = await same(h.ws.owner.key, body, headers);
    expect(a.servers).toBe(a.sdkServers);
  });
});
