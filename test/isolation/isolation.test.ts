import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTools } from '../../gateway/tools/index.ts';
import { newId } from '../../src/domain/ids.ts';
import { callTool, startHarness, STYLES, type Harness } from '../e2e/harness.ts';
import { callGraphQL, foreignCalls, ownCalls } from './calls.ts';
import { exported, populate, type Made } from './populate.ts';

/**
 * The workspace boundary under every tool and every call style: two workspaces populated alike
 * (one of every resource type); each calls every tool with the other's ids and must get 404
 * `not_found`, see none of the other's names or ids, and leave the other's export byte-identical.
 */
let h: Harness;
let a: Made;
let b: Made;
let before: string;
beforeAll(async () => {
  // A short poll so the webhook worker catches up with the populating writes before the first export.
  h = await startHarness({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', SECRETS_KEY: '0'.repeat(64), COMMS_POLL_MS: '50' });
  // Mixed case on purpose: an id's body is upper-case Crockford base32, so 'WSB' can turn up inside
  // a random id of workspace A (it did, failing a CI run), while 'WsB' cannot.
  a = await populate(h, h.ws, 'WsA');
  b = await populate(h, h.other, 'WsB');
  before = await settled(h.other.id);
}, 60_000);

/** The export once the background workers (webhook cursors) have caught up with the populating writes. */
async function settled(workspaceId: string): Promise<string> {
  let last = await exported(h, workspaceId);
  for (let i = 0; i < 40; i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await exported(h, workspaceId);
    if (now === last) return now;
    last = now;
  }
  throw new Error('the workspace never settled');
}
afterAll(async () => {
  await h?.close();
});

/** What of workspace B an answer shows that the caller did not send: its marker or any of its ids. */
function leaks(answer: unknown, sent: unknown = {}): string[] {
  const text = JSON.stringify({ ...(answer as object), headers: undefined });
  const asked = JSON.stringify(sent);
  return [b.marker, ...Object.values(b).filter((v) => v !== b.marker && v.length > 10)].filter((v) => text.includes(v) && !asked.includes(v));
}

/** The same parameters with each of B's ids swapped for a fresh id of the same kind, and B's object type for an unknown one. */
const ghosts = new Map<string, string>();
function ghostOf(params: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(params), (_k, v: unknown) => {
    if (typeof v !== 'string') return v;
    if (v === b.slug) return 'proj_wsc';
    if (!Object.values(b).includes(v) || !/^[a-z]{3}_/.test(v)) return v;
    if (!ghosts.has(v)) ghosts.set(v, `${v.slice(0, 4)}${newId('record').slice(4)}`);
    return ghosts.get(v);
  }) as Record<string, unknown>;
}

/** An answer with the ids it was asked about blanked, to compare a foreign id's answer with a missing one's. */
function normalised(out: { ok: boolean; code?: string; message?: string; status?: number }, params: Record<string, unknown>): string {
  let text = JSON.stringify(out.ok ? { ok: true, page: isEmptyPage(out) } : { code: out.code, message: out.message, status: out.status });
  for (const v of JSON.stringify(params).match(/[a-z]{3}_[0-9A-Z]{26}|proj_ws[bc]/g) ?? []) text = text.replaceAll(v, '<id>');
  return text;
}

/** An answer that is a page with no items. */
function isEmptyPage(out: unknown): boolean {
  const text = JSON.stringify(out);
  return /"items":\[\]/.test(text) && !/"items":\[\{/.test(text);
}

const STYLES_AND_GRAPHQL = [...STYLES, 'graphql'] as const;

describe.each(STYLES_AND_GRAPHQL)('the workspace boundary over %s', (style) => {
  const call = (tool: string, params: Record<string, unknown>) => style === 'graphql'
    ? callGraphQL(h, h.ws.owner.key, tool, params)
    : callTool(h, style, h.ws.owner.key, tool, params);

  it('answers every call naming the other workspace\'s resources as if they did not exist, showing none of their data', async () => {
    const wrong: string[] = [];
    for (const [tool, params, expected] of foreignCalls(a, b)) {
      const out = await call(tool, params);
      const got = out.ok ? (isEmptyPage(out) ? 'empty' : 'ok') : out.code === 'validation_error' ? 'invalid' : out.code;
      const status = out.ok ? 200 : out.status;
      const wanted = { not_found: 404, invalid: 400, empty: 200 }[expected];
      if (got !== expected || (style !== 'graphql' && status !== wanted)) wrong.push(`${tool} ${JSON.stringify(params)} → ${got} ${status}: ${out.ok ? '' : out.message}`);
      const ghost = await call(tool, ghostOf(params));
      if (normalised(out, params) !== normalised(ghost, ghostOf(params))) wrong.push(`${tool} answers a foreign id unlike a missing one`);
      const seen = leaks(out, params);
      if (seen.length) wrong.push(`${tool} showed ${seen.join(', ')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('shows none of the other workspace\'s data in calls that name no id', async () => {
    const wrong: string[] = [];
    for (const [tool, params] of ownCalls(b)) {
      const out = await call(tool, params);
      if (!out.ok) wrong.push(`${tool} failed: ${out.code} ${out.message}`);
      const seen = leaks(out);
      if (seen.length) wrong.push(`${tool} showed ${seen.join(', ')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('leaves the other workspace byte-identical', async () => {
    expect((await exported(h, h.other.id)).split('\n')).toEqual(before.split('\n'));
  });
});

describe('the isolation table', () => {
  it('names every tool that takes an id, and every tool at least once', () => {
    const covered = new Set([...foreignCalls(a, b), ...ownCalls(b)].map(([tool]) => tool));
    const missing = listTools().map((t) => t.name).filter((n) => !covered.has(n));
    // Tools without any id or workspace data to show: they create or describe only.
    expect(missing.sort()).toEqual(['integrations.connect', 'objects.create', 'support.create_ticket'].sort());
  });
});

describe('the same table on the caller\'s own ids', () => {
  it('answers a well-shaped call of every tool, so the boundary test is not passing on refusals alone', async () => {
    const answered = new Set(['objects.create', 'integrations.connect', 'support.create_ticket']); // made by populate()
    const failed: string[] = [];
    // Removals last, so the reads and updates still find what they name; an empty object type to delete.
    const last = (tool: string) => (/\.delete$/.test(tool) ? 2 : /\.(remove_entry|disconnect|unlink)$/.test(tool) ? 1 : 0);
    const deal = await callTool(h, 'rest', h.ws.owner.key, 'records.create', { object_type_slug: 'deals', data: { name: 'Unlisted deal' } });
    const calls: Array<readonly [string, Record<string, unknown>, ...unknown[]]> = [...ownCalls(a), ...foreignCalls(a, a),
      ['lists.bulk_add_entry', { list_id: a.list_id, entries: [{ record_id: deal.ok ? deal.result.record_id : '' }] }],
      ['objects.create', { slug: 'empty_type', name: 'Empty', fields: [{ slug: 'name', name: 'Name', type: 'text' }] }],
      ['objects.delete', { slug: 'empty_type' }]];
    calls.sort(([x], [y]) => last(x) - last(y));
    for (const [tool, params] of calls) {
      if (tool === 'lists.delete') {
        // A list is deleted once its views are (views.create above made one on it).
        const views = await callTool(h, 'rest', h.ws.owner.key, 'views.list', { list_id: params.list_id });
        for (const view of views.ok ? views.result.items : []) await callTool(h, 'rest', h.ws.owner.key, 'views.delete', { view_id: view.view_id });
      }
      const out = await callTool(h, 'rest', h.ws.owner.key, tool, params);
      if (out.ok) answered.add(tool);
      else failed.push(`${tool} ${out.code}`);
    }
    const never = listTools().map((t) => t.name).filter((n) => !answered.has(n));
    expect(never, failed.join('\n')).toEqual([]);
    expect(await exported(h, h.other.id)).toBe(before);
  });
});
