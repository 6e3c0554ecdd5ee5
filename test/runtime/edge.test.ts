/**
 * Abuse at the edge: oversized declared bodies, clients trickling headers or bodies, idle
 * keep-alive sockets, many connections and the connection cap — each with its documented answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../e2e/harness.ts';
import { openRaw, parseAnswer, postHead, type RawConnection } from './raw.ts';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends `text` one byte every `everyMs` until the server closes the connection or `text` runs out. */
async function trickle(conn: RawConnection, text: string, everyMs: number): Promise<number> {
  let closed = false;
  void conn.closed.then(() => (closed = true));
  let sent = 0;
  while (!closed && sent < text.length) {
    conn.send(text[sent]!);
    sent += 1;
    await tick(everyMs);
  }
  return sent;
}

describe('slow and oversized clients', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ HEADERS_TIMEOUT_MS: '600', REQUEST_TIMEOUT_MS: '1200', KEEP_ALIVE_TIMEOUT_MS: '400' });
  });
  afterAll(() => h.close());

  it.each([
    ['per-tool REST', '/v1/records/list'],
    ['the REST bridge', '/mcp/api/developers/mcp/call/'],
    ['MCP', '/mcp/'],
    ['GraphQL', '/graphql'],
  ])('answers a declared length far over the limit on %s with 413 without waiting for the body', async (_, path) => {
    const conn = await openRaw(h.url);
    conn.send(postHead(path, h.ws.owner.key, 10 * 1024 ** 3, 'Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n'));
    const answer = parseAnswer(await conn.closed);
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).toMatch(/payload_too_large/i);
  });

  it('cuts off a client trickling its headers with 408 after HEADERS_TIMEOUT_MS', async () => {
    const conn = await openRaw(h.url);
    const head = `POST /v1/records/list HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${'a'.repeat(400)}\r\n\r\n`;
    const sent = await trickle(conn, head, 20);
    expect(sent).toBeLessThan(head.length);
    expect(parseAnswer(await conn.closed).status).toBe(408);
  });

  it('cuts off a client trickling its body after REQUEST_TIMEOUT_MS, and the server keeps serving', async () => {
    const conn = await openRaw(h.url);
    const body = JSON.stringify({ object_type_slug: 'companies', filters: { name: { eq: 'x'.repeat(400) } } });
    conn.send(postHead('/v1/records/list', h.ws.owner.key, body.length));
    const sent = await trickle(conn, body, 20);
    expect(sent).toBeLessThan(body.length);
    expect(parseAnswer(await conn.closed).status).toBe(408);
    const res = await fetch(`${h.url}/v1/objects/list`, { method: 'POST', headers: { Authorization: `Bearer ${h.ws.owner.key}` } });
    expect(res.status).toBe(200);
  });

  it('closes a keep-alive connection left idle for KEEP_ALIVE_TIMEOUT_MS after its answer', async () => {
    const conn = await openRaw(h.url);
    conn.send(postHead('/v1/objects/list', h.ws.owner.key, 2) + '{}');
    const raw = await conn.closed;
    expect(parseAnswer(raw).status).toBe(200);
    expect(parseAnswer(raw).headers.connection).toBe('keep-alive');
  });
});

describe('many connections', () => {
  it('serves a normal client while 500 idle sockets are open', async () => {
    const h = await startHarness();
    const idle: RawConnection[] = [];
    try {
      for (let i = 0; i < 500; i++) idle.push(await openRaw(h.url));
      const res = await fetch(`${h.url}/v1/objects/list`, { method: 'POST', headers: { Authorization: `Bearer ${h.ws.owner.key}` } });
      expect(res.status).toBe(200);
      expect(idle.every((c) => !c.socket.destroyed)).toBe(true);
    } finally {
      for (const c of idle) c.socket.destroy();
      await h.close();
    }
  });

  it('closes connections over MAX_CONNECTIONS at once without an answer, and serves again when some close', async () => {
    const h = await startHarness({ MAX_CONNECTIONS: '20' });
    const idle: RawConnection[] = [];
    try {
      for (let i = 0; i < 20; i++) idle.push(await openRaw(h.url));
      const over = await openRaw(h.url);
      over.send(postHead('/v1/objects/list', h.ws.owner.key, 2) + '{}');
      expect(await over.closed).toBe('');
      for (const c of idle.splice(0, 5)) c.socket.destroy();
      await tick(100);
      const res = await fetch(`${h.url}/v1/objects/list`, { method: 'POST', headers: { Authorization: `Bearer ${h.ws.owner.key}` } });
      expect(res.status).toBe(200);
    } finally {
      for (const c of idle) c.socket.destroy();
      await h.close();
    }
  });
});
