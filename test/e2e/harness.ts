import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERROR_TABLE, type ErrorCode } from '../../src/domain/errors.ts';
import { addUser, createKey, createWorkspace } from '../../src/domain/services/settings.ts';
import type { Role, Scope } from '../../src/domain/types.ts';
import { loadConfig, type Config } from '../../gateway/config.ts';
import { startServer, type RunningServer } from '../../gateway/server.ts';
import type { Logger } from '../../gateway/logger.ts';

/** A running gateway on a fresh embedded store in a temp directory, listening on a free port. */
export interface Harness {
  url: string;
  config: Config;
  server: RunningServer;
  /** A workspace with an owner, admin, two members and a records-only key. */
  ws: Workspace;
  /** A second workspace, for isolation checks. */
  other: Workspace;
  newWorkspace(opts?: { trialDays?: number | null; plan?: string | null }): Promise<Workspace>;
  keyFor(ws: Workspace, user: string, scopes?: Scope[]): Promise<string>;
  close(): Promise<void>;
}

export interface Member {
  user_id: string;
  key: string;
}

export interface Workspace {
  id: string;
  owner: Member;
  admin: Member;
  member: Member;
  member2: Member;
  recordsOnly: string;
}

export async function startHarness(env: Record<string, string> = {}, logger?: Logger): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'crm-e2e-'));
  const config = loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent', ...env });
  const server = await startServer(config, logger);
  const store = server.store;
  const prefix = config.keyPrefix;

  async function keyFor(ws: Workspace | { id: string }, user: string, scopes: Scope[] = []): Promise<string> {
    return (await createKey(store, { workspace_id: ws.id, user_id: user, name: `k-${user}`, scopes, prefix })).key;
  }

  async function newWorkspace(opts: { trialDays?: number | null; plan?: string | null } = {}): Promise<Workspace> {
    const w = await createWorkspace(store, {
      name: 'E2E', trialDays: opts.trialDays ?? null, plan: opts.plan === undefined ? 'pro' : opts.plan,
    });
    const member = async (email: string, role: Role): Promise<Member> => {
      const u = await addUser(store, { workspace_id: w.id, email, role });
      return { user_id: u.id, key: await keyFor(w, u.id) };
    };
    const owner = await member('owner@e2e.test', 'owner');
    return {
      id: w.id,
      owner,
      admin: await member('admin@e2e.test', 'admin'),
      member: await member('member@e2e.test', 'member'),
      member2: await member('member2@e2e.test', 'member'),
      recordsOnly: await keyFor(w, owner.user_id, ['records']),
    };
  }

  const ws = await newWorkspace();
  const other = await newWorkspace();
  return {
    url: server.url, config, server, ws, other, newWorkspace, keyFor,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const STYLES = ['rest', 'bridge', 'mcp'] as const;
export type Style = (typeof STYLES)[number];

export type Outcome =
  | { ok: true; status: number; result: any; headers: Headers }
  | { ok: false; status: number; code: string; message: string; details?: any; rpc?: number; headers: Headers };

/**
 * JSON text of a value; a string `@@raw-number:<literal>@@` becomes that number literal, so tests
 * can send numbers JavaScript cannot hold (1e400) the way a hostile client would.
 */
export function toJson(value: unknown): string {
  return JSON.stringify(value).replace(/"@@raw-number:([-+0-9.eE]+)@@"/g, '$1');
}

const MCP_HEADERS = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' };
let rpcId = 1;

/**
 * Calls a tool over one call style and normalises the answer, so one table of expectations can
 * run over all three styles. MCP tool failures map to the code's HTTP status.
 */
export async function callTool(
  h: Harness, style: Style, key: string | null, tool: string, params: unknown, headers: Record<string, string> = {},
): Promise<Outcome> {
  const auth: Record<string, string> = { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers };
  if (style === 'rest') {
    const [category, action] = tool.split('.');
    const res = await fetch(`${h.url}/v1/${category}/${action}`, {
      method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: toJson(params),
    });
    const body = await res.json();
    return res.ok
      ? { ok: true, status: res.status, result: body, headers: res.headers }
      : { ok: false, status: res.status, code: body.code, message: body.error, details: body.details, headers: res.headers };
  }
  if (style === 'bridge') {
    const res = await fetch(`${h.url}/mcp/api/developers/mcp/call/`, {
      method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: toJson({ tool, params }),
    });
    const body = await res.json();
    if (h.config.bridgeShape === 'plain') {
      return res.ok
        ? { ok: true, status: res.status, result: body, headers: res.headers }
        : { ok: false, status: res.status, code: body.code, message: body.error, details: body.details, headers: res.headers };
    }
    return body.success
      ? { ok: true, status: res.status, result: body.data, headers: res.headers }
      : { ok: false, status: res.status, code: String(body.error.code).toLowerCase(), message: body.error.message, details: body.error.details, headers: res.headers };
  }
  const res = await fetch(`${h.url}/mcp/`, {
    method: 'POST', headers: { ...auth, ...MCP_HEADERS },
    body: toJson({ jsonrpc: '2.0', id: rpcId++, method: 'tools/call', params: { name: tool, arguments: params } }),
  });
  const body = await res.json();
  if (!res.ok) return { ok: false, status: res.status, code: body.error?.data?.code, message: body.error?.message, rpc: body.error?.code, headers: res.headers };
  if (body.error) return { ok: false, status: 200, code: 'jsonrpc', message: body.error.message, rpc: body.error.code, headers: res.headers };
  const result = body.result;
  if (result.isError) {
    const e = result.structuredContent.error;
    const status = ERROR_TABLE[e.code as ErrorCode].status;
    return { ok: false, status, code: e.code, message: e.message, details: e.details, headers: res.headers };
  }
  if (JSON.stringify(result.structuredContent) !== result.content[0].text) throw new Error('MCP text block differs from structuredContent');
  return { ok: true, status: 200, result: result.structuredContent, headers: res.headers };
}

/** Raw JSON-RPC to the MCP endpoint, for protocol-level tests. */
export async function rpc(h: Harness, key: string | null, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${h.url}/mcp/`, {
    method: 'POST',
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...MCP_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}
