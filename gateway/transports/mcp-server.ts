import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type McpRequestContext, type Tool } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { ERROR_TABLE, type CrmError } from '../../src/domain/errors.ts';
import { asCrmError } from '../errors.ts';
import type { CallInfo, GatewayDeps } from '../state.ts';
import { toolsForScopes } from '../tools/index.ts';
import { findTool, invokeTool, type Principal } from '../tools/invoke.ts';
import { chargeAnswer, type AnswerBudget } from './mcp-batch.ts';
import { rpcCodeOf } from './mcp-rpc.ts';
import { mcpToolDescriptor } from './mcp-tools.ts';

export const MCP_SERVER_INFO = { name: 'crm-tool-service', version: '1.0.0' } as const;

/**
 * The revisions served, newest first. 2026-07-28 is reached through `server/discover` and the
 * per-request `_meta` envelope; the SDK counter-offers the first 2025 entry to an `initialize`
 * naming a revision not listed here.
 */
export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'] as const;

const LIST_PAGE_SIZE = 100;
/**
 * One JSON Schema validator for every per-request Server: without it the SDK builds a fresh Ajv
 * instance per request, which was 14% of server CPU on MCP calls.
 */
const VALIDATOR = new AjvJsonSchemaValidator();

/** The principal the gateway authenticated, as carried through the SDK's pass-through authInfo. */
export function principalOf(ctx: McpRequestContext): Principal {
  const principal = ctx.authInfo?.extra?.principal as Principal | undefined;
  if (!principal) throw new Error('MCP request reached the server factory without an authenticated principal');
  return principal;
}

/** Where the gateway collects what the call was (tool, outcome); a throwaway one if absent. */
export function callOf(ctx: McpRequestContext): CallInfo {
  return (ctx.authInfo?.extra?.call as CallInfo | undefined) ?? {};
}

/** The request's Idempotency-Key header, carried beside the principal. */
export function idempotencyKeyOf(ctx: McpRequestContext): string | undefined {
  const key = ctx.authInfo?.extra?.idempotencyKey;
  return typeof key === 'string' ? key : undefined;
}

/** A tools/call the direct path already ran and leaves to the SDK to answer. */
export function settledOf(ctx: McpRequestContext): Promise<ToolCallOutcome> | undefined {
  return ctx.authInfo?.extra?.settled as Promise<ToolCallOutcome> | undefined;
}

/** The answer budget of the JSON-RPC batch a request came in (absent for a lone message). */
export function budgetOf(ctx: McpRequestContext): AnswerBudget | undefined {
  return ctx.authInfo?.extra?.budget as AnswerBudget | undefined;
}

/**
 * A fresh low-level Server for one HTTP request of either era. Tool failures are results with
 * isError and the service's error code; protocol failures (unknown tool, bad cursor) are
 * JSON-RPC errors with the plain message. `settled` is a tools/call already run by the direct
 * path (mcp-direct.ts) whose answer it leaves to the SDK: the handler answers it instead of
 * running the tool a second time. `budget` bounds the tool results a batch answers (mcp-batch.ts).
 */
export function buildServer(
  deps: GatewayDeps, principal: Principal, call: CallInfo = {}, idempotencyKey?: string, settled?: Promise<ToolCallOutcome>, budget?: AnswerBudget,
): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
    jsonSchemaValidator: VALIDATOR,
    instructions: 'CRM data as tools. Start with objects.list to learn the object types and their fields; records.* reads and writes records.',
  });

  server.setRequestHandler('tools/list', async (request) => {
    const tools = toolsForScopes(principal.scopes);
    const offset = decodeCursor(request.params?.cursor, tools.length);
    const page = tools.slice(offset, offset + LIST_PAGE_SIZE);
    const next = offset + LIST_PAGE_SIZE < tools.length ? encodeCursor(offset + LIST_PAGE_SIZE) : undefined;
    return { tools: page.map(mcpToolDescriptor), ...(next ? { nextCursor: next } : {}) };
  });

  server.setRequestHandler('tools/call', async (request) => {
    const { name, arguments: args } = request.params;
    const { result, outputSchema } = await (settled ?? callTool(deps, principal, call, idempotencyKey, name, args));
    const block = result.content[0];
    const refusal = budget && block?.type === 'text' ? chargeAnswer(budget, name, findTool(name).annotations.readOnlyHint, block.text) : null;
    if (refusal) {
      call.code = refusal.code;
      throw new ProtocolError(rpcCodeOf(refusal), refusal.message, errorData(refusal));
    }
    return server.projectCallToolResult(result, outputSchema);
  });
  return server;
}

/** A tools/call's result and the outputSchema its tool advertises. */
export interface ToolCallOutcome {
  result: CallToolResult;
  outputSchema: Tool['outputSchema'];
}

/**
 * Runs one tools/call for either path (the SDK's handler or the direct path) and records it in
 * `call`. A tool that ran and failed is a result with isError and {error: {code, message,
 * details}}; an unknown tool and the codes the error table sends as JSON-RPC errors are thrown
 * as a ProtocolError (-32602) with the plain message.
 */
export async function callTool(
  deps: GatewayDeps, principal: Principal, call: CallInfo, idempotencyKey: string | undefined, name: string, args: Record<string, unknown> | undefined,
): Promise<ToolCallOutcome> {
  call.tool = name;
  let descriptor;
  try {
    descriptor = mcpToolDescriptor(findTool(name));
  } catch (err) {
    const e = asCrmError(err, deps.logger);
    call.code = e.code;
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, e.message, errorData(e));
  }
  try {
    const out = (await invokeTool(deps.store, principal, 'mcp', name, args ?? {}, { idempotencyKey })) as Record<string, unknown>;
    return { result: { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out }, outputSchema: descriptor.outputSchema };
  } catch (err) {
    const e = asCrmError(err, deps.logger);
    call.code = e.code;
    if (ERROR_TABLE[e.code].mcp === 'jsonrpc') throw new ProtocolError(ProtocolErrorCode.InvalidParams, e.message, errorData(e));
    const error = { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) };
    return {
      result: { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }], structuredContent: { error } },
      outputSchema: descriptor.outputSchema,
    };
  }
}

/** A JSON-RPC error's data: the code and details of the error table, as HTTP-level refusals send them (app.ts). */
function errorData(e: CrmError): { code: string; details?: Record<string, unknown> } {
  return { code: e.code, ...(e.details ? { details: e.details } : {}) };
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

/**
 * The offset a cursor carries, when it is one a tools/list answer could have given for `count`
 * tools: a whole page in, short of the end. Anything else (an offset past the end or off a page
 * boundary, made by hand) is -32602, not an empty or shifted page.
 */
function decodeCursor(cursor: string | undefined, count: number): number {
  if (!cursor) return 0;
  try {
    const { o } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o: unknown };
    if (typeof o === 'number' && Number.isInteger(o) && o > 0 && o % LIST_PAGE_SIZE === 0 && o < count) return o;
  } catch {
    // fall through
  }
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'invalid cursor: pass the nextCursor of a previous tools/list answer');
}
