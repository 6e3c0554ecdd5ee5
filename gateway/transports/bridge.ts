import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { CrmError } from '../../src/domain/errors.ts';
import { readJsonBody, sendJson, unmarkKey } from '../body.ts';
import { LIMITS } from '../../src/domain/limits.ts';
import type { GatewayDeps } from '../state.ts';
import { idempotencyHeader } from '../tools/idempotency.ts';
import { invokeTool } from '../tools/invoke.ts';
import { edge, onlyPost, postOnly } from './rest.ts';

export const BRIDGE_PATH = '/api/developers/mcp/call/';

/**
 * The REST bridge: `POST {mcp_url}/api/developers/mcp/call/` with `{tool, params}`. Answers in
 * shape B (`{success, data}`) or shape A (the result itself), by configuration. No discovery.
 */
export function mountBridge(router: Router, deps: GatewayDeps, authenticate: Middleware): void {
  // Without its trailing slash, the route matches the path either way (the router is not strict).
  const path = `${deps.config.mcpPrefix}${BRIDGE_PATH.slice(0, -1)}`;
  router.all(path, edge('bridge'), postOnly(onlyPost), authenticate, async (ctx) => {
    const body = await readJsonBody(ctx.req, deps.config.bodyLimitBytes);
    const { tool, params } = parseEnvelope(body);
    ctx.state.call.tool = tool;
    const result = await invokeTool(deps.store, ctx.state.principal!, 'bridge', tool, params, { idempotencyKey: idempotencyHeader(ctx.headers) });
    sendJson(ctx, JSON.stringify(deps.config.bridgeShape === 'envelope' ? { success: true, data: result } : result));
  });
}

function parseEnvelope(body: unknown): { tool: string; params: unknown } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new CrmError('validation_error', 'the body must be an object {"tool": "<category>.<action>", "params": {...}}', { param: 'body', rule: 'type' });
  }
  const { tool, params, ...rest } = body as Record<string, unknown>;
  const marked = Object.keys(rest)[0];
  const extra = marked === undefined ? undefined : unmarkKey(marked).slice(0, LIMITS.keyMaxLength);
  if (extra !== undefined) {
    throw new CrmError('validation_error', `${extra} is not a field of the bridge envelope; send {"tool", "params"}`, { param: extra, rule: 'unknown_parameter', allowed: ['tool', 'params'] });
  }
  if (typeof tool !== 'string' || !tool) {
    throw new CrmError('validation_error', 'tool is required: the tool name, e.g. "records.create"', { param: 'tool', rule: 'required' });
  }
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
    throw new CrmError('validation_error', 'params must be an object of the tool\'s parameters', { param: 'params', rule: 'type' });
  }
  return { tool, params: params ?? {} };
}
