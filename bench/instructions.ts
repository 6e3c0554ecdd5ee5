/**
 * Instructions per call, counted by valgrind's callgrind instead of timed: a figure that does not
 * move with the machine's speed or with what else it runs, for comparing two versions of the code
 * on a busy machine where calls/s and CPU per call drift by more than the change being judged.
 *
 *   npx tsx bench/instructions.ts [--tools records.get,objects.get] [--styles rest,mcp] [--size 100000]
 *                                 [--calls 1000] [--rounds 3] [--warmup 6000] [--keep]
 *
 * Each server (bare node:http, then the gateway on a private copy of the cached dataset) runs
 * under `valgrind --tool=callgrind --instr-atstart=no`, so start-up and warm-up run uninstrumented;
 * every cell is warmed with `--warmup` calls, then counted `--rounds` times over its next `--calls`
 * calls (one caller, one keep-alive connection, the same seeded parameters as `npm run bench`), and
 * the round with the fewest instructions on the main thread is reported. The gateway first waits
 * until its start-up work (the graph cache's preload) is done. Counted per thread: the main thread
 * serves the calls; the others are V8's compiler and GC helpers, the checkpoint thread and libuv's
 * pool. Only user-space instructions are counted, so system calls (the socket, SQLite's file locks)
 * show only as the instructions around them. Needs valgrind (`callgrind_control` on the PATH), and
 * takes one to two minutes per cell; never part of `npm test` nor of `npm run bench`. `--keep`
 * leaves the dump files and prints where: `callgrind_annotate <file>` then names the native
 * functions (V8's JSON writer, UTF-8 encoding, SQLite) that the instructions went to; JIT-compiled
 * JavaScript shows as unnamed addresses.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CASES, caseName, Sampler } from './lib/cases.ts';
import { GATEWAY_ENV, startChild, type ServerChild } from './lib/child.ts';
import { ensureDataset, runCopy } from './lib/dataset.ts';
import { settle } from './lib/proc.ts';
import { ratio } from './lib/report.ts';
import { BASELINE_CALL, caseCall, sendCall, STYLES, type HttpCall, type Style } from './lib/styles.ts';

const DATA = join(fileURLToPath(new URL('.', import.meta.url)), '.data');
/** Start-up under valgrind is many times slower than the 180 s bench/lib/child.ts allows by default. */
const READY_TIMEOUT_MS = 600_000;

const USAGE = 'npx tsx bench/instructions.ts [--tools records.get] [--styles rest] [--size 100000] [--calls 1000] [--rounds 3] [--warmup 6000] [--keep]';
const { values } = parseArgs({
  options: {
    tools: { type: 'string', default: 'records.get' }, styles: { type: 'string', default: 'rest' }, size: { type: 'string', default: '100000' },
    calls: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '3' }, warmup: { type: 'string', default: '6000' },
    keep: { type: 'boolean' }, help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const size = Number(values.size);
const calls = Number(values.calls);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const styles = values.styles.split(',') as Style[];
const cases = values.tools.split(',').map((name) => {
  const found = CASES.find((c) => caseName(c) === name);
  if (!found) throw new Error(`no bench case named ${name}; cases: ${CASES.map(caseName).join(', ')}`);
  return found;
});
for (const style of styles) if (!STYLES.includes(style)) throw new Error(`--styles: ${style} is not one of ${STYLES.join(', ')}`);
for (const n of [size, calls, rounds, warmup]) if (!Number.isInteger(n) || n < 1) throw new Error(`--size, --calls, --rounds and --warmup take positive integers\n${USAGE}`);
if (spawnSync('callgrind_control', ['--version']).error) {
  console.error('bench/instructions.ts needs valgrind (callgrind_control was not found on the PATH)');
  process.exit(2);
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);

interface Counted {
  main: number;
  others: number;
}

/** A server under callgrind, instrumentation off until asked, one dump file per counted round and thread. */
class CountedServer {
  #part = 0;

  private constructor(readonly server: ServerChild, private readonly outDir: string) {}

  static async start(target: 'node-http' | 'crm', env: Record<string, string>): Promise<CountedServer> {
    const outDir = mkdtempSync(join(tmpdir(), 'crm-callgrind-'));
    const server = await startChild(target, {
      env: { ...GATEWAY_ENV, ...env },
      wrapper: ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', '--smc-check=all-non-file', `--callgrind-out-file=${join(outDir, 'out')}`],
      readyTimeoutMs: READY_TIMEOUT_MS,
    });
    return new CountedServer(server, outDir);
  }

  get url(): string {
    return this.server.url;
  }

  /** Instructions of `run` per call, by thread: counted from instrumentation on to a dump. */
  async count(n: number, run: () => Promise<void>): Promise<Counted> {
    this.#control('-i', 'on');
    await run();
    this.#control('-d');
    this.#control('-i', 'off');
    this.#part += 1;
    const suffix = `.${this.#part}-`;
    let main = 0;
    let others = 0;
    for (const file of readdirSync(this.outDir).filter((f) => f.includes(suffix))) {
      const text = readFileSync(join(this.outDir, file), 'utf8');
      const thread = Number(/^thread: (\d+)$/m.exec(text)?.[1]);
      const total = Number(/^totals: (\d+)$/m.exec(text)?.[1] ?? 0);
      if (thread === 1) main += total;
      else others += total;
    }
    if (main === 0) throw new Error(`callgrind wrote no counts for the main thread in ${this.outDir}`);
    return { main: main / n, others: others / n };
  }

  #control(...args: string[]): void {
    const done = spawnSync('callgrind_control', [...args, String(this.server.pid)], { encoding: 'utf8' });
    if (done.status !== 0) throw new Error(`callgrind_control ${args.join(' ')} failed: ${done.stderr || done.stdout}`);
  }

  async stop(): Promise<void> {
    await this.server.stop();
    if (values.keep) log(`  callgrind dumps kept in ${this.outDir} (one file per counted round and thread: out.<pid>.<round>-<thread>)`);
    else rmSync(this.outDir, { recursive: true, force: true });
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

async function calling(url: string, n: number, next: () => HttpCall, style: Style): Promise<void> {
  for (let i = 0; i < n; i++) await sendCall(url, next(), style, agent);
}

/**
 * The cell counted `rounds` times over the same calls, each round `calls` calls: the round with the
 * fewest main-thread instructions, and the most any round had. V8 still optimizes a function now and
 * then after thousands of calls, and a round it lands in counts its effects (tens of thousands of
 * instructions a call more on the main thread, hundreds of thousands on the compiler's threads).
 */
async function countRounds(server: CountedServer, next: () => () => HttpCall, style: Style): Promise<Counted & { maxMain: number }> {
  let best: Counted | null = null;
  let maxMain = 0;
  for (let round = 0; round < rounds; round++) {
    const call = next();
    const counted = await server.count(calls, () => calling(server.url, calls, call, style));
    if (!best || counted.main < best.main) best = counted;
    maxMain = Math.max(maxMain, counted.main);
  }
  return { ...best!, maxMain };
}

const dataset = await ensureDataset(DATA, size, log);
const rows: Array<{ cell: string; counted: Counted & { maxMain: number } }> = [];

log('node:http under callgrind');
const bare = await CountedServer.start('node-http', {});
try {
  await calling(bare.url, warmup, () => BASELINE_CALL, 'rest');
  rows.push({ cell: 'bare node:http', counted: await countRounds(bare, () => () => BASELINE_CALL, 'rest') });
} finally {
  await bare.stop();
}

log(`gateway on ${size.toLocaleString('en')} records under callgrind`);
const dataDir = runCopy(dataset, DATA);
const crm = await CountedServer.start('crm', { DATA_DIR: dataDir });
try {
  const cells = cases.flatMap((c) => styles.map((style) => ({ c, style })));
  const caller = (c: (typeof cases)[number], style: Style, sampler: Sampler) => () => caseCall(c, style, dataset.key, sampler);
  // A first pass so the start-up work (the graph preload) runs under load as in `npm run bench`, then the wait for it to end.
  for (const { c, style } of cells) await calling(crm.url, Math.min(warmup, 500), caller(c, style, new Sampler(dataset.sample)), style);
  await settle(crm.server.pid, 300);
  for (const { c, style } of cells) {
    // The warm-up and every round draw the same parameters, in the same order.
    await calling(crm.url, warmup, caller(c, style, new Sampler(dataset.sample)), style);
    rows.push({ cell: `${caseName(c)} ${style}`, counted: await countRounds(crm, () => caller(c, style, new Sampler(dataset.sample)), style) });
    log(`  ${caseName(c)} ${style} counted`);
  }
} finally {
  await crm.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const base = rows[0]!.counted.main;
const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
console.log(`\nInstructions per call (user space, callgrind), the least of ${rounds} rounds of ${calls} calls after ${warmup} of warm-up, ${size.toLocaleString('en')} records:\n`);
console.log('| cell | main thread | × node:http | most in a round | other threads |');
console.log('|---|---|---|---|---|');
for (const { cell, counted } of rows) {
  console.log(`| ${cell} | ${k(counted.main)} | ${ratio(counted.main / base)} | ${k(counted.maxMain)} | ${k(counted.others)} |`);
}
