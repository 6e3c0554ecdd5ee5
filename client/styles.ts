import { CrmClientError, statusOfCode } from './errors.ts';

/** The three call styles the service offers. */
export type CallStyle = 'rest' | 'bridge' | 'mcp';

/** Where a style sends a call and what it sends. */
export interface WireRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface Prefixes {
  rest: string;
  mcp: string;
}

let rpcId = 0;

/** Builds the HTTP request for one tool call in one style. */
export function buildRequest(style: CallStyle, base: string, prefixes: Prefixes, tool: string, params: unknown): WireRequest {
  const json = { 'Content-Type': 'application/json' };
  if (style === 'rest') {
    const [category, action] = tool.split('.');
    return { url: `${base}${prefixes.rest}/${category}/${action}`, headers: json, body: JSON.stringify(params) };
  }
  if (style === 'bridge') {
    return { url: `${base}${prefixes.mcp}/api/developers/mcp/call/`, headers: json, body: JSON.stringify({ tool, params }) };
  }
  return {
    url: `${base}${prefixes.mcp}/`,
    // Streamable HTTP asks clients to accept both; the service answers a single call with JSON.
    headers: { ...json, Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: tool, arguments: params } }),
  };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A plain error body `{error, code, details}` (per-tool REST, plain bridge, HTTP-level refusals). */
function plainError(status: number, body: unknown): CrmClientError {
  if (isObj(body) && typeof body.code === 'string') {
    return new CrmClientError(body.code, status, String(body.error ?? body.message ?? body.code), isObj(body.details) ? body.details : undefined);
  }
  // A JSON-RPC error sent with an HTTP status (unauthorized, rate_limited, payload_too_large on MCP).
  if (isObj(body) && isObj(body.error)) {
    const data = isObj(body.error.data) ? body.error.data : {};
    const code = typeof data.code === 'string' ? data.code : 'jsonrpc';
    // The gateway's data is {code, details}: the details are the error's, as on the other styles.
    const { code: _c, details: inner, ...rest } = data;
    return new CrmClientError(code, status, String(body.error.message ?? code), { ...rest, ...(isObj(inner) ? inner : {}), rpc_code: body.error.code });
  }
  return new CrmClientError(status >= 500 ? 'unavailable' : 'internal_error', status, `HTTP ${status} without an error body`);
}

/** The bridge's envelope shape: exactly `success` plus `data` or `error`. */
function isEnvelope(body: unknown): body is { success: boolean; data?: unknown; error?: Obj } {
  return isObj(body) && typeof body.success === 'boolean' && Object.keys(body).every((k) => k === 'success' || k === 'data' || k === 'error');
}

/** Reads one answer of a style into the tool's result, or throws CrmClientError. */
export function readAnswer(style: CallStyle, status: number, body: unknown): unknown {
  if (style === 'bridge' && isEnvelope(body)) {
    if (body.success) return body.data;
    const e = body.error ?? {};
    return fail(String(e.code ?? 'internal_error').toLowerCase(), status, e.message, e.details);
  }
  if (status < 200 || status >= 300) throw plainError(status, body);
  if (style !== 'mcp') return body;
  if (!isObj(body)) throw new CrmClientError('internal_error', status, 'the MCP answer is not a JSON-RPC object');
  if (isObj(body.error)) throw plainError(status, body);
  const result = isObj(body.result) ? body.result : {};
  const structured = isObj(result.structuredContent) ? result.structuredContent : textContent(result);
  if (result.isError) {
    const e = isObj(structured?.error) ? structured.error : {};
    const code = String(e.code ?? 'internal_error');
    return fail(code, statusOfCode(code), e.message, e.details);
  }
  return structured;
}

function fail(code: string, status: number, message: unknown, details: unknown): never {
  throw new CrmClientError(code, status, typeof message === 'string' ? message : code, isObj(details) ? details : undefined);
}

/** A tool result without structuredContent: the JSON of its first text block. */
function textContent(result: Obj): Obj | undefined {
  const first = Array.isArray(result.content) ? result.content[0] : undefined;
  if (!isObj(first) || typeof first.text !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(first.text);
    return isObj(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Parses a response body: JSON, or the last `data:` event of a server-sent event stream. */
export function parseBody(text: string, contentType: string | null): unknown {
  if (!text) return null;
  if (contentType?.includes('text/event-stream')) {
    const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim());
    return data.length ? JSON.parse(data[data.length - 1]!) : null;
  }
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
