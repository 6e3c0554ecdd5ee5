import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../gateway/config.ts';
import { startHarness, type Harness } from '../e2e/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ ALLOWED_HOSTS: 'crm.internal,api.example.com:8443', ALLOWED_ORIGINS: 'https://console.example' });
});
afterAll(async () => {
  await h?.close();
});

/** A ping to MCP with exactly these Host and Origin headers (fetch will not let us set Host). */
function ping(host: string, origin?: string): Promise<{ status: number; body: any }> {
  const url = new URL(`${h.url}/mcp/`);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  return new Promise((resolve, reject) => {
    const req = request({
      host: url.hostname, port: url.port, path: url.pathname, method: 'POST',
      headers: {
        Host: host, ...(origin ? { Origin: origin } : {}), Authorization: `Bearer ${h.ws.owner.key}`,
        'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Content-Length': Buffer.byteLength(body),
      },
    }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('MCP Host allowlist and Origin check (DNS rebinding)', () => {
  const port = () => new URL(h.url).port;

  it('refuses a rebound name that sends a matching Host and Origin', async () => {
    const res = await ping('evil.example.com', 'http://evil.example.com');
    expect(res.status).toBe(403);
    expect(res.body.error.data).toMatchObject({ code: 'permission_denied', details: { param: 'Host' } });
  });

  it('refuses an unknown Host without an Origin', async () => {
    expect((await ping(`evil.example.com:${port()}`)).status).toBe(403);
  });

  it('refuses a foreign Origin on an allowed Host', async () => {
    const res = await ping(`127.0.0.1:${port()}`, 'http://evil.example.com');
    expect(res.status).toBe(403);
    expect(res.body.error.data.details.param).toBe('Origin');
  });

  it.each(['127.0.0.1', 'localhost', '[::1]'])('accepts the loopback name %s, with or without its own Origin', async (name) => {
    expect((await ping(`${name}:${port()}`)).status).toBe(200);
    expect((await ping(`${name}:${port()}`, `http://${name}:${port()}`)).status).toBe(200);
  });

  it('accepts a host from ALLOWED_HOSTS, by name or by name and port', async () => {
    expect((await ping('crm.internal')).status).toBe(200);
    expect((await ping('CRM.internal:9000', 'https://crm.internal:9000')).status).toBe(200);
    expect((await ping('api.example.com:8443')).status).toBe(200);
    expect((await ping('api.example.com:9999')).status).toBe(403);
  });

  it('accepts an Origin from ALLOWED_ORIGINS', async () => {
    expect((await ping('crm.internal', 'https://console.example')).status).toBe(200);
  });
});

describe('ALLOWED_HOSTS', () => {
  it('is a comma-separated list, trimmed and lower-cased', () => {
    expect(loadConfig({ ALLOWED_HOSTS: ' CRM.example.com , b.example:8443,' }).allowedHosts).toEqual(['crm.example.com', 'b.example:8443']);
    expect(loadConfig({}).allowedHosts).toEqual([]);
  });
});
