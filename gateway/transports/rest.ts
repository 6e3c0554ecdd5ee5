import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { readJsonBody, sendJson } from '../body.ts';
import type { Edge, GatewayDeps } from '../state.ts';
import { idempotencyHeader } from '../tools/idempotency.ts';
import { invokeTool } from '../tools/invoke.ts';

/** Per-tool REST: `POST {base_url}/<category>/<action>` with the parameters as the JSON body. */
export function mountRest(router: Router, deps: GatewayDeps, authenticate: Middleware): void {
  const path = `${deps.config.restPrefix}/:category/:action`;
  router.all(path, edge('rest'), postOnly(onlyPost), authenticate, async (ctx) => {
    const name = `${ctx.params.category}.${ctx.params.action}`;
    ctx.state.call.tool = name;
    const params = await readJsonBody(ctx.req, deps.config.bodyLimitBytes);
    const result = await invokeTool(deps.store, ctx.state.principal!, 'rest', name, params, { idempotencyKey: idempotencyHeader(ctx.headers) });
    sendJson(ctx, JSON.stringify(result));
  });
}

/**
 * Passes a POST on to the next step and answers any other method with `refuse`, so that a path
 * is one route. A separate catch-all route for the 405 also matched every POST, and @koa/router
 * builds and flattens the middleware chain of every route a request matches, on every request
 * (with the bridge's and MCP's two spellings of their paths, four routes and 14 to 16 functions
 * a call).
 */
export function postOnly(refuse: (ctx: Context) => void): Middleware {
  return (ctx, next) => {
    if (ctx.method === 'POST') return next();
    refuse(ctx);
    return undefined;
  };
}

/**
 * 405 is HTTP protocol, not a tool outcome, so it stays outside the error-code table: the body
 * just says which method to use.
 */
export function onlyPost(ctx: Context): void {
  ctx.status = 405;
  ctx.set('Allow', 'POST');
  ctx.body = { error: `method ${ctx.method} is not allowed here; use POST` };
}

export function edge(name: Edge): Middleware {
  return (ctx, next) => {
    ctx.state.edge = name;
    return next();
  };
}
