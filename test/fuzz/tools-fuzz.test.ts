import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTools, toolSchemas } from '../../gateway/tools/index.ts';
import { callTool, STYLES, type Outcome, type Style } from '../e2e/harness.ts';
import { hugeString, paramsFor } from './arbitraries.ts';
import { answerProblem, mustRefuse, summarize } from './invariants.ts';
import { startServerProcess, STALL_BOUND_MS, type ServerProcess } from './server.ts';

/**
 * Property-based fuzzing of every tool in the catalog over REST, the bridge and MCP, against a
 * real gateway in a child process. Seeded and bounded: FUZZ_RUNS calls per style (default 800),
 * FUZZ_SEED (default fixed); `npm run fuzz -- --runs N --seed S` runs longer. Invariants per call:
 * no 5xx and a documented code with its status; prototype keys and oversize strings refused; the store unchanged by a rejected or read-only
 * call (fingerprint: the workspace timeline's size and newest event); the server's event loop
 * never blocked past 250 ms (confirmed by replaying the call, so one scheduler hiccup on a busy
 * machine is not reported as a stall).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 800);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

let s: ServerProcess;
let ids: string[] = [];
beforeAll(async () => {
  s = await startServerProcess();
  ids = await seedRows();
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const tools = listTools();
const readOnly: ReadonlySet<string> = new Set(tools.filter((t) => t.annotations.readOnlyHint).map((t) => t.name));

/** A misspelling or a stranger: tool names are caller input too (REST keeps to path-safe ones). */
const strangeName = (style: Style) => style === 'rest'
  ? fc.constantFrom(...tools.map((t) => t.name)).map((n) => `${n}x`)
  : fc.oneof(hugeString, fc.string({ maxLength: 80 }), fc.constantFrom('__proto__', 'constructor.prototype', 'records.__proto__'));

const call = (style: Style) => fc.oneof(
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
    s.ws.owner.user_id, s.other.owner.user_id];
}

async function fingerprint(): Promise<string> {
  const out = await callTool(s.h, 'rest', s.ws.owner.key, 'timeline.list', { page_size: 1 });
  if (!out.ok) throw new Error(`timeline.list failed: ${out.message}`);
  return `${out.result.total}:${out.result.latest}`;
}

describe.each(STYLES)('fuzzing every tool over %s', (style) => {
  it('never answers 5xx, keeps to the documented codes, leaves the store alone when it refuses, and never stalls', async () => {
    const tally = new Map<string, number>();
    let last = await fingerprint();
    await s.probe();
    const property = fc.asyncProperty(call(style), async ([tool, params]) => {
      const send = () => callTool(s.h, style, s.ws.owner.key, tool, params);
      let out: Outcome = await send();
      tally.set(out.ok ? 'ok' : out.code, (tally.get(out.ok ? 'ok' : out.code) ?? 0) + 1);
      const problem = answerProblem(out);
      if (problem) throw new Error(`${tool}: ${problem}`);
      const refuse = mustRefuse(params);
      if (refuse && out.ok) throw new Error(`${tool} accepted ${refuse}`);
      const now = await fingerprint();
      if ((!out.ok || readOnly.has(tool)) && now !== last) throw new Error(`${tool} ${out.ok ? 'read' : `refused (${out.code})`} but the store changed`);
      last = now;
      let stall = await s.probe();
      for (let replay = 0; stall >= STALL_BOUND_MS && replay < 2; replay++) {
        out = await send();
        stall = Math.min(stall, await s.probe());
        last = await fingerprint();
      }
      if (stall >= STALL_BOUND_MS) throw new Error(`${tool} blocked the event loop for ${Math.round(stall)} ms, three times`);
    });
    const details = await fc.check(property, { numRuns: RUNS, seed: SEED, endOnFailure: true });
    console.info(`fuzz ${style}: ${RUNS} calls, seed ${SEED}:`, Object.fromEntries(tally));
    if (details.failed) {
      const example = details.counterexample?.[0] as [string, unknown] | undefined;
      throw new Error(`seed ${SEED}, path ${details.counterexamplePath}: ${(details.errorInstance as Error | undefined)?.message}\n` +
        `call: ${example?.[0] ? String(summarize(example[0])) : '?'} ${JSON.stringify(summarize(example?.[1]))}`);
    }
    expect(tally.get('ok') ?? 0).toBeGreaterThan(0);
  }, Math.max(300_000, RUNS * 2_000));
});
