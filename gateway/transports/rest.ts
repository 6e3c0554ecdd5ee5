import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { readJsonBody, sendJson } from '../body.ts';
import type { Edge, GatewayDeps } from '../state.ts';
import { IDEMPOTENCY_HEADER } from '../tools/idempotency.ts';
import { invokeTool } from '../tools/invoke.ts';

/** Per-tool REST: `POST {base_url}/<category>/<action>` with the parameters as the JSON body. */
export function mountRest(router: Router, deps: GatewayDeps, authenticate: Middleware): void {
  const path = `${deps.config.restPrefix}/:category/:action`;
  router.post(path, edge('rest'), authenticate, async (ctx) => {
    const name = `${ctx.params.category}.${ctx.params.action}`;
    ctx.state.call.tool = name;
    const params = await readJsonBody(ctx.req, deps.config.bodyLimitBytes);
    const result = await invokeTool(deps.store, ctx.state.principal!, 'rest', name, params, { idempotencyKey: ctx.get(IDEMPOTENCY_HEADER) || undefined });
    sendJson(ctx, JSON.stringify(result));
  });
  router.all(path, edge('rest'), onlyPost);
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
