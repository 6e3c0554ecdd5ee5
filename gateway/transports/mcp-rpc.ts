import { ProtocolErrorCode as RpcCode, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { ERROR_TABLE, type CrmError } from '../../src/domain/errors.ts';

/** The first revision without JSON-RPC batching (2025-03-26 had it; 2025-06-18 removed it). */
const BATCHING_REMOVED_IN = '2025-06-18';

/** A JSON-RPC error response; id null when the request's id is unknown or unreadable. */
export function rpcError(code: number, message: string, data?: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id: null, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/** The SDK's bound on the messages of one batch (its transports answer a longer one 400). */
export const MAX_BATCH_MESSAGES = 100;

/**
 * A service error as a JSON-RPC error, as the gateway sends the ones that stop a whole request
 * (app.ts): code -320xx from the HTTP status, the service code and details in `data`.
 */
export function crmRpcError(e: CrmError): Record<string, unknown> {
  return rpcError(rpcCodeOf(e), e.message, { code: e.code, ...(e.details ? { details: e.details } : {}) });
}

/** The JSON-RPC code of a service error sent as one: -320xx from its HTTP status (-32004 for a 4xx). */
export function rpcCodeOf(e: CrmError): number {
  return -32000 - Math.floor(ERROR_TABLE[e.code].status / 100);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Why a request's params are not what its method takes, for the checks the SDK makes with a
 * schema and would answer as -32603 Internal error with the schema's raw issues as the message.
 */
function paramsProblem(method: string, params: unknown): string | null {
  if (params === undefined) return method === 'initialize' ? 'initialize needs params: protocolVersion, capabilities and clientInfo' : null;
  if (!isObject(params)) return `${method} params must be an object`;
  if (params._meta !== undefined && !isObject(params._meta)) return `${method} params._meta must be an object`;
  if (method === 'tools/list' && params.cursor !== undefined && typeof params.cursor !== 'string') {
    return 'tools/list params.cursor must be a string: the nextCursor of a previous tools/list answer';
  }
  if (method === 'initialize') {
    if (typeof params.protocolVersion !== 'string') return 'initialize params.protocolVersion must be a string such as "2025-11-25"';
    if (!isObject(params.capabilities)) return 'initialize params.capabilities must be an object ({} for none)';
    const info = params.clientInfo;
    if (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string') return 'initialize params.clientInfo must be {name, version}, both strings';
  }
  return null;
}

/**
 * Checks the JSON-RPC framing the SDK would otherwise misreport (it calls a bad envelope a parse
 * error and malformed params an internal error), for a lone message: its messageError. For a
 * batch, only what concerns the batch as a whole: it is empty, or two of its requests share an
 * id; each message's own problems are answered in its place (mcp.ts, serveBatch).
 */
export function envelopeError(body: unknown): Record<string, unknown> | null {
  if (!Array.isArray(body)) return messageError(body);
  if (body.length === 0) return rpcError(RpcCode.InvalidRequest, 'empty batch');
  // Two requests of one batch with one id would both run while their answers could not be told
  // apart (the SDK kept one): refused before anything runs.
  const ids = new Set<string>();
  for (const m of body.length > 1 ? body : []) {
    const msg = m as Record<string, unknown> | null;
    if (!msg || typeof msg !== 'object' || typeof msg.method !== 'string' || !('id' in msg)) continue;
    const id = JSON.stringify(msg.id);
    if (ids.has(id)) return rpcError(RpcCode.InvalidRequest, `two requests of this batch have the id ${id}; give each its own`);
    ids.add(id);
  }
  return null;
}

/**
 * What is wrong with one message, as the JSON-RPC error answering it (with its id when it has a
 * readable one), or null: -32600 for a message that is not JSON-RPC 2.0, -32602 for params that
 * are not an object, a tools/call without a tool name or with non-object arguments, a tools/list
 * cursor that is not a string and an initialize without its fields.
 */
export function messageError(m: unknown): Record<string, unknown> | null {
  if (m === null || typeof m !== 'object' || Array.isArray(m)) return rpcError(RpcCode.InvalidRequest, 'a JSON-RPC message must be an object');
  const msg = m as Record<string, unknown>;
  const id = typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : null;
  if (msg.jsonrpc !== '2.0') return { ...rpcError(RpcCode.InvalidRequest, 'jsonrpc must be "2.0"'), id };
  const isResponse = 'result' in msg || 'error' in msg;
  if (!isResponse && typeof msg.method !== 'string') return { ...rpcError(RpcCode.InvalidRequest, 'method must be a string'), id };
  // Requests only: a notification gets no answer to carry an error.
  const problem = isResponse || !('id' in msg) ? null : paramsProblem(msg.method as string, msg.params);
  if (problem) return { ...rpcError(RpcCode.InvalidParams, problem), id };
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
  return null;
}

/**
 * Refuses a JSON-RPC batch (-32600) when anything in the request claims a revision that has no
 * batching: the MCP-Protocol-Version header, a per-request `_meta` protocol version, or an
 * initialize's protocolVersion. A batch with no claim at all is 2025-03-26 traffic, which the
 * spec says to assume when the header is absent, and is served.
 */
export function batchError(body: unknown, versionHeader: string | undefined): Record<string, unknown> | null {
  if (!Array.isArray(body)) return null;
  const claims = [versionHeader, ...body.flatMap(versionClaims)];
  const modern = claims.find((v): v is string => typeof v === 'string' && v >= BATCHING_REMOVED_IN);
  if (!modern) return null;
  return rpcError(RpcCode.InvalidRequest, `JSON-RPC batches are not part of protocol ${modern} (batching ended with 2025-03-26); send one message per POST`);
}

function versionClaims(msg: unknown): unknown[] {
  if (!isObject(msg)) return [];
  const params = (isObject(msg.params) ? msg.params : {}) as Record<string, unknown>;
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  return [meta[PROTOCOL_VERSION_META_KEY], msg.method === 'initialize' ? params.protocolVersion : undefined];
}
