/**
 * `npm run fuzz -- --runs N [--seed S]`: the fuzz harness of `npm test` (test/fuzz), longer.
 * N calls per call style; the seed makes a failing run replayable (`--seed` with the seed it printed).
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5000' }, seed: { type: 'string' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);
const seed = values.seed ?? String(Date.now() % 2 ** 31);
console.log(`fuzzing with ${runs} calls per style, seed ${seed}`);
const result = spawnSync('npx', ['vitest', 'run', 'test/fuzz'], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: String(runs), FUZZ_SEED: seed },
});
process.exit(result.status ?? 1);
