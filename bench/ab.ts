/**
 * Server CPU per call of this checkout against another build, both servers up at once and loaded in
 * turn, round after round, so that a change of a few percent shows on a machine whose speed drifts
 * more than that between two `npm run bench` runs:
 *
 *   npx tsx bench/ab.ts --base <dir> [--tool records.get] [--style rest] [--size 10000]
 *                       [--rounds 8] [--calls 20000] [--connections 10]
 *
 * `--base` is a checkout of the other build (`git worktree add <dir> <commit>`, or `git archive
 * <commit> | tar -x -C <dir>`, plus a `node_modules` link). Each server runs under its own build's
 * loader on its own copy of this checkout's cached dataset (the base applies its own migrations to
 * it, so the two builds must agree on the schema), pinned to CPU 1 with the callers on CPU 0. After
 * a warm-up of both, every round runs `--calls` calls (the bench's seeded parameters, `--connections`
 * callers on keep-alive connections) against each server, the order swapped every round, and reads
 * the server's CPU time (user and system, all threads, from /proc) around them. It prints each
 * round, then the base's and this build's medians and, pair by pair, how many rounds this build
 * spent less and the mean difference. CPU time counts only what the server ran, so it moves less
 * than calls/s with what else the machine does; it is read in clock ticks of 10 ms, which over
 * 20,000 calls is half a microsecond a call. Never part of `npm test` nor of `npm run bench`.
 */
import { rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { CASES, caseName, Sampler } from './lib/cases.ts';
import { GATEWAY_ENV, startChild, type ServerChild } from './lib/child.ts';
import { ensureDataset, runCopy } from './lib/dataset.ts';
import { cpuSeconds, pin } from './lib/proc.ts';
import { caseCall, sendCall, STYLES, type Style } from './lib/styles.ts';

const DATA = join(fileURLToPath(new URL('.', import.meta.url)), '.data');
const USAGE = 'npx tsx bench/ab.ts --base <dir> [--tool records.get] [--style rest] [--size 10000] [--rounds 8] [--calls 20000] [--connections 10]';
const { values } = parseArgs({
  options: {
    base: { type: 'string' }, tool: { type: 'string', default: 'records.get' }, style: { type: 'string', default: 'rest' },
    size: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '8' }, calls: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '10' }, help: { type: 'boolean' },
  },
});
if (values.help || !values.base) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
const bench = CASES.find((c) => caseName(c) === values.tool);
if (!bench) throw new Error(`no bench case named ${values.tool}; cases: ${CASES.map(caseName).join(', ')}`);
const style = values.style as Style;
if (!STYLES.includes(style)) throw new Error(`--style: ${style} is not one of ${STYLES.join(', ')}`);
const [size, rounds, calls, connections] = [values.size, values.rounds, values.calls, values.connections].map(Number) as [number, number, number, number];
for (const n of [size, rounds, calls, connections]) if (!Number.isInteger(n) || n < 1) throw new Error(`--size, --rounds, --calls and --connections take positive integers\n${USAGE}`);

// The base's own child.ts, so its server starts from its own entry point under its own loader.
const baseChild = (await import(pathToFileURL(join(resolve(values.base), 'bench/lib/child.ts')).href)) as { startChild: typeof startChild };
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const dataset = await ensureDataset(DATA, size, log);
pin(process.pid, 0);
// Two copies: servers sharing one file would take each other's write lock.
const dirs = [runCopy(dataset, DATA, 'run-base'), runCopy(dataset, DATA, 'run-this')] as const;
const base = await baseChild.startChild('crm', { env: { ...GATEWAY_ENV, DATA_DIR: dirs[0] }, cpu: 1 });
const servers: Record<'base' | 'this', ServerChild> = {
  base,
  this: await startChild('crm', { env: { ...GATEWAY_ENV, DATA_DIR: dirs[1] }, cpu: 1 }).catch(async (err: unknown) => {
    await base.stop();
    throw err;
  }),
};

const agent = new Agent({ keepAlive: true, maxSockets: connections });

/** `n` calls from `connections` callers, each drawing the next parameters of one seeded sampler. */
async function load(url: string, n: number): Promise<void> {
  const sampler = new Sampler(dataset.sample);
  let left = n;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (left-- > 0) await sendCall(url, caseCall(bench!, style, dataset.key, sampler), style, agent);
  }));
}

const spent: Record<'base' | 'this', number[]> = { base: [], this: [] };
try {
  for (const server of Object.values(servers)) await load(server.url, Math.min(calls, 5000));
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? (['base', 'this'] as const) : (['this', 'base'] as const)) {
      const { pid, url } = servers[name];
      const before = cpuSeconds(pid)!;
      const started = performance.now();
      await load(url, calls);
      const seconds = (performance.now() - started) / 1000;
      const perCall = ((cpuSeconds(pid)! - before) / calls) * 1e6;
      spent[name].push(perCall);
      log(`round ${round + 1} ${name}: ${perCall.toFixed(1)} µs of server CPU a call, ${Math.round(calls / seconds)} calls/s`);
    }
  }
} finally {
  for (const server of Object.values(servers)) await server.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const differences = spent.this.map((t, i) => t - spent.base[i]!);
const mean = differences.reduce((a, b) => a + b, 0) / differences.length;
console.log(
  `${values.tool} over ${style} on ${size.toLocaleString('en')} records, ${rounds} rounds of ${calls.toLocaleString('en')} calls: ` +
    `server CPU a call, median ${median(spent.base).toFixed(1)} µs (base) and ${median(spent.this).toFixed(1)} µs (this build), ` +
    `${(median(spent.this) / median(spent.base)).toFixed(3)}×; this build spent less in ${differences.filter((d) => d < 0).length} of ${rounds} rounds, ` +
    `${mean >= 0 ? '+' : ''}${mean.toFixed(1)} µs a call on average`,
);
