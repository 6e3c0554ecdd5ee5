import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CrmClient, CrmClientError } from '../../client/index.ts';
import { DEFAULT_RETRY, retryDelay } from '../../client/retry.ts';

/** A loopback server that answers each request with the next of `answers` and records what it got. */
async function scripted(answers: { status: number; headers?: Record<string, string>; body: unknown }[]) {
  const seen: IncomingMessage['headers'][] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(req.headers);
      const a = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      res.writeHead(a.status, { 'Content-Type': 'application/json', ...a.headers });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

const limited = { status: 429, headers: { 'Retry-After': '0' }, body: { error: 'Rate limit exceeded', code: 'rate_limited', details: { retry_after_seconds: 0 } } };

describe('the typed client retries', () => {
  it('retries a 429 after Retry-After and returns the 200 that follows, with one idempotency key', async () => {
    const { url, seen } = await scripted([limited, { status: 200, body: { record_id: 'rec_1', data: {} } }]);
    const crm = new CrmClient({ baseUrl: url, apiKey: 'k', style: 'rest' });
    const rec = await crm.records.create({ object_type_slug: 'contacts', data: { name: 'A' } });
    expect(rec.record_id).toBe('rec_1');
    expect(seen).toHaveLength(2);
    expect(seen[0]!['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]!['idempotency-key']).toBe(seen[0]!['idempotency-key']);
    expect(seen[0]!.authorization).toBe('Bearer k');
  });

  it('retries a 503 the same way', async () => {
    const { url, seen } = await scripted([{ ...limited, status: 503, body: { error: 'down', code: 'unavailable' } }, { status: 200, body: { items: [] } }]);
    const crm = new CrmClient({ baseUrl: url, apiKey: 'k', style: 'rest' });
    expect(await crm.objects.list()).toEqual({ items: [] });
    expect(seen).toHaveLength(2);
  });

  it('sends no idempotency key on a read and a new key on each logical write', async () => {
    const { url, seen } = await scripted([{ status: 200, body: { items: [] } }]);
    const crm = new CrmClient({ baseUrl: url, apiKey: 'k', style: 'bridge' });
    await crm.objects.list();
    await crm.notes.create({ title: 'a' });
    await crm.notes.create({ title: 'a' });
    expect(seen[0]!['idempotency-key']).toBeUndefined();
    expect(seen[1]!['idempotency-key']).not.toBe(seen[2]!['idempotency-key']);
  });

  it('gives up after maxRetries and throws the rate_limited error', async () => {
    const { url, seen } = await scripted([limited]);
    const crm = new CrmClient({ baseUrl: url, apiKey: 'k', style: 'mcp', retry: { maxRetries: 2 } });
    const err = await crm.objects.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmClientError);
    expect(err).toMatchObject({ code: 'rate_limited', status: 429, details: { retry_after_seconds: 0 } });
    expect(seen).toHaveLength(3);
  });

  it('does not retry other failures', async () => {
    const { url, seen } = await scripted([{ status: 400, body: { error: 'bad', code: 'validation_error', details: { param: 'x' } } }]);
    const err = await new CrmClient({ baseUrl: url, apiKey: 'k' }).objects.list().catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'validation_error', status: 400, message: 'bad', details: { param: 'x' } });
    expect(seen).toHaveLength(1);
  });

  it('reads a JSON-RPC error as the same error class', async () => {
    const { url } = await scripted([{ status: 200, body: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unknown tool: x.y' } } }]);
    const err = await new CrmClient({ baseUrl: url, apiKey: 'k', style: 'mcp' }).objects.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmClientError);
    expect(err).toMatchObject({ code: 'jsonrpc', message: 'Unknown tool: x.y', details: { rpc_code: -32602 } });
  });
});

describe('the retry delay', () => {
  it('honours Retry-After in seconds and as a date, bounded by maxDelayMs', () => {
    expect(retryDelay('2', 0, DEFAULT_RETRY)).toBe(2000);
    expect(retryDelay('3600', 0, DEFAULT_RETRY)).toBe(DEFAULT_RETRY.maxDelayMs);
    expect(retryDelay(new Date(10_000).toUTCString(), 0, DEFAULT_RETRY, 5_000)).toBe(5000);
  });

  it('backs off exponentially without Retry-After', () => {
    expect(retryDelay(null, 0, DEFAULT_RETRY)).toBe(500);
    expect(retryDelay(null, 2, DEFAULT_RETRY)).toBe(2000);
  });
});
