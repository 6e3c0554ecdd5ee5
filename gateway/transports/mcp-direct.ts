/**
 * The direct path for the common MCP request: one `tools/call` that the SDK (v2.4) would serve
 * without objection is run here and its JSON-RPC answer written byte for byte as the SDK writes
 * it, without a web Request, a Server, a transport and a web Response per call. Every check the
 * SDK makes on such a request is mirrored as a condition for taking this path; a request failing
 * any of them, and anything else (batches, other methods, notifications, unknown revisions,
 * extra members), goes to the SDK, which answers it as before. test/mcp/direct.test.ts sends the
 * same requests both ways and requires identical answers.
 */
import type { Context } from 'koa';
import {
  classifyInboundRequest, isJsonContentType, PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY, SERVER_INFO_META_KEY, ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { embeddedJsonBytes, utf8Bytes } from '../body.ts';
import type { CallInfo, GatewayDeps } from '../state.ts';
import type { Principal } from '../tools/invoke.ts';
import { callTool, MCP_PROTOCOL_VERSIONS, MCP_SERVER_INFO, type ToolCallOutcome } from './mcp-server.ts';

export type Era = 'legacy' | 'modern';

/** What the SDK sends with every JSON answer. */
const CONTENT_TYPE = 'application/json';
const MODERN_REVISION = '2026-07-28';
/** The `_meta` members of a 2026-07-28 envelope; the SDK lifts them off before the handler runs. */
const ENVELOPE_KEYS = new Set<string>([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY]);
/** The `_meta` a 2026-07-28 result carries: the server's identity (the SDK's encode step). */
const MODERN_RESULT_TAIL = `,"resultType":"complete","_meta":${JSON.stringify({ [SERVER_INFO_META_KEY]: MCP_SERVER_INFO })}`;

/**
 * The era a request is served in on the direct path, or undefined to leave it to the SDK. The
 * gateway has already refused bad framing (envelopeError): here `jsonrpc` is "2.0" and a
 * tools/call has a string `params.name` and object-or-absent `arguments`.
 */
export function directEra(ctx: Context, body: unknown): Era | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const msg = body as Record<string, unknown>;
  if (msg.method !== 'tools/call' || !onlyKeys(msg, MESSAGE_KEYS)) return undefined;
  // The SDK's request id: a string or an integer.
  if (typeof msg.id !== 'string' && !Number.isInteger(msg.id)) return undefined;
  const headers = ctx.req.headers;
  // Both SDK legs answer 415 to a Content-Type that is not application/json (ours also takes +json).
  if (!isJsonContentType(headers['content-type'] ?? null)) return undefined;
  const version = headers['mcp-protocol-version'];
  const method = headers['mcp-method'];
  const name = headers['mcp-name'];
  // Node joins repeated headers of these names into one string; anything else is the SDK's.
  if (Array.isArray(version) || Array.isArray(method) || Array.isArray(name)) return undefined;
  const params = msg.params as Record<string, unknown>;
  // No revision header of any kind, as most clients send: the SDK's classifier (a zod parse of the
  // whole message) is not asked. legacyServes admits only params of `name` and `arguments`, and
  // for those the classifier can only answer legacy with no claim: the message keys, id and
  // framing it validates are those checked above and by envelopeError, and without a header or an
  // envelope nothing else decides the era. Any other params (`_meta` among them) it would route
  // to a leg that does not serve them here either, so they go to the SDK.
  if (version === undefined && method === undefined && name === undefined && (typeof msg.id === 'string' || Number.isSafeInteger(msg.id))) {
    return legacyServes(ctx, params) ? 'legacy' : undefined;
  }
  // The SDK's own classifier: envelope validation and its header cross-checks.
  const route = classifyInboundRequest({
    httpMethod: 'POST', body,
    ...(version !== undefined && { protocolVersionHeader: version }),
    ...(method !== undefined && { mcpMethodHeader: method }),
    ...(name !== undefined && { mcpNameHeader: name }),
  });
  if (route.kind === 'legacy') return route.reason === 'no-claim' && legacyServes(ctx, params) ? 'legacy' : undefined;
  if (route.kind === 'modern') return modernServes(ctx, params, route.classification.revision) ? 'modern' : undefined;
  return undefined;
}

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const LEGACY_PARAMS = new Set(['name', 'arguments']);
const MODERN_PARAMS = new Set(['name', 'arguments', '_meta']);

function onlyKeys(value: object, allowed: Set<string>): boolean {
  for (const key of Object.keys(value)) if (!allowed.has(key)) return false;
  return true;
}

/**
 * The 2025-era transport's checks (WebStandardStreamableHTTPServerTransport.handlePostRequest):
 * Accept names both JSON and SSE (406), and an MCP-Protocol-Version header, when present at
 * all, is a revision the server lists (400). No `_meta`: a progress token or other request
 * metadata is left to the SDK.
 */
function legacyServes(ctx: Context, params: Record<string, unknown>): boolean {
  const accept = ctx.req.headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const version = ctx.req.headers['mcp-protocol-version'] as string | undefined;
  if (version !== undefined && !(MCP_PROTOCOL_VERSIONS as readonly string[]).includes(version)) return false;
  return onlyKeys(params, LEGACY_PARAMS);
}

/**
 * The 2026-07-28 entry's checks (createMcpHandler's serveModern) after the classifier has
 * validated the envelope and cross-checked the headers it finds: a served revision, and the
 * standard headers present — MCP-Protocol-Version, Mcp-Method and an Mcp-Name equal to the tool
 * name (a Base64 sentinel is left to the SDK). No client capability is required for tools/call
 * (the SDK's table is empty); `_meta` holds only envelope members.
 */
function modernServes(ctx: Context, params: Record<string, unknown>, revision: string | undefined): boolean {
  if (revision !== MODERN_REVISION || !(MCP_PROTOCOL_VERSIONS as readonly string[]).includes(revision)) return false;
  const headers = ctx.req.headers;
  if (headers['mcp-protocol-version'] === undefined || headers['mcp-method'] === undefined) return false;
  const name = headers['mcp-name'];
  // Node has stripped the spaces and tabs around it, as the SDK does before comparing.
  if (typeof name !== 'string' || name !== params.name || name.startsWith('=?')) return false;
  if (!onlyKeys(params, MODERN_PARAMS)) return false;
  const meta = params._meta;
  return meta === undefined || (meta !== null && typeof meta === 'object' && onlyKeys(meta, ENVELOPE_KEYS));
}

/** A request directEra accepted. */
interface DirectRequest {
  id: string | number;
  params: { name: string; arguments?: Record<string, unknown> };
}

/**
 * Runs the call and writes the answer as the SDK would: 200, Content-Type application/json, the
 * JSON-RPC response with its members in the SDK's order, a 2026-07-28 result stamped like the
 * SDK's encoder stamps it. A result the SDK might serialise differently (see plainText) is
 * handed to `viaSdk` already settled, so no tool runs twice.
 */
export async function serveDirect(
  ctx: Context, deps: GatewayDeps, era: Era, body: unknown, principal: Principal, call: CallInfo, idempotencyKey: string | undefined,
  viaSdk: (settled: Promise<ToolCallOutcome>) => Promise<void>,
): Promise<void> {
  const { id, params } = body as DirectRequest;
  let outcome: ToolCallOutcome;
  try {
    outcome = await callTool(deps, principal, call, idempotencyKey, params.name, params.arguments);
  } catch (err) {
    answer(ctx, utf8Bytes(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${JSON.stringify(rpcErrorOf(err))}}`));
    return;
  }
  const text = plainText(outcome);
  if (text === undefined) return viaSdk(Promise.resolve(outcome));
  const tail = `${outcome.result.isError ? ',"isError":true' : ''}${era === 'modern' ? MODERN_RESULT_TAIL : ''}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
  answer(ctx, embeddedJsonBytes(RESULT_HEAD, text, RESULT_MID, tail));
}

/** A result's members as the SDK serialises them: content (one text block), structuredContent, then isError when set. */
const RESULT_HEAD = '{"result":{"content":[{"type":"text","text":';
const RESULT_MID = '}],"structuredContent":';

/**
 * The text of the result's one text block, which the answer carries both as that block's string
 * and, unparsed, as structuredContent: callTool's text block is JSON.stringify(structuredContent),
 * so it is not serialised again. The SDK re-copies structuredContent's own keys into a plain
 * object before serialising; when that copy could differ from the object itself (a non-object
 * value, which the 2025 codec wraps; another prototype; a `__proto__`, symbol or hidden key)
 * undefined is returned.
 */
function plainText({ result }: ToolCallOutcome): string | undefined {
  const sc = result.structuredContent as object | undefined;
  const [block, ...more] = result.content;
  if (sc === undefined || sc === null || typeof sc !== 'object' || Array.isArray(sc) || more.length > 0 || block?.type !== 'text') return undefined;
  const proto = Object.getPrototypeOf(sc) as unknown;
  if ((proto !== Object.prototype && proto !== null) || Object.hasOwn(sc, '__proto__') || Reflect.ownKeys(sc).length !== Object.keys(sc).length) return undefined;
  return block.text;
}

/** The SDK's JSON-RPC error for a handler that threw (Protocol's request dispatch). */
function rpcErrorOf(err: unknown): Record<string, unknown> {
  const e = err as { code?: unknown; message?: string; data?: unknown };
  const code = Number.isSafeInteger(e.code) ? (e.code as number) : ProtocolErrorCode.InternalError;
  // Both codecs send -32002 (the retired resource-not-found) as -32602.
  return { code: code === -32002 ? ProtocolErrorCode.InvalidParams : code, message: e.message ?? 'Internal error', ...(e.data !== undefined && { data: e.data }) };
}

function answer(ctx: Context, json: Buffer): void {
  ctx.status = 200;
  ctx.set('content-type', CONTENT_TYPE);
  ctx.body = json;
}
