/**
 * `npm run bench [-- --quick]`: throughput, latency, scale and memory of the gateway, as ratios
 * to a bare node:http server measured in the same run. Datasets are generated once and cached
 * under bench/.data/; results go to bench/results/ (markdown and JSON) and to stdout.
 * Never part of `npm test`. See bench/README.md.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { caseName, Sampler, type BenchCase } from './lib/cases.ts';
import { GATEWAY_ENV, startChild, type ServerChild, type Target } from './lib/child.ts';
import { ensureDataset, runCopy, type Dataset } from './lib/dataset.ts';
import { hammer, type Figures, type LoadOptions } from './lib/measure.ts';
import { parseOptions } from './lib/options.ts';
import { cpuSeconds, machine, pin, rssMb, settle } from './lib/proc.ts';
import { renderMarkdown } from './lib/report.ts';
import type { Cell, Results } from './lib/results.ts';
import { BASELINE_CALL, caseCall, checkAnswer, looksSuccessful, type HttpCall, type Style } from './lib/styles.ts';

const BENCH = fileURLToPath(new URL('.', import.meta.url));
const DATA = join(BENCH, '.data');
const RESULTS = join(BENCH, 'results');

const opts = parseOptions(process.argv.slice(2));
const startedAt = new Date();
const t0 = performance.now();
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const twoCores = cpus().length >= 2 && opts.pin;
const pinned = twoCores && pin(process.pid, 0);
const load: LoadOptions = { connections: opts.connections, seconds: opts.seconds, warmupSeconds: opts.warmupSeconds };
/** Seconds per cell of the warm-up pass after each gateway start. */
const warmupPass = Math.max(0.3, opts.warmupSeconds / 2);
/** Seconds of load between the settle after the warm-up pass and the first measured cell: at least the first, at most the second. */
const RESUME_SECONDS = [4, 30] as const;
/** Rounds of that load go on while the server's RSS falls by more than this share over one. */
const RESUME_SHRINK = 0.02;
const stamp = startedAt.toISOString().slice(0, 16).replace(':', '-');
const profileDir = opts.cpuProf ? join(RESULTS, 'profiles', stamp) : undefined;

const results: Results = {
  mode: opts.mode, started_at: startedAt.toISOString(), duration_s: 0, machine: machine(),
  settings: {
    connections: opts.connections, seconds: opts.seconds, warmup_seconds: opts.warmupSeconds, sizes: opts.sizes,
    tools_size: opts.toolsSize, pinned, collected: true, quiet_after_writes: true, server_env: { ...GATEWAY_ENV },
  },
  datasets: [], server_starts: [], cells: [],
};

async function serve(target: Target, env: Record<string, string> = {}): Promise<ServerChild> {
  return startChild(target, {
    env: { ...GATEWAY_ENV, ...env }, ...(twoCores ? { cpu: 1 } : {}), ...(target === 'crm' && profileDir ? { cpuProfDir: profileDir } : {}),
  });
}

const NO_FIGURES: Figures = { calls_per_s: NaN, p50_ms: NaN, p99_ms: NaN, mean_ms: NaN, calls: 0, errors: 0, bytes_per_answer: NaN };

/** Most seconds a write cell waits for the server to go quiet after its load (see `measure`). */
const QUIET_SECONDS = 30;

/**
 * Probes once (the answer must be a success), then measures under load. A cell that `writes` then
 * waits until the server is quiet and counts the CPU it used meanwhile as the cell's: the WAL
 * checkpoint and search rows its calls left behind, which the next cell would otherwise pay for.
 */
async function measure(
  server: ServerChild, cell: Omit<Cell, 'figures' | 'peak_rss_mb'>, next: () => HttpCall, style: Style | null, writes = false,
): Promise<Cell> {
  const label = `${cell.phase} ${cell.target}${cell.tool ? ` ${cell.tool} ${cell.style}` : ''}${cell.size ? ` @${cell.size}` : ''}`;
  try {
    const probe = next();
    const res = await fetch(`${server.url}${probe.path}`, { method: probe.method, headers: probe.headers, body: probe.body });
    checkAnswer(style ?? 'rest', res.status, await res.text());
  } catch (err) {
    log(`  ${label}: FAILED ${(err as Error).message}`);
    return { ...cell, figures: NO_FIGURES, peak_rss_mb: null, error: (err as Error).message.slice(0, 300) };
  }
  // Every gateway cell starts from a collected heap, so none pays for the garbage the cells and the
  // warm-up pass before it left, collected concurrently with its calls on the server's one CPU.
  await server.pauses?.collect();
  server.resetPeak();
  const serverCpu = cell.target === 'crm' ? () => cpuSeconds(server.pid) : undefined;
  let quietSeconds = 0;
  const quiet = writes && serverCpu ? async () => void (quietSeconds = await settle(server.pid, QUIET_SECONDS)) : undefined;
  const figures = await hammer(
    server.url, next, style && style !== 'rest' ? (body) => looksSuccessful(style, body) : undefined, load, serverCpu, server.pauses, quiet,
  );
  const peak = server.peakRssMb();
  const left = figures.server_cpu_left_ms_per_call === undefined ? '' : ` (${figures.server_cpu_left_ms_per_call.toFixed(3)} of it in the ${quietSeconds.toFixed(1)} s until quiet)`;
  const cpu = figures.server_cpu_ms_per_call === undefined ? '' : `, server CPU ${figures.server_cpu_ms_per_call.toFixed(3)} ms/call${left}`;
  const paused = figures.server_pauses;
  const pauses = paused ? `, loop delay p99 ${paused.loop_p99_ms.toFixed(1)} ms, GC ${paused.gc_ms_per_s.toFixed(1)} ms/s (max ${paused.gc_max_ms.toFixed(1)})` : '';
  log(`  ${label}: ${Math.round(figures.calls_per_s)} calls/s, p50 ${figures.p50_ms.toFixed(2)} ms, p99 ${figures.p99_ms.toFixed(2)} ms${cpu}${pauses}` +
    `${figures.errors ? `, ${figures.errors} errors` : ''}, peak RSS ${peak?.toFixed(0) ?? '?'} MB`);
  return { ...cell, figures, peak_rss_mb: peak };
}

async function baselines(when: 'start' | 'middle' | 'end'): Promise<void> {
  log(`baselines (${when})`);
  for (const target of when === 'middle' ? (['node-http'] as const) : (['node-http', 'koa'] as const)) {
    const server = await serve(target);
    try {
      results.cells.push(await measure(server, { phase: 'baseline', target, tool: null, style: null, size: null, when }, () => BASELINE_CALL, null));
    } finally {
      await server.stop();
    }
  }
}

/**
 * Loads the server with the first cell's calls before that cell is measured, so it starts as
 * every later cell does: under load, with a heap that has stopped shrinking. Coming back from the
 * idle moment after the warm-up pass the server ran slower for seconds (the first cell's loop delay
 * p99 twice the next cells', its CPU per call 10-20% higher, whatever its style), and with every
 * tool in four styles in that pass its RSS then fell for about two quick cells (1,056 -> 838 -> 755
 * MB) while the first took 5-10% more CPU a call than the ones after it.
 */
async function resume(server: ServerChild, next: () => HttpCall): Promise<void> {
  await server.pauses?.collect();
  const [least, most] = RESUME_SECONDS;
  let rss = rssMb(server.pid);
  await hammer(server.url, next, undefined, { ...load, seconds: least, warmupSeconds: 0 });
  let loaded = least;
  for (; loaded < most; loaded += 2) {
    const now = rssMb(server.pid);
    if (rss === null || now === null || now > rss * (1 - RESUME_SHRINK)) break;
    rss = now;
    await hammer(server.url, next, undefined, { ...load, seconds: 2, warmupSeconds: 0 });
  }
  if (loaded > least) log(`  loaded ${loaded} s before the first cell, until the server's RSS stopped falling (${rss?.toFixed(0)} MB)`);
}

/** Starts the gateway on a private copy of the dataset and runs the cases in the styles. */
async function gateway(dataset: Dataset, phase: 'tools' | 'scale', cases: BenchCase[], styles: Style[]): Promise<void> {
  const dataDir = runCopy(dataset, DATA);
  const started = performance.now();
  const server = await serve('crm', { DATA_DIR: dataDir });
  results.server_starts.push({ size: dataset.size, seconds: (performance.now() - started) / 1000, peak_rss_mb: server.peakRssMb() });
  const sampler = new Sampler(dataset.sample);
  const ordered = [...cases.filter((x) => !x.writes), ...cases.filter((x) => x.writes)];
  const caller = (c: BenchCase, style: Style) => (): HttpCall => caseCall(c, style, dataset.key, sampler);
  try {
    // One pass over every cell first, so the JIT and the store's caches are warm for the first measured cell too.
    for (const c of ordered) for (const style of styles) await hammer(server.url, caller(c, style), undefined, { ...load, seconds: warmupPass, warmupSeconds: 0 });
    // Then the server's own start-up work (the graph cache's preload) ends before the first measured cell.
    const settled = await settle(server.pid);
    if (settled > 1) log(`  server settled after ${settled.toFixed(1)} s`);
    if (ordered[0] && styles[0]) await resume(server, caller(ordered[0], styles[0]));
    for (const c of ordered) {
      for (const style of styles) {
        results.cells.push(await measure(server, { phase, target: 'crm', tool: caseName(c), style, size: dataset.size }, caller(c, style), style, c.writes === true));
      }
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

log(`bench: ${opts.mode} run, sizes ${opts.sizes.join(', ')}, ${opts.seconds} s per cell, ${opts.connections} connections${pinned ? ', pinned' : ''}`);
const datasets = new Map<number, Dataset>();
for (const size of opts.sizes) {
  log(`dataset ${size.toLocaleString('en')} records`);
  const d = await ensureDataset(DATA, size, log);
  datasets.set(size, d);
  results.datasets.push({ size, counts: d.counts, links: d.links, cached: d.cached, load: d.load });
  log(`  ${d.cached ? 'cached' : 'loaded'}: ${Math.round(d.load.records_per_s).toLocaleString('en')} records/s (createRecords alone ${Math.round(d.load.store_records_per_s).toLocaleString('en')}/s, createLinks ${Math.round(d.load.links_per_s ?? 0).toLocaleString('en')} links/s)`);
}
await baselines('start');
log(`tools at ${opts.toolsSize.toLocaleString('en')} records`);
await gateway(datasets.get(opts.toolsSize)!, 'tools', opts.cases, opts.styles);
await baselines('middle');
for (const size of opts.sizes.filter((s) => s !== opts.toolsSize)) {
  log(`scale at ${size.toLocaleString('en')} records`);
  await gateway(datasets.get(size)!, 'scale', opts.cases.filter((c) => c.scale), ['rest']);
}
await baselines('end');

results.duration_s = (performance.now() - t0) / 1000;
const markdown = renderMarkdown(results);
mkdirSync(RESULTS, { recursive: true });
// A custom run (filtered tools, styles or sizes) never replaces the table the README links.
for (const name of opts.mode === 'custom' ? [`${stamp}-custom`] : [`${stamp}-${opts.mode}`, 'latest']) {
  writeFileSync(join(RESULTS, `${name}.md`), markdown);
  writeFileSync(join(RESULTS, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
}
console.log(markdown);
log(`written to bench/results/${opts.mode === 'custom' ? '' : 'latest.md and '}${stamp}-${opts.mode}.md (${Math.round(results.duration_s)} s)${profileDir ? `; CPU profiles in ${profileDir}` : ''}`);
