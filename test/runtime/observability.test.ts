/**
 * Observability: one JSON access line per call with its request id, tool, style, status, code
 * and duration; the request id echoed on every style and on errors; /metrics by tool, style and
 * code; and no key, secret or record data in the logs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../gateway/logger.ts';
import { callTool, startHarness, STYLES, type Harness } from '../e2e/harness.ts';

const lines: string[] = [];
const SMTP_PASSWORD = 'Sm7pPa55w0rdNeverLogged';
const RECORD_VALUE = 'Confidential Acquisition Target 42';
let h: Harness;

beforeAll(async () => {
  const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
  h = await startHarness({ SECRETS_KEY: 'ab'.repeat(32), WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, logger);
});
afterAll(() => h.close());

const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
const callLine = (id: string) => logged().find((l) => l.msg === 'call' && l.req_id === id);

describe.each(STYLES)('calls over %s', (style) => {
  it('echo a sane X-Request-Id and log one structured line for the call under it', async () => {
    const id = `obs-${style}-ok.1`;
    const out = await callTool(h, style, h.ws.owner.key, 'records.create', { object_type_slug: 'companies', data: { name: `${RECORD_VALUE} ${style}` } }, { 'X-Request-Id': id });
    expect(out.ok).toBe(true);
    expect(out.headers.get('x-request-id')).toBe(id);
    const line = callLine(id);
    expect(line).toMatchObject({ level: 'info', style, tool: 'records.create', status: 200, code: 'ok' });
    expect(line?.duration_ms).toEqual(expect.any(Number));
    expect(line?.time).toEqual(expect.any(String));
  });

  it('echo the request id on an error and log the error code', async () => {
    const id = `obs-${style}-err`;
    const out = await callTool(h, style, h.ws.owner.key, 'records.get', { record_id: 'rec_01JD3Q2X7ZK9M4T6V8W0Y2A4C6' }, { 'X-Request-Id': id });
    expect(out).toMatchObject({ ok: false, code: 'not_found' });
    expect(out.headers.get('x-request-id')).toBe(id);
    expect(callLine(id)).toMatchObject({ style, tool: 'records.get', code: 'not_found' });
  });

  it('replace an X-Request-Id that is too long or unsafe with a generated one', async () => {
    for (const bad of ['x'.repeat(129), 'has space', 'quote"d', '']) {
      const out = await callTool(h, style, h.ws.owner.key, 'objects.list', {}, bad ? { 'X-Request-Id': bad } : {});
      expect(out.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('logs and metrics over a run with secrets', () => {
  it('never log an API key, an integration secret, an Authorization header or record data', async () => {
    const connect = await callTool(h, 'rest', h.ws.owner.key, 'integrations.connect', {
      provider: 'smtp', config: { url: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:2525`, from: 'sales@example.com' },
    }, { 'X-Request-Id': 'obs-connect' });
    expect(connect.ok).toBe(true);
    // A refused call whose parameters carry the secret must not bring it into the log either.
    await callTool(h, 'bridge', h.ws.owner.key, 'integrations.connect', { provider: 'smtp', config: { url: SMTP_PASSWORD } });
    await callTool(h, 'mcp', `${h.ws.owner.key}x`, 'objects.list', {});
    expect(callLine('obs-connect')).toMatchObject({ tool: 'integrations.connect', code: 'ok' });
    const text = lines.join('');
    for (const secret of [h.ws.owner.key, h.ws.owner.key.split('_').at(-1)!, SMTP_PASSWORD, RECORD_VALUE, 'Bearer ']) {
      expect(text).not.toContain(secret);
    }
  });

  it('serves calls by tool, style and code, latency histograms and process metrics at /metrics', async () => {
    await callTool(h, 'mcp', h.ws.owner.key, 'no.such_tool', {});
    const text = await (await fetch(`${h.url}/metrics`)).text();
    for (const style of STYLES) {
      expect(text).toMatch(new RegExp(`^crm_tool_calls_total\\{tool="records.create",style="${style}",code="ok"\\} [1-9]`, 'm'));
      expect(text).toMatch(new RegExp(`^crm_tool_calls_total\\{tool="records.get",style="${style}",code="not_found"\\} [1-9]`, 'm'));
      expect(text).toMatch(new RegExp(`^crm_tool_call_duration_seconds_bucket\\{le="\\+Inf",tool="records.create",style="${style}"\\} [1-9]`, 'm'));
    }
    expect(text).toMatch(/^crm_tool_calls_total\{tool="unknown",style="mcp",code="tool_not_found"\} 1$/m);
    expect(text).toMatch(/^crm_http_requests_total\{edge="rest",status="200"\} \d+/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });
});
