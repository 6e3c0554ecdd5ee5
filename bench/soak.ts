/**
 * `npm run soak [-- --seconds N --connections C --note TEXT]`: a bounded mixed load over the three
 * call styles on loopback against a `crm serve` child on a fresh data directory, with the
 * server's RSS sampled every second. It passes when no call failed (no 5xx, no unexpected code:
 * every call of the mix is valid, so any error counts) and RSS grew by less than
 * RSS_GROWTH_BOUND_MB and RSS_GROWTH_BOUND_RATIO between the first and the last minute after the
 * warm-up. Results go to bench/results/soak-<time>.md and .json; the exit code is 1 on failure.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startChild } from './lib/crm-serve.ts';
import { machine } from './lib/proc.ts';
import { SoakMix } from './lib/soak-mix.ts';
import { checkAnswer, httpCall, type Style } from './lib/styles.ts';
import { renderSoak, type SoakResult } from './lib/soak-report.ts';

export const RSS_GROWTH_BOUND_MB = 50;
export const RSS_GROWTH_BOUND_RATIO = 0.25;
const STYLES: Style[] = ['rest', 'bridge', 'mcp'];

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '180' }, connections: { type: 'string', default: '8' }, note: { type: 'string', default: '' } } });
const seconds = Math.max(20, Number(values.seconds));
const connections = Math.max(1, Number(values.connections));
const warmup = Math.min(30, Math.floor(seconds / 6));
const windowS = Math.min(60, Math.floor((seconds - warmup) / 2));

const dir = mkdtempSync(join(tmpdir(), 'crm-soak-'));
const server = await startChild({ DATA_DIR: dir, LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '1000000' });
const pid = server.proc.pid!;
const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;

const call = async (style: Style, tool: string, params: Record<string, unknown>): Promise<{ ok: boolean; status: number; result?: any; error?: string }> => {
  const req = httpCall(style, server.key!, tool, params, () => ({ query: '', variables: {} }));
  const res = await fetch(`${server.url}${req.path}`, { method: req.method, headers: req.headers, body: req.body });
  const text = await res.text();
  try {
    return { ok: true, status: res.status, result: checkAnswer(style, res.status, text) };
  } catch (err) {
    return { ok: false, status: res.status, error: `${style} ${tool}: ${(err as Error).message.slice(0, 200)}` };
  }
};

const list = await call('rest', 'lists.create', { object_type_slug: 'companies', name: 'Soak list' });
if (!list.ok) throw new Error(`setup failed: ${list.error}`);
const mix = new SoakMix(list.result.list_id, Date.now().toString(36));
const counts = new Map<string, { calls: number; errors: number }>();
const errors: string[] = [];
const samples: { t: number; rss_mb: number }[] = [];
const started = Date.now();
const sampler = setInterval(() => samples.push({ t: Math.round((Date.now() - started) / 1000), rss_mb: Math.round(rssMb() * 10) / 10 }), 1000);

let n = 0;
const worker = async () => {
  while (Date.now() - started < seconds * 1000) {
    const style = STYLES[n++ % STYLES.length]!;
    const next = mix.pick(Math.random());
    const out = await call(style, next.tool, next.params).catch((err: Error) => ({ ok: false, status: 0, error: `${style} ${next.tool}: ${err.message}`, result: undefined }));
    const key = `${next.tool} ${style}`;
    const c = counts.get(key) ?? { calls: 0, errors: 0 };
    c.calls += 1;
    if (out.ok) next.done?.(out.result);
    else {
      c.errors += 1;
      if (errors.length < 20) errors.push(`${out.status} ${out.error}`);
    }
    counts.set(key, c);
  }
};
await Promise.all(Array.from({ length: connections }, worker));
clearInterval(sampler);
server.proc.kill('SIGTERM');
const exit = await server.exited;
rmSync(dir, { recursive: true, force: true });

const mean = (from: number, to: number) => {
  const xs = samples.filter((s) => s.t > from && s.t <= to).map((s) => s.rss_mb);
  return xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
};
const first = mean(warmup, warmup + windowS);
const last = mean(seconds - windowS, seconds);
const growthMb = last - first;
const totalCalls = [...counts.values()].reduce((a, c) => a + c.calls, 0);
const totalErrors = [...counts.values()].reduce((a, c) => a + c.errors, 0);
const result: SoakResult = {
  started_at: new Date(started).toISOString(), seconds, connections, warmup_s: warmup, window_s: windowS, note: values.note ?? '', machine: machine(),
  calls: totalCalls, errors: totalErrors, calls_per_s: Math.round(totalCalls / seconds),
  rss_first_window_mb: Math.round(first * 10) / 10, rss_last_window_mb: Math.round(last * 10) / 10, rss_growth_mb: Math.round(growthMb * 10) / 10,
  bound: { growth_mb: RSS_GROWTH_BOUND_MB, growth_ratio: RSS_GROWTH_BOUND_RATIO },
  shutdown_exit_code: exit.code,
  passed: totalErrors === 0 && growthMb < RSS_GROWTH_BOUND_MB && growthMb < first * RSS_GROWTH_BOUND_RATIO && exit.code === 0,
  by_call: Object.fromEntries([...counts].sort()), first_errors: errors, rss_samples: samples,
};
const results = fileURLToPath(new URL('results/', import.meta.url));
mkdirSync(results, { recursive: true });
const stamp = result.started_at.slice(0, 16).replace(':', '-');
writeFileSync(join(results, `soak-${stamp}.json`), `${JSON.stringify(result, null, 2)}\n`);
const md = renderSoak(result);
writeFileSync(join(results, `soak-${stamp}.md`), md);
process.stdout.write(md);
process.exit(result.passed ? 0 : 1);
