import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolsForScopes } from '../../gateway/tools/index.ts';
import { TOOL_NAMES } from '../../gateway/tools/names.ts';
import { startHarness, type Harness } from '../e2e/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'crm-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp/`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

async function allTools(client: Client) {
  const tools = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

describe('the official 1.x MCP SDK client (2025-11-25)', () => {
  it('initializes against the stateless server and negotiates the latest protocol version', async () => {
    const client = await connect(h.ws.owner.key);
    expect(client.getServerVersion()).toMatchObject({ name: 'crm-tool-service' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    await client.ping();
    await client.close();
  });

  it('lists exactly the 62 tools for a key without scopes, each with a title, input and output schemas and annotations', async () => {
    const client = await connect(h.ws.owner.key);
    const tools = await allTools(client);
    const names = tools.map((t) => t.name).sort();
    expect(names).toHaveLength(62);
    expect(names).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.title?.length, tool.name).toBeGreaterThan(3);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description?.length).toBeGreaterThan(20);
      expect(tool.annotations).toMatchObject({ readOnlyHint: expect.any(Boolean), destructiveHint: expect.any(Boolean), idempotentHint: expect.any(Boolean) });
    }
    const create = tools.find((t) => t.name === 'records.create')!;
    expect(create.inputSchema.required).toEqual(['object_type_slug', 'data']);
    expect(create.annotations?.readOnlyHint).toBe(false);
    expect(tools.find((t) => t.name === 'records.get')!.annotations?.readOnlyHint).toBe(true);
    await client.close();
  });

  it('lists exactly the tools a records-scoped key may call', async () => {
    const client = await connect(h.ws.recordsOnly);
    const names = (await allTools(client)).map((t) => t.name).sort();
    expect(names).toEqual(toolsForScopes(['records']).map((t) => t.name).sort());
    await client.close();
  });

  it('calls records.create and gets structured content matching the output schema', async () => {
    const client = await connect(h.ws.owner.key);
    await allTools(client); // lets the client cache output schemas and validate results against them
    const result = await client.callTool({ name: 'records.create', arguments: { object_type_slug: 'companies', data: { name: 'Initech', domain: 'initech.example' } } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ object_type_slug: 'companies', data: { name: 'Initech', domain: 'initech.example' } });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(result.structuredContent);
    await client.close();
  });

  it('returns a failed call as a result with isError and the code in structuredContent', async () => {
    const client = await connect(h.ws.owner.key);
    await allTools(client);
    const result = await client.callTool({ name: 'records.create', arguments: { object_type_slug: 'contacts', data: { name: 'X', emial: 'x@y.z' } } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: 'validation_error', details: { param: 'data.emial', suggestion: 'email' } } });
    await client.close();
  });

  it('rejects an unknown tool with a JSON-RPC error', async () => {
    const client = await connect(h.ws.owner.key);
    await expect(client.callTool({ name: 'records.explode', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('fails to connect without a key', async () => {
    const client = new Client({ name: 'crm-test', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp/`)))).rejects.toThrow();
  });
});
