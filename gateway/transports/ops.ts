import type Router from '@koa/router';
import { buildOpenApi } from '../openapi.ts';
import type { GatewayDeps } from '../state.ts';
import { listTools } from '../tools/index.ts';
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
  router.get('/docs', edge('ops'), (ctx) => {
    ctx.type = 'html';
    ctx.body = docsPage(deps);
  });
}

function escape(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

function docsPage(deps: GatewayDeps): string {
  const rows = listTools().map((t) =>
    `<tr><td><code>${t.name}</code></td><td><code>POST ${deps.config.restPrefix}/${t.name.replace('.', '/')}</code></td><td>${escape(t.description)}</td></tr>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>CRM tools</title></head>
<body style="font-family:system-ui;max-width:70rem;margin:2rem auto">
<h1>CRM tools</h1><p>Machine-readable: <a href="/openapi.json">/openapi.json</a>. MCP: <code>POST ${deps.config.mcpPrefix}/</code> (tools/list).</p>
<table cellpadding="6" border="1" style="border-collapse:collapse">${rows}</table></body></html>`;
}
