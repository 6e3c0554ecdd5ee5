import type { LoadStats } from './dataset.ts';
import type { Slug } from './generator.ts';
import type { Figures } from './measure.ts';
import type { Machine } from './proc.ts';
import type { Style } from './styles.ts';

/** One measured cell: a server, and for the gateway a tool, a call style and a dataset size. */
export interface Cell {
  phase: 'baseline' | 'tools' | 'scale';
  target: 'node-http' | 'koa' | 'crm';
  tool: string | null;
  style: Style | null;
  size: number | null;
  figures: Figures;
  /** Peak RSS of the server process during this cell alone (MB). */
  peak_rss_mb: number | null;
  /** For baselines: when in the run it was measured (the floor drifts on a shared machine). */
  when?: 'start' | 'middle' | 'end';
  /** Why the cell could not be measured (its probe call failed); figures are then NaN. */
  error?: string;
}

export interface ServerStart {
  size: number;
  seconds: number;
  /** Peak RSS from process start to ready (opening the store included). */
  peak_rss_mb: number | null;
}

export interface DatasetReport {
  size: number;
  counts: Record<Slug, number>;
  /** Links besides the field references (absent in results from before the graph cases). */
  links?: number;
  cached: boolean;
  load: LoadStats;
}

export interface Settings {
  connections: number;
  seconds: number;
  warmup_seconds: number;
  sizes: number[];
  tools_size: number;
  pinned: boolean;
  /** Whether each gateway cell began with a full garbage collection in the server (absent in runs before it did). */
  collected?: boolean;
  /** Whether each write cell's server CPU includes its wait for the server to go quiet after its load (absent in runs before). */
  quiet_after_writes?: boolean;
  server_env: Record<string, string>;
}

export interface Results {
  mode: 'quick' | 'full' | 'custom';
  started_at: string;
  duration_s: number;
  machine: Machine;
  settings: Settings;
  datasets: DatasetReport[];
  server_starts: ServerStart[];
  cells: Cell[];
}

/** The bare node:http figure of the run: the mean of its measurements (start, middle, end). */
export function floor(results: Results, target: 'node-http' | 'koa' = 'node-http'): Figures | null {
  const runs = results.cells.filter((c) => c.phase === 'baseline' && c.target === target).map((c) => c.figures);
  if (runs.length === 0) return null;
  const mean = (pick: (f: Figures) => number): number => runs.reduce((a, f) => a + pick(f), 0) / runs.length;
  return {
    calls_per_s: mean((f) => f.calls_per_s), p50_ms: mean((f) => f.p50_ms), p99_ms: mean((f) => f.p99_ms),
    mean_ms: mean((f) => f.mean_ms), calls: runs.reduce((a, f) => a + f.calls, 0), errors: runs.reduce((a, f) => a + f.errors, 0),
    bytes_per_answer: mean((f) => f.bytes_per_answer),
  };
}

/** max / min calls/s of the node:http measurements: how much the machine drifted during the run. */
export function drift(results: Results): number {
  const runs = results.cells.filter((c) => c.phase === 'baseline' && c.target === 'node-http').map((c) => c.figures.calls_per_s);
  return runs.length ? Math.max(...runs) / Math.min(...runs) : NaN;
}

/** The gateway cell for a tool and style at a size (tools phase first, then scale). */
export function findCell(results: Results, tool: string, style: Style, size: number): Cell | undefined {
  return results.cells.find((c) => c.target === 'crm' && c.tool === tool && c.style === style && c.size === size);
}
