/**
 * Times the bulk load alone (generator, validation, Store.createRecords) into a throwaway
 * directory: `npx tsx bench/load-timing.ts [records]`. Add `--cpu-prof` to node to profile it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDataset } from './lib/dataset.ts';

const size = Number(process.argv[2] ?? '20000');
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
} finally {
  rmSync(root, { recursive: true, force: true });
}
