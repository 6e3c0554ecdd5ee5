import { request, type Agent } from 'node:http';
import { CATALOG } from '../../gateway/tools/index.ts';
import type { BenchCase, Sampler } from './cases.ts';

/** The four ways to call a tool: the three call styles and the same operation through /graphql. */
export const STYLES = ['rest', 'bridge', 'mcp', 'graphql'] as const;
export type Style = (typeof STYLES)[number];

export type Params = Record<string, unknown>;

/** A GraphQL request body; by default the tool's own operation from the catalog. */
export interface GraphQLRequest {
  query: string;
  variables: Record<string, unknown>;
}

export interface HttpCall {
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: string;
}

const MCP_ACCEPT = 'application/json, text/event-stream';
let rpcId = 0;

/** The operation a tool runs, as a /graphql request: the same document and variables. */
export function catalogOperation(tool: string, params: Params): GraphQLRequest {
  const def = CATALOG.get(tool);
  if (!def) throw new Error(`bench case names ${tool}, which is not in the tool catalog`);
  return { query: def.operation.document, variables: def.operation.variables(params) };
}

/**
 * The HTTP request for one call of a bench case in a style: its parameters drawn from `sampler`,
 * its /graphql request the case's own or else the tool's catalog operation.
 */
export function caseCall(c: BenchCase, style: Style, key: string, sampler: Sampler): HttpCall {
  return httpCall(style, key, c.tool, c.params(sampler), c.graphql ?? ((params) => catalogOperation(c.tool, params)));
}

/** The HTTP request for one call of `tool` with `params` in a style. */
export function httpCall(style: Style, key: string, tool: string, params: Params, graphql: (p: Params) => GraphQLRequest): HttpCall {
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  switch (style) {
    case 'rest':
      return { method: 'POST', path: `/v1/${tool.replace('.', '/')}`, headers, body: JSON.stringify(params) };
    case 'bridge':
      return { method: 'POST', path: '/mcp/api/developers/mcp/call/', headers, body: JSON.stringify({ tool, params }) };
    case 'mcp':
      return {
        method: 'POST', path: '/mcp/', headers: { ...headers, accept: MCP_ACCEPT },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: tool, arguments: params } }),
      };
    case 'graphql':
      return { method: 'POST', path: '/graphql', headers, body: JSON.stringify(graphql(params)) };
  }
}

/** The call sent to the bare baselines (node:http, Koa), which answer any request with a fixed body. */
export const BASELINE_CALL = httpCall('rest', 'crm_live_baseline', 'records.get', { record_id: 'rec_01JZ8Q2M3N4P5R6S7T8V9W0XYZ' }, () => ({ query: '', variables: {} }));

/**
 * True when a 2xx answer is a success in the style's own terms: the bridge envelope says
 * success, MCP has a result that is not isError, GraphQL has no errors. A cheap text test, run
 * on every answer; the full shape is checked once per cell by `checkAnswer`.
 */
export function looksSuccessful(style: Style, body: string): boolean {
  switch (style) {
    case 'rest':
      return true;
    case 'bridge':
      return body.startsWith('{"success":true');
    case 'mcp':
      return body.includes('"result"') && !body.includes('"isError":true');
    case 'graphql':
      return !body.includes('"errors"');
  }
}

/**
 * Sends one call on `agent`'s keep-alive connections and resolves once its answer is a 200 and a
 * success in the style's own terms (looksSuccessful); rejects with the status and the start of
 * the body otherwise. For the tools that drive servers call by call (instructions.ts, ab.ts).
 */
export function sendCall(url: string, call: HttpCall, style: Style, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${call.path}`, { method: call.method, agent, headers: { ...call.headers, 'content-length': Buffer.byteLength(call.body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200 || !looksSuccessful(style, text)) reject(new Error(`${call.path}: HTTP ${res.statusCode} ${text.slice(0, 300)}`));
        else resolve();
      });
    });
    req.on('error', reject);
    req.end(call.body);
  });
}

/** The tool result inside an answer, or an Error saying why the answer is not a success. */
export function checkAnswer(style: Style, status: number, text: string): unknown {
  if (status !== 200) throw new Error(`HTTP ${status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as Record<string, any>;
  switch (style) {
    case 'rest':
      return body;
    case 'bridge':
      if (body.success !== true) throw new Error(`bridge failure: ${text.slice(0, 300)}`);
      return body.data;
    case 'mcp':
      if (!body.result || body.result.isError) throw new Error(`MCP failure: ${text.slice(0, 300)}`);
      return body.result.structuredContent;
    case 'graphql':
      if (body.errors) throw new Error(`GraphQL errors: ${text.slice(0, 300)}`);
      return Object.values(body.data as Record<string, unknown>)[0];
  }
}
