import type Router from '@koa/router';
import { buildOpenApi } from '../openapi.ts';
import type { GatewayDeps } from '../state.ts';
import { edge } from './rest.ts';

export interface ReadinessCheck {
  name: string;
  check: () => Promise<{ ok: boolean; detail?: string; [key: string]: unknown }>;
}

/** Health, readiness, metrics and the published API description. */
export function mountOps(router: Router, deps: GatewayDeps, checks: ReadinessCheck[], metrics: () => string | Promise<string>): void {
  router.get('/healthz', edge('ops'), (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', edge('ops'), async (ctx) => {
    const results = await Promise.all(checks.map(async (c) => {
      try {
        return { name: c.name, ...(await c.check()) };
      } catch (err) {
        return { name: c.name, ok: false, detail: (err as Error).message };
      }
    }));
    const ready = results.every((r) => r.ok);
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results.map(({ name, ...r }) => [name, r])) };
  });
  router.get('/metrics', edge('ops'), async (ctx) => {
    ctx.type = 'text/plain; version=0.0.4';
    ctx.body = await metrics();
  });
  const openapi = JSON.stringify(buildOpenApi(), null, 2);
  router.get('/openapi.json', edge('ops'), (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openapi;
  });
}
