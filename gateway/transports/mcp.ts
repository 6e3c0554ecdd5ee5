import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import {
  createMcpHandler, isLegacyRequest, ProtocolErrorCode as RpcCode, WebStandardStreamableHTTPServerTransport, type AuthInfo,
} from '@modelcontextprotocol/server';
import { isCrmError } from '../../src/domain/errors.ts';
import { readJsonBody } from '../body.ts';
import type { CallInfo, GatewayDeps } from '../state.ts';
import type { Principal } from '../tools/invoke.ts';
import { batchError, envelopeError, rpcError } from './mcp-rpc.ts';
import { idempotencyHeader } from '../tools/idempotency.ts';
import { budgetOf, buildServer, callOf, idempotencyKeyOf, principalOf, settledOf, type ToolCallOutcome } from './mcp-server.ts';
import { directEra, serveDirect } from './mcp-direct.ts';
import { answerBudget, meterBatch, mergeAnswers, type AnswerBudget } from './mcp-batch.ts';
import { checkHostAndOrigin } from './host-origin.ts';
import { edge, postOnly } from './rest.ts';

export { MCP_PROTOCOL_VERSIONS, MCP_SERVER_INFO } from './mcp-server.ts';

/**
 * MCP over Streamable HTTP, stateless with JSON responses, after the gateway has checked the
 * origin, authenticated and metered the caller. 2026-07-28 requests (per-request `_meta`
 * envelope, `server/discover`) go to the SDK's modern handler; 2025-era requests (`initialize`
 * and the calls after it) to a fresh stateless transport per request. Both build the same
 * Server, so the two eras cannot drift apart. Tool failures are results with isError;
 * protocol failures are JSON-RPC errors (the error table in src/domain/errors.ts). A plain
 * tools/call the SDK would serve takes the direct path (mcp-direct.ts), which answers it
 * identically without the SDK's per-request objects.
 */
export function mountMcp(router: Router, deps: GatewayDeps, authenticate: Middleware, options: McpOptions = {}): void {
  // Without its trailing slash, the route matches the path either way (the router is not strict).
  const path = deps.config.mcpPrefix;
  const modern = createMcpHandler((c) => buildServer(deps, principalOf(c), callOf(c), idempotencyKeyOf(c), settledOf(c), budgetOf(c)), {
    legacy: 'reject', responseMode: 'auto', maxRequestBodySize: deps.config.bodyLimitBytes,
  });
  const direct = options.direct ?? true;
  router.all(path, edge('mcp'), postOnly(refuseMethod), checkHostAndOrigin(deps), authenticate, async (ctx) => {
    const body = await readRpcBody(ctx, deps);
    if (body === undefined) return;
    const invalid = envelopeError(body) ?? batchError(body, ctx.get('MCP-Protocol-Version') || undefined);
    if (invalid) {
      ctx.status = 400;
      ctx.body = invalid;
      return;
    }
    const principal = ctx.state.principal!;
    const idempotencyKey = idempotencyHeader(ctx.headers);
    const sdk = async (message: unknown, settled?: Promise<ToolCallOutcome>, budget?: AnswerBudget): Promise<Response> => {
      const request = webRequest(ctx);
      const authInfo = authInfoOf(principal, ctx.state.call, idempotencyKey, settled, budget);
      return (await isLegacyRequest(request, message))
        ? serveLegacy(deps, principal, ctx.state.call, idempotencyKey, request, authInfo, message, settled, budget)
        : modern.fetch(request, { authInfo, parsedBody: message });
    };
    const viaSdk = async (settled?: Promise<ToolCallOutcome>) => respond(ctx, await sdk(body, settled));
    if (Array.isArray(body)) {
      await serveBatch(ctx, body, sdk);
      return;
    }
    const era = direct ? directEra(ctx, body) : undefined;
    await (era ? serveDirect(ctx, deps, era, body, principal, ctx.state.call, idempotencyKey, viaSdk) : viaSdk());
  });
}

/**
 * A batch, metered per request it carries (mcp-batch.ts): the SDK answers the requests the key
 * can afford, and the errors of the others (malformed, or past the rate limit) are put back in
 * their places, in one array. A batch of nothing but malformed messages is a 400.
 */
async function serveBatch(
  ctx: Context, batch: unknown[], sdk: (message: unknown, settled: undefined, budget: AnswerBudget) => Promise<Response>,
): Promise<void> {
  const metered = await meterBatch(ctx, batch);
  const response = metered.run.length > 0 ? await sdk(metered.run, undefined, answerBudget()) : undefined;
  const json = response?.status === 200 && response.headers.get('content-type')?.startsWith('application/json');
  // Only notifications ran (202, no body) with nothing refused, or the SDK refused the batch itself.
  if (response && !json && (metered.refused.size === 0 || response.status !== 202)) {
    await respond(ctx, response);
    return;
  }
  const answered = json ? ((await response!.json()) as unknown) : undefined;
  const merged = mergeAnswers(batch, metered, answered);
  const headers = response && json ? response.headers : new Headers({ 'content-type': 'application/json' });
  await respond(ctx, new Response(JSON.stringify(merged), { status: metered.run.length > 0 ? 200 : 400, headers }));
}

function refuseMethod(ctx: Context): void {
  ctx.status = 405;
  ctx.set('Allow', 'POST');
  ctx.body = rpcError(-32000, `method ${ctx.method} is not supported: this server is stateless and streams nothing; POST JSON-RPC messages`);
}

export interface McpOptions {
  /**
   * Serve plain tools/call requests on the direct path (mcp-direct.ts); false sends every
   * request through the SDK, which the differential test compares against. Default true.
   */
  direct?: boolean;
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
 * 2025-era serving: a fresh Server on a stateless transport with JSON responses. The SDK's own
 * stateless fallback answers over SSE, which this endpoint does not speak.
 */
async function serveLegacy(
  deps: GatewayDeps, principal: Principal, call: CallInfo, idempotencyKey: string | undefined, request: Request, authInfo: AuthInfo, body: unknown,
  settled: Promise<ToolCallOutcome> | undefined, budget: AnswerBudget | undefined,
): Promise<Response> {
  const server = buildServer(deps, principal, call, idempotencyKey, settled, budget);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { authInfo, parsedBody: body });
  } finally {
    void transport.close();
    void server.close();
  }
}

/**
 * The SDK passes authInfo through untouched; it carries the principal, the Idempotency-Key
 * header, a call the direct path already ran and a batch's answer budget to the server factory,
 * and the call record back out (the tool named and its outcome, for logs and metrics).
 */
function authInfoOf(
  principal: Principal, call: CallInfo, idempotencyKey: string | undefined, settled: Promise<ToolCallOutcome> | undefined, budget: AnswerBudget | undefined,
): AuthInfo {
  return { token: '', clientId: principal.key_id ?? 'cli', scopes: [...principal.scopes], extra: { principal, call, idempotencyKey, settled, budget } };
}

/**
 * The request as the SDK sees it, without a body: both handlers are given the parsed body
 * (`parsedBody`) and never read the Request's own, so serialising it again per call was waste.
 */
function webRequest(ctx: Context): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value !== undefined && name !== 'content-length') headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(requestUrl(ctx), { method: 'POST', headers });
}

/** The request's own URL; a Host header no URL can hold falls back to localhost, not a 500. */
function requestUrl(ctx: Context): string {
  try {
    return new URL(`${ctx.protocol}://${ctx.host}${ctx.originalUrl}`).href;
  } catch {
    return new URL(ctx.originalUrl, 'http://localhost').href;
  }
}

/** Copies the SDK's web Response onto the Koa context, keeping the gateway's own headers. */
async function respond(ctx: Context, response: Response): Promise<void> {
  ctx.status = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') ctx.set(name, value);
  });
  const text = await response.text();
  if (text.length === 0) {
    // Koa turns an empty body into 204; a notification's answer is 202 with no body.
    ctx.body = null;
    ctx.status = response.status;
    return;
  }
  ctx.body = text;
}
