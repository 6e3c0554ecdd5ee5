/**
 * Summarises a V8 CPU profile (`npm run bench -- --cpu-prof` writes them to
 * bench/results/profiles/): the functions with the most self time, the functions with the most
 * inclusive time, and self time by file or package. Run:
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [top=25] [filter]
 * `filter` keeps only inclusive rows whose function or file contains it (e.g. "gateway/").
 * `--last S` keeps only the samples of the profile's last S seconds: a bench server's profile
 * starts with its start-up (schema build, dataset preload), which would drown a cell's calls.
 * `--skip S` first drops the profile's last S seconds, to reach a cell that later cells followed.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { last: { type: 'string' }, skip: { type: 'string' } } });
const [file, topArg, filter] = positionals;
const last = values.last === undefined ? Infinity : Number(values.last);
const skip = values.skip === undefined ? 0 : Number(values.skip);
if (!file || !(last > 0) || !(skip >= 0)) {
  console.error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [top] [filter] [--last seconds] [--skip seconds]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Each sample's time since the profile started, to keep only the last `--last` seconds.
const at: number[] = [];
profile.timeDeltas.reduce((sum, d, i) => (at[i] = sum + d), 0);
const to = (at.at(-1) ?? 0) - skip * 1e6;
const from = to - last * 1e6;
const self = new Map<number, number>();
profile.samples.forEach((id, i) => {
  if (at[i]! >= from && at[i]! <= to) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self].filter(([id]) => /^\((idle|program|garbage collector)\)$/.test(byId.get(id)!.callFrame.functionName));

function where(n: ProfileNode): string {
  const url = n.callFrame.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '~/').replace(/^.*\/main\//, '');
  return url ? `${url}:${n.callFrame.lineNumber + 1}` : '';
}
const label = (n: ProfileNode): string => `${n.callFrame.functionName || '(anonymous)'} ${where(n)}`.trim();
const pct = (us: number): string => `${((100 * us) / total).toFixed(1).padStart(5)}%`;

function print(title: string, rows: Map<string, number>, limit = top): void {
  console.log(`\n${title}`);
  for (const [name, us] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, limit)) console.log(`${pct(us)}  ${name}`);
}

const selfByFn = new Map<string, number>();
const inclusive = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const [id, us] of self) {
  const node = byId.get(id)!;
  selfByFn.set(label(node), (selfByFn.get(label(node)) ?? 0) + us);
  const w = where(node);
  const pkg = w.startsWith('~/') ? w.slice(2).split('/').slice(0, w.startsWith('~/@') ? 2 : 1).join('/') : w.split(':')[0] || node.callFrame.functionName;
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  // Inclusive: count each function once per sample stack, however often it recurses.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const name = label(byId.get(at)!);
    if (!seen.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    seen.add(name);
  }
}

console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, idle/program/GC ${idle.map(([id, us]) => `${byId.get(id)!.callFrame.functionName} ${pct(us).trim()}`).join(', ')}`);
print('self time by function', selfByFn);
print('self time by file or package', byPackage);
const filtered = new Map([...inclusive].filter(([name]) => !filter || name.includes(filter)));
print(`inclusive time by function${filter ? ` (matching "${filter}")` : ''}`, filtered, top * 2);
