import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode as RpcCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { ERROR_TABLE, isCrmError } from '../../src/domain/errors.ts';
import { readJsonBody } from '../body.ts';
import { asCrmError } from '../errors.ts';
import type { GatewayDeps } from '../state.ts';
import { toolsForScopes } from '../tools/index.ts';
import { findTool, invokeTool, type Principal } from '../tools/invoke.ts';
import { mcpToolDescriptor } from './mcp-tools.ts';
import { checkHostAndOrigin } from './host-origin.ts';
import { edge } from './rest.ts';

export const MCP_SERVER_INFO = { name: 'crm-tool-service', version: '1.0.0' } as const;
const LIST_PAGE_SIZE = 100;
/**
 * One JSON Schema validator for every per-request Server: without it the SDK builds a fresh Ajv
 * instance per request, which was 14% of server CPU on MCP calls.
 */
const VALIDATOR = new AjvJsonSchemaValidator();

/**
 * MCP over Streamable HTTP, stateless with JSON responses: a fresh low-level SDK Server per
 * request, after the gateway has authenticated and metered the caller. Tool failures are results
 * with isError; protocol failures (bad JSON, unknown method or tool, malformed call) are JSON-RPC
 * errors (DESIGN.md §5).
 */
export function mountMcp(router: Router, deps: GatewayDeps, authenticate: Middleware): void {
  const paths = [`${deps.config.mcpPrefix}/`, deps.config.mcpPrefix];
  router.post(paths, edge('mcp'), checkHostAndOrigin(deps), authenticate, async (ctx) => {
    const body = await readRpcBody(ctx, deps);
    if (body === undefined) return;
    const invalid = envelopeError(body);
    if (invalid) {
      ctx.status = 400;
      ctx.body = invalid;
      return;
    }
    const server = buildServer(deps, ctx.state.principal!);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.respond = false;
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, body);
  });
  router.all(paths, edge('mcp'), (ctx) => {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = rpcError(RpcCode.ConnectionClosed, `method ${ctx.method} is not supported: this server is stateless and streams nothing; POST JSON-RPC messages`);
  });
}

/** The parsed JSON-RPC body, or undefined after answering a parse error (-32700). */
async function readRpcBody(ctx: Context, deps: GatewayDeps): Promise<unknown> {
  try {
    return await readJsonBody(ctx.req, deps.config.bodyLimitBytes);
  } catch (err) {
    if (isCrmError(err) && err.code === 'validation_error') {
      ctx.status = 400;
      ctx.body = rpcError(RpcCode.ParseError, err.message);
      return undefined;
    }
    throw err;
  }
}

/**
 * Checks the JSON-RPC framing the SDK would otherwise misreport (it calls a bad envelope a parse
 * error and a malformed tools/call an internal error): -32600 for a message that is not JSON-RPC
 * 2.0, -32602 for tools/call params without a tool name or with non-object arguments.
 */
export function envelopeError(body: unknown): Record<string, unknown> | null {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return rpcError(RpcCode.InvalidRequest, 'empty batch');
  for (const m of messages) {
    if (m === null || typeof m !== 'object' || Array.isArray(m)) return rpcError(RpcCode.InvalidRequest, 'a JSON-RPC message must be an object');
    const msg = m as Record<string, unknown>;
    const id = typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : null;
    if (msg.jsonrpc !== '2.0') return { ...rpcError(RpcCode.InvalidRequest, 'jsonrpc must be "2.0"'), id };
    const isResponse = 'result' in msg || 'error' in msg;
    if (!isResponse && typeof msg.method !== 'string') return { ...rpcError(RpcCode.InvalidRequest, 'method must be a string'), id };
    if (msg.method === 'tools/call') {
      const params = msg.params as Record<string, unknown> | undefined;
      if (!params || typeof params !== 'object' || typeof params.name !== 'string') {
        return { ...rpcError(RpcCode.InvalidParams, 'tools/call needs params.name, the tool name'), id };
      }
      const args = params.arguments;
      if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
        return { ...rpcError(RpcCode.InvalidParams, 'tools/call params.arguments must be an object'), id };
      }
    }
  }
  return null;
}

export function rpcError(code: number, message: string, data?: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id: null, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

function buildServer(deps: GatewayDeps, principal: Principal): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    jsonSchemaValidator: VALIDATOR,
    instructions: 'CRM data as tools. Start with objects.list to learn the object types and their fields; records.* reads and writes records.',
  });

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const tools = toolsForScopes(principal.scopes);
    const offset = decodeCursor(request.params?.cursor);
    const page = tools.slice(offset, offset + LIST_PAGE_SIZE);
    const next = offset + LIST_PAGE_SIZE < tools.length ? encodeCursor(offset + LIST_PAGE_SIZE) : undefined;
    return { tools: page.map(mcpToolDescriptor), ...(next ? { nextCursor: next } : {}) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    try {
      findTool(name);
    } catch (err) {
      throw new McpError(RpcCode.InvalidParams, (err as Error).message);
    }
    try {
      const result = await invokeTool(deps.store, principal, 'mcp', name, args ?? {});
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result as Record<string, unknown> };
    } catch (err) {
      const e = asCrmError(err, deps.logger);
      if (ERROR_TABLE[e.code].mcp === 'jsonrpc') throw new McpError(RpcCode.InvalidParams, e.message);
      const error = { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) };
      return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }], structuredContent: { error } };
    }
  });
  return server;
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  try {
    const { o } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o: unknown };
    if (typeof o === 'number' && Number.isInteger(o) && o >= 0) return o;
  } catch {
    // fall through
  }
  throw new McpError(RpcCode.InvalidParams, 'invalid cursor: pass the nextCursor of a previous tools/list answer');
}
