import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

/**
 * Process facts from Linux /proc: peak RSS (VmHWM) and its reset (`5` to clear_refs, which sets
 * the high-water mark to the current RSS), so each bench phase reports its own peak. Elsewhere
 * these answer null and the report says so.
 */
export function peakRssMb(pid: number): number | null {
  return statusMb(pid, 'VmHWM');
}

/** The resident set now (VmRSS), MB. */
export function rssMb(pid: number): number | null {
  return statusMb(pid, 'VmRSS');
}

function statusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

export function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux, or not ours: the peak then covers the process's whole life
  }
}

/** Pins a process (all its threads) to one CPU with taskset; false when that is not possible. */
export function pin(pid: number, cpu: number): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface Machine {
  cpu: string;
  cores: number;
  mem_gb: number;
  node: string;
  platform: string;
  commit: string;
  dirty: boolean;
}

export function machine(): Machine {
  const git = (...args: string[]): string => {
    try {
      return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    mem_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    commit: git('rev-parse', '--short', 'HEAD') || 'unknown',
    // Tracked files only: an untracked file (a scratch script) runs only if a tracked one imports
    // it, and that one would show as changed. Not the bench's own results: a quick run's new
    // latest.* left uncommitted changes no code a full run after it measures.
    dirty: git('status', '--porcelain', '--untracked-files=no', '--', ':(top)', ':(top,exclude)bench/results').length > 0,
  };
}

/** CPU seconds (user + system) the process has used so far, from /proc (Linux only; null elsewhere). */
export function cpuSeconds(pid: number): number | null {
  try {
    // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * Waits until the process uses under 5% of a CPU over half a second (a server done with its start-up
 * work, such as the SQLite graph cache's background preload), at most `maxSeconds`. Returns the
 * seconds waited.
 */
export async function settle(pid: number, maxSeconds = 60): Promise<number> {
  const started = performance.now();
  let before = cpuSeconds(pid);
  while (before !== null && performance.now() - started < maxSeconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuSeconds(pid);
    if (now === null || now - before < 0.025) break;
    before = now;
  }
  return (performance.now() - started) / 1000;
}
