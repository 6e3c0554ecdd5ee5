/**
 * Times the bulk load alone (generator, validation, Store.createRecords) into a throwaway
 * directory: `npx tsx bench/load-timing.ts [records] [--statements]`. Add `--cpu-prof` to node to
 * profile it; `--statements` also prints the SQL texts the load spent the most time in
 * (lib/statement-clock.ts), which slows every statement a little.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDataset } from './lib/dataset.ts';
import { clockStatements } from './lib/statement-clock.ts';

const args = process.argv.slice(2);
const size = Number(args.find((arg) => !arg.startsWith('--')) ?? '20000');
const statements = args.includes('--statements') ? clockStatements() : null;
const root = mkdtempSync(join(tmpdir(), 'crm-load-'));
try {
  const { load, work } = await ensureDataset(root, size, () => undefined);
  const both = load.store_seconds + (load.links_seconds ?? 0);
  console.log(
    `${size} records: ${Math.round(load.records_per_s)} records/s overall, createRecords alone ${Math.round(load.store_records_per_s)} records/s, ` +
      `createLinks ${Math.round(load.links_per_s ?? 0)} links/s, createRecords + createLinks ${Math.round(size / both)} records/s`,
  );
  if (work) console.log(`  work data (not in the rates above): ${JSON.stringify(work)} in ${load.work_seconds?.toFixed(1)} s`);
  if (load.records_cpu_seconds !== undefined) {
    console.log(`  CPU time: createRecords ${Math.round(size / load.records_cpu_seconds)} records per CPU second, createLinks ${Math.round(size / load.links_cpu_seconds!)} records per CPU second`);
  }
  if (statements) {
    const times = statements();
    const total = times.reduce((sum, t) => sum + t.ms, 0);
    console.log(`  statements: ${(total / 1000).toFixed(1)} s in all; the costliest (ms in all, calls, µs a call):`);
    for (const t of times.slice(0, 25)) {
      console.log(`  ${t.ms.toFixed(0).padStart(7)} ${String(t.calls).padStart(8)} ${((1000 * t.ms) / t.calls).toFixed(1).padStart(8)}  ${t.sql.slice(0, 110)}`);
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
