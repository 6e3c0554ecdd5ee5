/**
 * Times graph walks straight on a dataset file, without the gateway: the store's expansions alone
 * (`walk`), and the whole graph.query / graph.path of the service (walk, edges and display names),
 * for roots sampled evenly from every object type of the dataset.
 *
 *   npx tsx bench/graph-timing.ts <crm.sqlite> [runs] [--only <label prefix>] [--base <dir> <crm.sqlite>]
 *
 * `--base` also loads the code of another checkout (e.g. `git archive <commit> | tar -x -C <dir>`
 * with a node_modules link) on its own copy of the dataset, and runs each call on both, in
 * alternating order, so a busy machine slows both alike: the report gives both p50s and the median
 * of the per-call ratios. Files are opened as they are (migrations apply): point at copies.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const flag = (name: string, count = 1): string[] | undefined => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  return args.splice(at, count + 1).slice(1);
};
const only = flag('--only')?.[0];
const base = flag('--base', 2);
const [path, runsArg = '40'] = args;
if (!path) throw new Error('usage: graph-timing.ts <crm.sqlite> [runs] [--only <label prefix>] [--base <dir> <crm.sqlite>]');
const runs = Number(runsArg);

type Case = (i: number) => Promise<unknown>;

/** The cases of one checkout (its own modules) on one dataset file. */
async function load(root: string, file: string): Promise<{ cases: Map<string, Case>; close: () => Promise<void> }> {
  const from = (module: string) => import(pathToFileURL(resolve(root, module)).href);
  const { walk } = await from('src/domain/graph/walk.ts');
  const { createServices } = await from('src/domain/services/context.ts');
  const { createSqliteStore } = await from('src/store/sqlite/index.ts');
  const store = createSqliteStore({ path: file });
  await store.init();
  const ws = (await store.listWorkspaces())[0]!.id;
  const users = await store.listUsers(ws);
  const services = createServices(store, {
    workspace_id: ws, user_id: users[0]!.id, role: 'owner', key_id: null, scopes: [], via: 'rest', tool: null, plan: null, trial_ends_at: null,
  });
  // Roots spread over the workspace: every type, evenly through the id order (the same on every copy).
  const roots: string[] = [];
  for (const slug of ['companies', 'contacts', 'deals']) {
    const ids: string[] = await store.recordIdsOf(ws, slug, null, 1_000_000);
    for (let i = 0; i < 20; i++) roots.push(ids[Math.floor((i * ids.length) / 20)]!);
  }
  const pick = (i: number): string => roots[(i * 7) % roots.length]!;
  const cases = new Map<string, Case>();
  for (const [depth, limit] of [[2, 100], [3, 500]] as const) {
    cases.set(`walk d${depth}/${limit}`, async (i) => {
      const [root] = await store.graphRecords(ws, [pick(i)]);
      return walk(store, ws, root, { depth, limit });
    });
    cases.set(`graph.query d${depth}/${limit}`, (i) => services.graph.query({ record_id: pick(i), depth, limit }));
  }
  cases.set('graph.path d4/3', (i) => services.graph.path({ from_record_id: pick(i), to_record_id: pick(i + 1), max_depth: 4, limit: 3 }));
  return { cases, close: () => store.close() };
}

async function timed(run: Case, i: number): Promise<number> {
  const t = performance.now();
  await run(i);
  return performance.now() - t;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const at = (values: number[], q: number): string => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!.toFixed(2);

const current = await load(process.cwd(), path);
const baseline = base ? await load(base[0]!, base[1]!) : undefined;
for (const [label, run] of current.cases) {
  if (only && !label.startsWith(only)) continue;
  const before = baseline?.cases.get(label);
  for (let i = 0; i < 3; i++) {
    await run(i);
    await before?.(i);
  }
  const now: number[] = [];
  const then: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (before && i % 2) then.push(await timed(before, i));
    now.push(await timed(run, i));
    if (before && !(i % 2)) then.push(await timed(before, i));
  }
  const line = `${label.padEnd(22)} p50 ${at(now, 0.5)} p90 ${at(now, 0.9)} ms`;
  if (!before) console.log(line);
  else console.log(`${line} | base p50 ${at(then, 0.5)} p90 ${at(then, 0.9)} ms | median ratio new/base ${median(now.map((t, i) => t / then[i]!)).toFixed(2)}`);
}
await current.close();
await baseline?.close();
