import { CrmError } from '../../src/domain/errors.ts';
import type { NewRecord, Store } from '../../src/domain/store/port.ts';
import type { NewEvent } from '../../src/domain/store/port-work.ts';

/** A validated row waiting for its batch. */
export interface Pending {
  row: number;
  cells: readonly string[];
  record: NewRecord;
  event: NewEvent;
}

/**
 * Writes a batch through the bulk path (one transaction, records and events together). The bulk
 * write is all or none, so a unique conflict (the store names the batch index) rejects that row
 * and the rest is written again; each retry removes one row, so the loop ends.
 */
export async function writeGood(store: Store, ws: string, batch: Pending[], reject: (p: Pending, reason: string) => void): Promise<number> {
  let rows = batch;
  while (rows.length) {
    try {
      return await store.createRecords(ws, rows.map((p) => p.record), rows.map((p) => p.event));
    } catch (err) {
      // A type changed meanwhile (a field made unique during the import) is not the row's fault:
      // the import stops with it rather than rejecting every later row and writing the batch again each time.
      const index = err instanceof CrmError && err.code === 'conflict' && err.details?.rule !== 'changed_meanwhile' ? err.details?.index : undefined;
      if (typeof index !== 'number' || !rows[index]) throw err;
      reject(rows[index], (err as CrmError).message.replace(/^records\[\d+\]: /, ''));
      rows = rows.filter((_, i) => i !== index);
    }
  }
  return 0;
}
