import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import { CrmError, ERROR_TABLE, unreachable } from '../src/domain/errors.ts';
import { authenticate, authorizationLines } from './auth/principal.ts';
import { UnsupportedMediaType } from './body.ts';
import { asCrmError, shapeA, shapeB } from './errors.ts';
import { observe, refuseWhileDraining } from './observe.ts';
import type { Edge, GatewayDeps, GatewayState } from './state.ts';
import { mountBridge } from './transports/bridge.ts';
import { mountGraphQL } from './transports/graphql.ts';
import { mountMcp, type McpOptions } from './transports/mcp.ts';
import { crmRpcError } from './transports/mcp-rpc.ts';
import { mountOps, type ReadinessCheck } from './transports/ops.ts';
import { mountRest } from './transports/rest.ts';
import { mountConsole } from './web/console.ts';
import { mountDocs } from './web/docs.ts';

export interface AppOptions {
  /** Runs after authentication, before the tool: the rate limiter plugs in here. */
  meter?: Middleware<GatewayState>;
  readiness?: ReadinessCheck[];
  metrics?: () => string | Promise<string>;
  /** True once shutdown has begun: new requests are refused with 503. */
  draining?: () => boolean;
  /** MCP serving options; tests turn the direct path off to compare it with the SDK's answers. */
  mcp?: McpOptions;
}

/** The Koa gateway: one error renderer, one authenticator, four edges (REST, bridge, MCP, GraphQL). */
export function createApp(deps: GatewayDeps, options: AppOptions = {}): Koa<GatewayState> {
  const app = new Koa<GatewayState>();
  app.proxy = false;
  app.silent = true;
  const draining = options.draining ?? (() => false);
  app.use(observe(deps.logger, draining));
  app.use(renderErrors(deps));
  app.use(refuseWhileDraining(draining));

  const authenticateMw: Middleware<GatewayState> = async (ctx, next) => {
    // The call is in flight from here to its answer (Store.beginCall): its store reads check for
    // other processes' commits once, not once per cache they pass.
    const ended = deps.store.beginCall();
    try {
      ctx.state.principal = await authenticate(deps.store, authorizationLines(ctx.req), deps.config.keyPrefix);
      if (options.meter) return await options.meter(ctx, next);
      return await next();
    } finally {
      ended();
    }
  };

  const router = new Router();
  mountRest(router, deps, authenticateMw as Middleware);
  mountBridge(router, deps, authenticateMw as Middleware);
  mountMcp(router, deps, authenticateMw as Middleware, options.mcp);
  mountGraphQL(router, deps, authenticateMw as Middleware);
  mountOps(router, deps, [
    { name: 'store', check: () => deps.store.health() },
    ...(options.readiness ?? []),
  ], options.metrics ?? (() => ''));
  mountDocs(router);
  mountConsole(router, deps);
  app.use(router.routes());
  app.use(async (ctx) => {
    ctx.status = 404;
    ctx.body = { error: `no route for ${ctx.method} ${ctx.path}; tools are at POST ${deps.config.restPrefix}/<category>/<action>`, code: 'not_found' };
  });
  return app;
}

/** Every failure is rendered here, once, in the shape of the edge that received it. */
function renderErrors(deps: GatewayDeps): Middleware<GatewayState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      // A 415 is HTTP's answer, outside the code table's statuses, told in the same shapes.
      const media = err instanceof UnsupportedMediaType ? err : undefined;
      const e = media ? new CrmError('validation_error', media.message, media.details) : asCrmError(err, deps.logger);
      ctx.state.call.code = e.code;
      if (ctx.respond === false || ctx.headerSent) return;
      ctx.status = media?.status ?? ERROR_TABLE[e.code].status;
      if (media) ctx.set({ ...media.headers });
      // The rest of an oversized body is never read: close the connection rather than keep it.
      if (e.code === 'payload_too_large') ctx.set('Connection', 'close');
      if (e.code === 'unauthorized') ctx.set('WWW-Authenticate', `Bearer realm="crm", error="invalid_token"`);
      const edge: Edge = ctx.state.edge ?? 'ops';
      switch (edge) {
        case 'rest':
        case 'ops':
          ctx.body = shapeA(e);
          break;
        case 'graphql':
          // Refused before the operation ran (the key, the rate limit, the body): shape A, and the
          // same error as GraphQL answers it, so a GraphQL client reads `errors[0].extensions.code`
          // whatever stopped the request.
          ctx.body = { ...shapeA(e), errors: [{ message: e.message, extensions: { code: e.code, ...(e.details ? { details: e.details } : {}) } }] };
          break;
        case 'bridge':
          ctx.body = deps.config.bridgeShape === 'envelope' ? shapeB(e) : shapeA(e);
          break;
        case 'mcp':
          // A 415 is coded validation_error: its JSON-RPC code is -32004, as for any 4xx.
          ctx.body = crmRpcError(e);
          break;
        default:
          unreachable(edge);
      }
    }
  };
}
