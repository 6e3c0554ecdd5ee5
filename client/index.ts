/**
 * A typed client of the CRM tool service: `client.<category>.<action>(params)` for every tool, over
 * per-tool REST, the REST bridge or MCP, with one error class and bounded retries.
 *
 *   const crm = new CrmClient({ baseUrl: 'http://localhost:8080', apiKey, style: 'rest' });
 *   const deal = await crm.records.create({ object_type_slug: 'deals', data: { name: 'Acme' } });
 */
import { CrmClientError } from './errors.ts';
import { DEFAULT_RETRY, retryable, retryDelay, type RetryPolicy } from './retry.ts';
import { buildRequest, parseBody, readAnswer, type CallStyle } from './styles.ts';
import { TOOLS } from './tools.generated.ts';
import type { ServedTool, ToolInput, ToolMethods, ToolOutput } from './types.ts';

export { CrmClientError } from './errors.ts';
export type { CallStyle } from './styles.ts';
export type { RetryPolicy } from './retry.ts';
export type { ServedTool, ToolInput, ToolMethods, ToolOutput } from './types.ts';

export interface CrmClientOptions {
  /** The server root, e.g. `http://localhost:8080` (no path). */
  baseUrl: string;
  apiKey: string;
  /** Which of the service's call styles carries the calls. Default `rest`. */
  style?: CallStyle;
  /** The per-tool REST prefix and the MCP prefix, when the server was configured with others. */
  restPrefix?: string;
  mcpPrefix?: string;
  retry?: Partial<RetryPolicy>;
  /** Another fetch (a proxy agent, a test double); default the global fetch. */
  fetch?: typeof fetch;
}

export interface CrmClient extends ToolMethods {}

/** The client. Each instance speaks one call style; make another for another style. */
export class CrmClient {
  readonly style: CallStyle;
  readonly #opts: CrmClientOptions;
  readonly #retry: RetryPolicy;

  constructor(opts: CrmClientOptions) {
    if (!/^https?:\/\//.test(opts.baseUrl)) throw new TypeError('baseUrl must be an http(s) URL such as http://localhost:8080');
    if (!opts.apiKey) throw new TypeError('apiKey is required');
    this.style = opts.style ?? 'rest';
    if (!['rest', 'bridge', 'mcp'].includes(this.style)) throw new TypeError('style must be rest, bridge or mcp');
    this.#opts = { ...opts, baseUrl: opts.baseUrl.replace(/\/+$/, '') };
    this.#retry = { ...DEFAULT_RETRY, ...opts.retry };
    const self = this as unknown as Record<string, Record<string, (p?: unknown) => Promise<unknown>>>;
    for (const { name } of TOOLS) {
      const [category, action] = name.split('.') as [string, string];
      self[category] ??= {};
      self[category]![action] = (params) => this.call(name as ServedTool, (params ?? {}) as never);
    }
  }

  /** Calls a tool by name: what the per-category methods do. */
  async call<N extends ServedTool>(tool: N, params: ToolInput<N>): Promise<ToolOutput<N>> {
    const req = buildRequest(this.style, this.#opts.baseUrl, { rest: this.#opts.restPrefix ?? '/v1', mcp: this.#opts.mcpPrefix ?? '/mcp' }, tool, params);
    const headers: Record<string, string> = { ...req.headers, Authorization: `Bearer ${this.#opts.apiKey}` };
    // One key per logical call, the same on every retry, so the server can answer a repeat with the first result.
    if (TOOLS.some((t) => t.name === tool && t.write)) headers['Idempotency-Key'] = crypto.randomUUID();
    const doFetch = this.#opts.fetch ?? fetch;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await doFetch(req.url, { method: 'POST', headers, body: req.body });
      } catch (err) {
        throw new CrmClientError('unavailable', 0, `cannot reach ${req.url}: ${(err as Error).message}`);
      }
      const body = parseBody(await res.text(), res.headers.get('content-type'));
      if (retryable(res.status) && attempt < this.#retry.maxRetries) {
        await new Promise((r) => setTimeout(r, retryDelay(res.headers.get('retry-after'), attempt, this.#retry)));
        continue;
      }
      return readAnswer(this.style, res.status, body) as ToolOutput<N>;
    }
  }
}
