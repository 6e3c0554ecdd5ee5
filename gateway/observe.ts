import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { CrmError } from '../src/domain/errors.ts';
import type { Logger } from './logger.ts';
import { metrics } from './metrics.ts';
import type { GatewayState } from './state.ts';
import { listTools } from './tools/index.ts';

/** Printable, bounded, no spaces or quotes: safe to echo in a header and a log line as is. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:+/=-]{1,128}$/;
const CALL_EDGES = new Set(['rest', 'bridge', 'mcp', 'graphql']);

const requests = metrics.counter('crm_http_requests_total', 'HTTP requests answered, by edge and status.', ['edge', 'status']);
const calls = metrics.counter('crm_tool_calls_total', 'Calls answered, by tool, call style and outcome code (ok or the error code).', ['tool', 'style', 'code']);
const latency = metrics.histogram('crm_tool_call_duration_seconds', 'Time from request to answer, by tool and call style.', ['tool', 'style'],
  [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);

let knownTools: Set<string> | undefined;

/**
 * A tool label of bounded cardinality: a served tool's name, `none` when the call named no tool
 * (MCP discovery, a GraphQL document), `unknown` for a name no tool has, which a caller chooses.
 */
export function toolLabel(name: string | undefined): string {
  if (name === undefined) return 'none';
  knownTools ??= new Set(listTools().map((t) => t.name));
  return knownTools.has(name) ? name : 'unknown';
}

/** The caller's request id when it is sane, else a fresh one. */
export function requestIdOf(header: string | undefined): string {
  return header !== undefined && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * Outermost middleware: sets and echoes the request id, then after the answer writes one access
 * line (tool, style, status, code, duration — never parameters, bodies or headers) and the
 * metrics. Everything here is in memory; pino writes the line asynchronously.
 */
export function observe(logger: Logger, draining: () => boolean): Middleware<GatewayState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    ctx.state.requestId = requestIdOf(ctx.get('X-Request-Id') || undefined);
    ctx.state.call = {};
    ctx.set('X-Request-Id', ctx.state.requestId);
    try {
      await next();
    } finally {
      // A call finished during shutdown tells a keep-alive client to reconnect elsewhere.
      if (draining() && !ctx.headerSent) ctx.set('Connection', 'close');
      record(ctx, logger, Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
}

function record(ctx: Parameters<Middleware<GatewayState>>[0], logger: Logger, seconds: number): void {
  // Edges that answer through the raw response (MCP, GraphQL) leave ctx.status untouched.
  const status = ctx.respond === false ? ctx.res.statusCode : ctx.status;
  const edge = ctx.state.edge ?? 'none';
  requests.inc({ edge, status: String(status) });
  const code = ctx.state.call.code ?? (status < 400 ? 'ok' : `http_${status}`);
  const fields = {
    req_id: ctx.state.requestId, method: ctx.method, path: ctx.path.slice(0, 200), style: edge,
    tool: ctx.state.call.tool === undefined ? undefined : toolLabel(ctx.state.call.tool), status, code, duration_ms: Math.round(seconds * 1e4) / 10,
  };
  if (!CALL_EDGES.has(edge)) {
    logger.debug('request', fields);
    return;
  }
  const tool = toolLabel(ctx.state.call.tool);
  calls.inc({ tool, style: edge, code });
  latency.observe({ tool, style: edge }, seconds);
  logger.info('call', fields);
}

/** While the server drains, every new request is refused: 503 unavailable, connection closed. */
export function refuseWhileDraining(draining: () => boolean): Middleware<GatewayState> {
  return async (ctx, next) => {
    if (!draining()) return next();
    ctx.set('Connection', 'close');
    ctx.set('Retry-After', '1');
    throw new CrmError('unavailable', 'the server is shutting down; retry the call (on another instance)');
  };
}
