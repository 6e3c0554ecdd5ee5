import type { Machine } from './proc.ts';

/** What `npm run soak` writes to bench/results/soak-<time>.json. */
export interface SoakResult {
  started_at: string;
  seconds: number;
  connections: number;
  warmup_s: number;
  /** Length of the first and last windows whose mean RSS is compared. */
  window_s: number;
  note: string;
  machine: Machine;
  calls: number;
  errors: number;
  calls_per_s: number;
  rss_first_window_mb: number;
  rss_last_window_mb: number;
  rss_growth_mb: number;
  bound: { growth_mb: number; growth_ratio: number };
  shutdown_exit_code: number | null;
  passed: boolean;
  by_call: Record<string, { calls: number; errors: number }>;
  first_errors: string[];
  rss_samples: { t: number; rss_mb: number }[];
}

/** The markdown table of one soak run. */
export function renderSoak(r: SoakResult): string {
  const rows = Object.entries(r.by_call).map(([k, c]) => `| ${k.replace(' ', ' | ')} | ${c.calls} | ${c.errors} |`);
  const minute = (t: number) => r.rss_samples.filter((s) => s.t % 15 === 0 && s.t > 0 && s.t <= t);
  return `# Soak run ${r.started_at}

**${r.passed ? 'PASSED' : 'FAILED'}** — ${r.seconds} s, ${r.connections} concurrent clients, REST, bridge and MCP in turn, ${r.calls} calls (${r.calls_per_s}/s), ${r.errors} errors; shutdown exit code ${r.shutdown_exit_code}.

Bound: no error, and the server's mean RSS over the last ${r.window_s} s exceeds that over the first ${r.window_s} s after a ${r.warmup_s} s warm-up by less than ${r.bound.growth_mb} MB and less than ${Math.round(r.bound.growth_ratio * 100)}%.

| RSS first window | RSS last window | growth |
|---:|---:|---:|
| ${r.rss_first_window_mb} MB | ${r.rss_last_window_mb} MB | ${r.rss_growth_mb} MB (${r.rss_first_window_mb > 0 ? Math.round((r.rss_growth_mb / r.rss_first_window_mb) * 1000) / 10 : 0}%) |

Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.mem_gb} GB, Node ${r.machine.node}, commit ${r.machine.commit}${r.machine.dirty ? ' (dirty)' : ''}.${r.note ? `\n\nNote: ${r.note}` : ''}

| tool | style | calls | errors |
|---|---|---:|---:|
${rows.join('\n')}

RSS every 15 s (MB): ${minute(r.seconds).map((s) => `${s.t}s ${s.rss_mb}`).join(', ')}
${r.first_errors.length ? `\nFirst errors:\n\n${r.first_errors.map((e) => `- ${e}`).join('\n')}\n` : ''}`;
}
