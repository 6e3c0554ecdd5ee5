import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTools, toolsForScopes } from '../../gateway/tools/index.ts';
import { startHarness, type Harness } from '../e2e/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** What every client here can do; the two SDK lines type their results differently. */
interface AnyClient {
  listTools(params?: { cursor?: string }): Promise<{ tools: Array<{ name: string }>; nextCursor?: string }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ isError?: boolean; structuredContent?: unknown }>;
  close(): Promise<void>;
}

interface Connected {
  client: AnyClient;
  /** The MCP-Protocol-Version header of every request the client sent after connecting. */
  versions: () => string[];
}

/** A fetch that records the protocol version each request claims, so the test sees the wire. */
function recordingFetch(sent: string[]): typeof fetch {
  return (input, init) => {
    sent.push(new Headers(init?.headers).get('mcp-protocol-version') ?? '(none)');
    return fetch(input, init);
  };
}

const CLIENTS = [
  { label: 'the v2 SDK client pinned to 2026-07-28', expected: '2026-07-28', mode: { pin: '2026-07-28' } },
  { label: 'the v2 SDK client in auto mode', expected: '2026-07-28', mode: 'auto' },
  { label: 'the 1.x SDK client', expected: '2025-11-25', mode: null },
] as const;

async function connect(mode: (typeof CLIENTS)[number]['mode'], key: string): Promise<Connected> {
  const sent: string[] = [];
  const url = new URL(`${h.url}/mcp/`);
  const opts = { requestInit: { headers: { Authorization: `Bearer ${key}` } }, fetch: recordingFetch(sent) };
  if (mode === null) {
    const client = new V1Client({ name: 'crm-test-v1', version: '1.0.0' });
    await client.connect(new V1Transport(url, opts));
    sent.length = 0;
    return { client: client as unknown as AnyClient, versions: () => [...sent] };
  }
  const client = new V2Client({ name: 'crm-test-v2', version: '2.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new V2Transport(url, opts));
  sent.length = 0;
  return { client: client as unknown as AnyClient, versions: () => [...sent] };
}

async function allToolNames(client: AnyClient): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    names.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
  } while (cursor);
  return names.sort();
}

describe.each(CLIENTS)('$label', ({ mode, expected }) => {
  it(`speaks protocol ${expected} on every request`, async () => {
    const { client, versions } = await connect(mode, h.ws.owner.key);
    expect(await allToolNames(client)).toEqual(listTools().map((t) => t.name).sort());
    expect(versions().length).toBeGreaterThan(0);
    expect(new Set(versions())).toEqual(new Set([expected]));
    await client.close();
  });

  it('lists only records.* tools for a records-scoped key', async () => {
    const { client } = await connect(mode, h.ws.recordsOnly);
    const names = await allToolNames(client);
    expect(names).toEqual(toolsForScopes(['records']).map((t) => t.name).sort());
    expect(names.every((n) => n.startsWith('records.'))).toBe(true);
    await client.close();
  });

  it('calls a tool and gets structured content', async () => {
    const { client } = await connect(mode, h.ws.owner.key);
    await allToolNames(client); // the SDKs validate structuredContent against the listed outputSchema
    const result = await client.callTool({ name: 'records.create', arguments: { object_type_slug: 'companies', data: { name: `Acme ${expected}` } } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ object_type_slug: 'companies', data: { name: `Acme ${expected}` } });
    await client.close();
  });

  it('gets an isError result with validation_error naming the parameter for bad arguments', async () => {
    const { client } = await connect(mode, h.ws.owner.key);
    await allToolNames(client);
    const result = await client.callTool({ name: 'records.list', arguments: { object_type_slug: 'deals', page_size: 500 } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'validation_error', details: { param: 'page_size' } } });
    await client.close();
  });

  it('gets an unknown tool as a JSON-RPC error whose message is said once', async () => {
    const { client } = await connect(mode, h.ws.owner.key);
    const failure = await client.callTool({ name: 'records.explode', arguments: {} }).then(() => null, (e: Error & { code?: number }) => e);
    expect(failure).toMatchObject({ code: -32602 });
    expect(failure!.message).toContain('records.explode');
    expect(failure!.message.match(/MCP error/g)?.length ?? 0).toBeLessThanOrEqual(1);
    await client.close();
  });
});
