/**
 * SIGTERM: the listener closes at once, a call in flight finishes with 200, a request arriving
 * afterwards on an open connection gets 503 unavailable with Connection: close, and the
 * process exits 0 with the finished write stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rest, startChild } from './child.ts';
import { openRaw, parseAnswer, postHead, refuses } from './raw.ts';

const dir = mkdtempSync(join(tmpdir(), 'crm-sigterm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25));
};

describe('a server sent SIGTERM', () => {
  it('finishes the call in flight, refuses new work with 503 or a closed listener, and exits 0', async () => {
    const server = await startChild({ DATA_DIR: dir });
    const key = server.key!;
    // The slow call: its head and half its body are in before SIGTERM, the rest comes after.
    const body = JSON.stringify({ object_type_slug: 'companies', data: { name: 'Landed during shutdown', domain: 'drain.test' } });
    const slow = await openRaw(server.url);
    slow.send(postHead('/v1/records/create', key, Buffer.byteLength(body)) + body.slice(0, 20));
    // A connection opened before SIGTERM whose request is still arriving: it starts after.
    const late = await openRaw(server.url);
    late.send('POST /v1/records/list HTTP/1.1\r\n');
    await new Promise((r) => setTimeout(r, 200));

    server.proc.kill('SIGTERM');
    await until(() => refuses(server.url));
    expect(await refuses(server.url)).toBe(true);

    late.send(`Host: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nX-Request-Id: late-1\r\n\r\n{}`);
    const refused = parseAnswer(await late.closed);
    expect(refused.status).toBe(503);
    expect(refused.headers.connection).toBe('close');
    expect(refused.headers['x-request-id']).toBe('late-1');
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'unavailable' });

    slow.send(body.slice(20));
    const finished = parseAnswer(await slow.closed);
    expect(finished.status).toBe(200);
    expect(finished.headers.connection).toBe('close');
    const created = JSON.parse(finished.body);
    expect(created.data.name).toBe('Landed during shutdown');
    expect(await server.exited).toEqual({ code: 0, signal: null });

    const again = await startChild({ DATA_DIR: dir });
    try {
      expect((await rest(again.url, key, 'records.get', { record_id: created.record_id })).status).toBe(200);
    } finally {
      again.proc.kill('SIGTERM');
      expect((await again.exited).code).toBe(0);
    }
  }, 60_000);
});
