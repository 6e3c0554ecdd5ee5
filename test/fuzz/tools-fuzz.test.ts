import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTools, toolSchemas } from '../../gateway/tools/index.ts';
import { callTool, STYLES, type Outcome, type Style } from '../e2e/harness.ts';
import { hugeString, paramsFor } from './arbitraries.ts';
import { openExportReader, type ExportReader } from './exports.ts';
import { callGraphQL, graphqlProblem } from './graphql-call.ts';
import { answerProblem, mustRefuse, summarize } from './invariants.ts';
import { startServerProcess, STALL_BOUND_MS, type ServerProcess } from './server.ts';

/**
 * Property-based fuzzing of every tool in the catalog over REST, the bridge and MCP, and of each
 * tool's GraphQL operation over /graphql, against a real gateway in a child process. Seeded and
 * bounded: FUZZ_RUNS calls per style (default 500), FUZZ_SEED (default fixed);
 * `npm run fuzz -- --runs N --seed S` runs longer. Invariants per call: no 5xx and a documented
 * code with its status; prototype keys and oversize strings refused; the workspace's full export
 * byte-identical after a rejected or read-only call, and the other workspace's export identical
 * throughout (fuzzed ids include its ids); the server's event loop never blocked past 250 ms
 * (confirmed by replaying the call, so one scheduler hiccup on a busy machine is not reported).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

let s: ServerProcess;
let reader: ExportReader;
let ids: string[] = [];
let otherExport = '';
beforeAll(async () => {
  s = await startServerProcess();
  ids = await seedRows();
  reader = await openExportReader(s.dataDir);
  otherExport = await reader.exportOf(s.other.id);
}, 60_000);
afterAll(async () => {
  await reader?.close();
  await s?.close();
});

const tools = listTools();
const readOnly: ReadonlySet<string> = new Set(tools.filter((t) => t.annotations.readOnlyHint).map((t) => t.name));

/** A misspelling or a stranger: tool names are caller input too (REST keeps to path-safe ones). */
const strangeName = (style: Style | 'graphql') => style === 'rest'
  ? fc.constantFrom(...tools.map((t) => t.name)).map((n) => `${n}x`)
  : fc.oneof(hugeString, fc.string({ maxLength: 80 }), fc.constantFrom('__proto__', 'constructor.prototype', 'records.__proto__'));

const call = (style: Style | 'graphql') => fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom(...tools).chain((t) => fc.tuple(fc.constant(t.name), paramsFor(toolSchemas(t).inputSchema, ids))) },
  { weight: 1, arbitrary: fc.tuple(strangeName(style), fc.constant({} as unknown)) },
);

/** A few real rows of each kind, so fuzzed ids often hit something; returns their ids. */
async function seedRows(): Promise<string[]> {
  const make = async (tool: string, params: Record<string, unknown>, id: string): Promise<string> => {
    const out = await callTool(s.h, 'rest', s.ws.owner.key, tool, params);
    if (!out.ok) throw new Error(`seeding ${tool}: ${out.message}`);
    return out.result[id];
  };
  const company = await make('records.create', { object_type_slug: 'companies', data: { name: 'Fuzz Co' } }, 'record_id');
  const person = await make('records.create', { object_type_slug: 'contacts', data: { name: 'Fuzz Person' } }, 'record_id');
  const list = await make('lists.create', { name: 'Fuzz list', object_type_slug: 'companies' }, 'list_id');
  const entry = await make('lists.bulk_add_entry', { list_id: list, entries: [{ record_id: company }] }, 'items')
    .then((items) => (items as unknown as Array<{ entry_id: string }>)[0]!.entry_id).catch(() => null);
  return [company, person, list, ...(entry ? [entry] : []),
    await make('views.create', { name: 'Fuzz view', object_type_slug: 'companies' }, 'view_id'),
    await make('notes.create', { title: 'Fuzz note', record_ids: [company] }, 'note_id'),
    await make('tasks.create', { title: 'Fuzz task', record_ids: [person] }, 'task_id'),
    s.ws.owner.user_id, ...await otherRows()];
}

/** Ids of the other workspace's rows: a fuzzed call naming one must neither see nor touch it. */
async function otherRows(): Promise<string[]> {
  const made = async (tool: string, params: Record<string, unknown>, id: string): Promise<string> => {
    const out = await callTool(s.h, 'rest', s.other.owner.key, tool, params);
    if (!out.ok) throw new Error(`seeding ${tool} in the other workspace: ${out.message}`);
    return out.result[id];
  };
  const company = await made('records.create', { object_type_slug: 'companies', data: { name: 'Other Co' } }, 'record_id');
  return [company, s.other.owner.user_id, await made('lists.create', { name: 'Other list', object_type_slug: 'companies' }, 'list_id'),
    await made('notes.create', { title: 'Other note', record_ids: [company] }, 'note_id')];
}

/** The fuzzed workspace's full export: what must not change when a call is refused or only reads. */
const fingerprint = () => reader.exportOf(s.ws.id);

/** The first line of an export that differs, before → after, cut short. */
function firstDifference(before: string, after: string): string {
  const [a, b] = [before.split('\n'), after.split('\n')];
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i < 0 ? a.length : i;
  return `${(a[at] ?? '(none)').slice(0, 300)} → ${(b[at] ?? '(none)').slice(0, 300)}`;
}

/** One call over a style, reduced to what the invariants need. */
async function send(style: Style | 'graphql', tool: string, params: unknown): Promise<{ ok: boolean; code: string; problem: string | null; sent: unknown }> {
  if (style === 'graphql') {
    const out = await callGraphQL(s.h, s.ws.owner.key, tool, params);
    return { ok: out.ok, code: out.ok ? 'ok' : out.codes[0]!, problem: graphqlProblem(out), sent: out.sent };
  }
  const out: Outcome = await callTool(s.h, style, s.ws.owner.key, tool, params);
  return { ok: out.ok, code: out.ok ? 'ok' : out.code, problem: answerProblem(out), sent: params };
}

describe.each([...STYLES, 'graphql' as const])('fuzzing every tool over %s', (style) => {
  it('never answers 5xx, keeps to the documented codes, leaves both workspaces\' exports alone when it refuses, and never stalls', async () => {
    const tally = new Map<string, number>();
    const okTools = new Set<string>();
    let last = await fingerprint();
    await s.probe();
    const property = fc.asyncProperty(call(style), async ([tool, params]) => {
      let out = await send(style, tool, params);
      tally.set(out.code, (tally.get(out.code) ?? 0) + 1);
      if (out.ok) okTools.add(tool);
      if (out.problem) throw new Error(`${tool}: ${out.problem}`);
      const refuse = mustRefuse(out.sent);
      if (refuse && out.ok) throw new Error(`${tool} accepted ${refuse}`);
      const now = await fingerprint();
      if ((!out.ok || readOnly.has(tool)) && now !== last) throw new Error(`${tool} ${out.ok ? 'read' : `refused (${out.code})`} but the export changed: ${firstDifference(last, now)}`);
      last = now;
      let stall = await s.probe();
      for (let replay = 0; stall >= STALL_BOUND_MS && replay < 2; replay++) {
        out = await send(style, tool, params);
        stall = Math.min(stall, await s.probe());
        last = await fingerprint();
      }
      if (stall >= STALL_BOUND_MS) throw new Error(`${tool} blocked the event loop for ${Math.round(stall)} ms, three times`);
    });
    const details = await fc.check(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });
    console.info(`fuzz ${style}: ${RUNS} calls, seed ${SEED}, ${okTools.size} tools answered ok:`, Object.fromEntries(tally));
    if (details.failed) {
      const example = details.counterexample?.[0] as [string, unknown] | undefined;
      throw new Error(`seed ${SEED}, path ${details.counterexamplePath}: ${(details.errorInstance as Error | undefined)?.message}\n` +
        `call: ${example?.[0] ? String(summarize(example[0])) : '?'} ${JSON.stringify(summarize(example?.[1]))}`);
    }
    expect(tally.get('ok') ?? 0).toBeGreaterThan(0);
    expect(await reader.exportOf(s.other.id)).toBe(otherExport);
  }, Math.max(300_000, RUNS * 2_000));
});
