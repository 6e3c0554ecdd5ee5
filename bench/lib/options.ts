import { parseArgs } from 'node:util';
import { CASES, caseName, type BenchCase } from './cases.ts';
import { STYLES, type Style } from './styles.ts';

export interface Options {
  mode: 'quick' | 'full' | 'custom';
  sizes: number[];
  /** The size the tools × styles table runs at. */
  toolsSize: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  cases: BenchCase[];
  styles: Style[];
  pin: boolean;
  cpuProf: boolean;
}

export const USAGE = `npm run bench -- [--quick] [--sizes 10000,100000,1000000] [--seconds N] [--warmup N]
  [--connections N] [--tools records.get,records.list] [--styles rest,mcp] [--no-pin] [--cpu-prof]

  --quick        10k and 100k records, 4 s per cell (under 5 minutes on 2 cores)
  (default)      10k, 100k and 1M records, 10 s per cell
  --cpu-prof     write a V8 CPU profile of every gateway server to bench/results/profiles/
                 (summarise one with: npx tsx bench/profile-summary.ts <file.cpuprofile>)`;

function list(value: string | undefined): string[] | undefined {
  return value?.split(',').map((s) => s.trim()).filter(Boolean);
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number, got ${value}`);
  return n;
}

export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean' }, sizes: { type: 'string' }, seconds: { type: 'string' }, warmup: { type: 'string' },
      connections: { type: 'string' }, tools: { type: 'string' }, styles: { type: 'string' },
      'no-pin': { type: 'boolean' }, 'cpu-prof': { type: 'boolean' }, help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const quick = values.quick === true;
  const sizes = (list(values.sizes)?.map(Number) ?? (quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000])).sort((a, b) => a - b);
  if (sizes.some((s) => !Number.isInteger(s) || s < 100)) throw new Error('--sizes must be whole numbers of at least 100');
  const tools = list(values.tools);
  // A tool name selects all of its cases; a case label (e.g. `records.list[date]`) just that one.
  const cases = tools ? CASES.filter((c) => tools.includes(c.tool) || tools.includes(caseName(c))) : CASES;
  const unknown = tools?.filter((t) => !CASES.some((c) => c.tool === t || caseName(c) === t));
  if (unknown?.length) throw new Error(`--tools: unknown ${unknown.join(', ')}; known cases are ${CASES.map(caseName).join(', ')}`);
  const styles = (list(values.styles) ?? [...STYLES]) as Style[];
  if (styles.some((s) => !(STYLES as readonly string[]).includes(s))) throw new Error(`--styles: one of ${STYLES.join(', ')}`);
  const custom = values.sizes !== undefined || values.seconds !== undefined || tools !== undefined || values.styles !== undefined;
  return {
    mode: custom ? 'custom' : quick ? 'quick' : 'full',
    sizes,
    toolsSize: sizes.includes(100_000) ? 100_000 : sizes[sizes.length - 1]!,
    seconds: positive('seconds', values.seconds, quick ? 4 : 10),
    warmupSeconds: positive('warmup', values.warmup, quick ? 1 : 2),
    connections: Math.max(1, Math.round(positive('connections', values.connections, 10))),
    cases,
    styles,
    pin: values['no-pin'] !== true,
    cpuProf: values['cpu-prof'] === true,
  };
}
