import type { Figures } from './measure.ts';
import { drift, findCell, floor, type Cell, type Results } from './results.ts';

const n0 = (v: number): string => (Number.isFinite(v) ? Math.round(v).toLocaleString('en') : '–');
const ms = (v: number): string => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–');
/**
 * A ratio: two decimals from 1 up, three significant digits below, so a figure just under a
 * target (0.148 against 0.15, 0.845 against 0.85) is not rounded up to it.
 */
export const ratio = (v: number): string => (Number.isFinite(v) ? `${v >= 1 ? v.toFixed(2) : Number(v.toPrecision(3))}×` : '–');
const mb = (v: number | null): string => (v === null ? '–' : v.toFixed(0));
const size = (v: number): string => (v >= 1e6 ? `${v / 1e6}M` : v >= 1e3 ? `${v / 1e3}k` : String(v));

function duration(s: number): string {
  return s >= 60 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${s.toFixed(0)} s`;
}

const TEXT_COLUMNS = new Set(['tool', 'style', 'server', 'phase', 'companies / contacts / deals']);

function table(head: string[], rows: string[][]): string {
  const align = head.map((h) => (TEXT_COLUMNS.has(h) ? '---' : '---:'));
  return [head, align, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

function headline(r: Results, base: Figures): string {
  const at = r.settings.tools_size;
  const rest = findCell(r, 'records.get', 'rest', at);
  if (!rest) return '';
  const f = rest.figures;
  const lines = [
    `## Headline: REST \`records.get\` on ${n0(at)} records`,
    '',
    `- **${n0(f.calls_per_s)} calls/s = ${ratio(f.calls_per_s / base.calls_per_s)} bare node:http** (${n0(base.calls_per_s)} calls/s in the same run); p50 ${ms(f.p50_ms)} ms, p99 ${ms(f.p99_ms)} ms.`,
  ];
  for (const style of ['bridge', 'mcp', 'graphql'] as const) {
    const c = findCell(r, 'records.get', style, at);
    if (!c) continue;
    const label = style === 'graphql' ? '/graphql (same operation)' : style === 'mcp' ? 'MCP' : 'Bridge';
    const extra = c.figures.p50_ms - f.p50_ms;
    lines.push(`- ${label}: ${n0(c.figures.calls_per_s)} calls/s = ${ratio(c.figures.calls_per_s / f.calls_per_s)} REST; ` +
      `p50 ${ms(c.figures.p50_ms)} ms (${ratio(c.figures.p50_ms / f.p50_ms)} REST, ${extra >= 0 ? '+' : '−'}${ms(Math.abs(extra))} ms), p99 ${ms(c.figures.p99_ms)} ms.`);
  }
  return lines.join('\n');
}

function baselineRows(r: Results, base: Figures): string[][] {
  return r.cells.filter((c) => c.phase === 'baseline').map((c) => [
    c.target === 'koa' ? 'bare Koa route' : 'bare node:http', c.when ?? '',
    n0(c.figures.calls_per_s), ratio(c.figures.calls_per_s / base.calls_per_s), ms(c.figures.p50_ms), ms(c.figures.p99_ms), String(c.figures.errors), mb(c.peak_rss_mb),
  ]);
}

function toolRows(r: Results, base: Figures): string[][] {
  const at = r.settings.tools_size;
  const cells = r.cells.filter((c) => c.phase === 'tools');
  return cells.map((c) => {
    const rest = findCell(r, c.tool!, 'rest', at)?.figures;
    const f = c.figures;
    return [
      `\`${c.tool}\``, c.style!, n0(f.calls_per_s), ratio(f.calls_per_s / base.calls_per_s),
      rest ? ratio(f.calls_per_s / rest.calls_per_s) : '–', ms(f.p50_ms), ms(f.p99_ms), rest ? ratio(f.p50_ms / rest.p50_ms) : '–',
      f.server_cpu_ms_per_call === undefined ? '–' : f.server_cpu_ms_per_call.toFixed(3),
      f.server_pauses ? ms(f.server_pauses.loop_p99_ms) : '–', f.server_pauses ? f.server_pauses.gc_ms_per_s.toFixed(1) : '–',
      n0(f.bytes_per_answer), String(f.errors), mb(c.peak_rss_mb),
    ];
  });
}

function scaleRows(r: Results, base: Figures): string[][] {
  const tools = [...new Set(r.cells.filter((c) => c.phase === 'scale').map((c) => c.tool!))];
  const rows: string[][] = [];
  for (const tool of tools) {
    const smallest = findCell(r, tool, 'rest', r.settings.sizes[0]!)?.figures;
    for (const s of r.settings.sizes) {
      const c: Cell | undefined = findCell(r, tool, 'rest', s);
      if (!c) continue;
      const f = c.figures;
      rows.push([`\`${tool}\``, size(s), n0(f.calls_per_s), ratio(f.calls_per_s / base.calls_per_s), ms(f.p50_ms), ms(f.p99_ms),
        smallest ? ratio(f.p50_ms / smallest.p50_ms) : '–', String(f.errors), mb(c.peak_rss_mb)]);
    }
  }
  return rows;
}

const GRAPH_TOOLS = /^(graph\.|contacts\.classify)/;

/**
 * Every graph cell against `records.get` in the same style at the same size: how many graph calls
 * cost one single-record read, the measure the graph tools are held to.
 */
function graphRows(r: Results): string[][] {
  return r.cells.filter((c) => (c.phase === 'tools' || c.phase === 'scale') && GRAPH_TOOLS.test(c.tool ?? '')).flatMap((c) => {
    const get = findCell(r, 'records.get', c.style!, c.size!);
    if (!get) return [];
    const f = c.figures;
    return [[`\`${c.tool}\``, size(c.size!), c.style!, n0(f.calls_per_s), ratio(f.calls_per_s / get.figures.calls_per_s), ms(f.p50_ms), ratio(f.p50_ms / get.figures.p50_ms)]];
  });
}

/** The run as a markdown document: machine, headline, baselines, tools, scale, datasets, memory. */
export function renderMarkdown(r: Results): string {
  const base = floor(r);
  if (!base) throw new Error('no bare node:http baseline was measured');
  const m = r.machine;
  const s = r.settings;
  return [
    `# Benchmark: ${r.mode} run, ${r.started_at.slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.mem_gb} GB, ${m.platform} · Node ${m.node} · commit ${m.commit}${m.dirty ? ' (with uncommitted changes)' : ''} · ` +
      `run took **${duration(r.duration_s)}**.`,
    '',
    `Method: autocannon closed loop on 127.0.0.1, ${s.connections} connections, ${s.seconds} s per cell after ${s.warmup_seconds} s warm-up; ` +
      `server and load generator in separate processes${s.pinned ? ', pinned to one CPU each' : ''}. ` +
      (s.collected ? 'Each gateway cell begins with a full garbage collection in the server, so no cell pays for the garbage of those before it. ' : '') +
      (s.quiet_after_writes ? 'After a write tool\'s cell the run waits until the server is quiet, and the CPU it used meanwhile (the WAL checkpoint and search rows the calls left behind) counts as that cell\'s, not the next one\'s. ' : '') +
      `Ratios are calls/s over bare node:http measured in this run (mean of its measurements at start, middle and end). ` +
      `The gateway runs with its in-process rate limiter on every call (limit set out of reach). ` +
      `Latency is per call under that load; peak RSS is the server's, per cell (VmHWM reset before each).`,
    '',
    headline(r, base),
    '',
    '## Baselines (the floor of this machine)',
    '',
    table(['server', 'phase', 'calls/s', '× node:http', 'p50 ms', 'p99 ms', 'errors', 'peak RSS MB'], baselineRows(r, base)),
    '',
    `node:http drifted ${ratio(drift(r))} (max / min calls/s) during the run` +
      (drift(r) > 1.25 ? ': **the machine was busy with something else; treat ratios below as ±25% or rerun.**' : '.'),
    '',
    `## Tools on ${n0(s.tools_size)} records, by call style`,
    '',
    '`× REST` compares a style with REST for the same tool: calls/s (throughput) and p50 (latency). ' +
      `Server CPU is the server process's CPU time (all threads) over the measured run${s.quiet_after_writes ? ' (for a write tool, until the server was quiet after it)' : ''} per answer: ` +
      'steadier than calls/s when the machine is shared, since time spent waiting for a CPU is not in it. ' +
      'Loop delay p99 is how late the server\'s event loop ran a timer due every 5 ms (a call arriving then waits about as long), ' +
      'GC ms/s its garbage collector\'s pauses per second, both over the measured run: a p99 near the loop delay\'s is the process stalling, not the call.',
    '',
    table(['tool', 'style', 'calls/s', '× node:http', 'calls/s × REST', 'p50 ms', 'p99 ms', 'p50 × REST', 'server CPU ms/call', 'loop delay p99 ms', 'GC ms/s', 'bytes/answer', 'errors', 'peak RSS MB'], toolRows(r, base)),
    '',
    '## Scale: REST latency by dataset size',
    '',
    table(['tool', 'records', 'calls/s', '× node:http', 'p50 ms', 'p99 ms', `p50 × ${size(s.sizes[0]!)}`, 'errors', 'peak RSS MB'], scaleRows(r, base)),
    '',
    ...(graphRows(r).length ? [
      '## Graph tools against `records.get`',
      '',
      'Each graph cell over `records.get` in the same call style, at the same size, in this run.',
      '',
      table(['tool', 'records', 'style', 'calls/s', 'calls/s × records.get', 'p50 ms', 'p50 × records.get'], graphRows(r)),
      '',
    ] : []),
    '## Datasets and server start',
    '',
    table(['records', 'companies / contacts / deals', 'links', 'load s', 'records/s', 'createRecords records/s', 'createLinks links/s', 'loader peak RSS MB', 'server start s', 'server start peak RSS MB'],
      r.datasets.map((d) => {
        const start = r.server_starts.find((x) => x.size === d.size);
        return [n0(d.size), `${n0(d.counts.companies)} / ${n0(d.counts.contacts)} / ${n0(d.counts.deals)}`, d.links === undefined ? '–' : n0(d.links),
          `${d.load.seconds.toFixed(1)}${d.cached ? ' (cached)' : ''}`, n0(d.load.records_per_s), n0(d.load.store_records_per_s),
          d.load.links_per_s === undefined ? '–' : n0(d.load.links_per_s), mb(d.load.peak_rss_mb), start ? start.seconds.toFixed(1) : '–', start ? mb(start.peak_rss_mb) : '–'];
      })),
    '',
    'Loading is the Store bulk path (`createRecords`, one transaction per batch of whole companies with their contacts and deals, then `createLinks`); ' +
      '"load s" and "records/s" include generating and validating the records. A cached dataset reports the figures of the run that built it.',
    '',
  ].join('\n');
}
