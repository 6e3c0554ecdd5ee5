/**
 * A key outside a tool's scope, or a workspace past its trial, is refused before the tool's
 * parameters are looked at, in every call style: its validation errors would otherwise teach the
 * caller what a tool it may not call takes (a notes-only key calling records.list with {} was
 * told "object_type_slug is required").
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, startHarness, STYLES, type Harness, type Workspace } from '../e2e/harness.ts';

let h: Harness;
let notesOnly: string;
let lapsed: Workspace;
beforeAll(async () => {
  h = await startHarness();
  notesOnly = await h.keyFor(h.ws, h.ws.owner.user_id, ['notes']);
  lapsed = await h.newWorkspace({ trialDays: -1, plan: null });
});
afterAll(async () => {
  await h?.close();
});

/** Parameters a tool refuses three ways: a missing one, an unknown one, a prototype key. */
const BAD_PARAMS: [string, unknown][] = [
  ['no parameters', {}],
  ['an unknown parameter', { object_type_slug: 'companies', bogus: 1 }],
  ['a prototype key', JSON.parse('{"object_type_slug": "companies", "__proto__": {"x": 1}}')],
  ['a wrong type', { object_type_slug: 42 }],
];

describe.each(STYLES)('over %s', (style) => {
  it.each(BAD_PARAMS)('answers a key without the tool\'s scope permission_denied, whatever the parameters (%s)', async (_, params) => {
    const out = await callTool(h, style, notesOnly, 'records.list', params);
    expect(out).toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
    expect(out.ok || out.details).toEqual({ required_scope: 'records', scopes: ['notes'] });
    expect(out.ok || out.message).not.toMatch(/object_type_slug|bogus|__proto__/);
  });

  it.each(BAD_PARAMS)('answers a lapsed workspace subscription_required, whatever the parameters (%s)', async (_, params) => {
    const out = await callTool(h, style, lapsed.owner.key, 'records.list', params);
    expect(out).toMatchObject({ ok: false, status: 403, code: 'subscription_required' });
  });

  it('still validates the parameters of a tool the key may call', async () => {
    const out = await callTool(h, style, notesOnly, 'notes.create', {});
    expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error' });
  });

  it('keeps billing readable after the trial, and its parameters checked', async () => {
    expect(await callTool(h, style, lapsed.owner.key, 'billing.get', {})).toMatchObject({ ok: true });
    expect(await callTool(h, style, lapsed.owner.key, 'billing.get', { bogus: 1 })).toMatchObject({ ok: false, status: 400, code: 'validation_error' });
  });
});

describe('the official MCP SDK client', () => {
  it('gets a permission_denied tool error, not the tool\'s validation error, for a tool outside its key\'s scope', async () => {
    const client = new Client({ name: 'crm-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp/`), {
      requestInit: { headers: { Authorization: `Bearer ${notesOnly}` } },
    }));
    try {
      const result = await client.callTool({ name: 'records.list', arguments: {} });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: 'permission_denied', details: { required_scope: 'records' } } });
    } finally {
      await client.close();
    }
  });
});
