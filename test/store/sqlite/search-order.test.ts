import { afterEach, describe, expect, it } from 'vitest';
import { newRecord } from '../conformance/harness.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * records.search orders hits of one rank by their number of words, read as FTS5 keeps it:
 * `records_fts_docsize.sz`, a varint of the row's token count, compared by its length, then as
 * bytes. That holds only while the varint is big-endian and never longer than it needs to be,
 * across its one-, two- and three-byte forms (16,383 is FF 7F and 16,384 is 81 80 00, so bytes
 * alone misorder them); this pins it, so an FTS5 change to the format fails here.
 */
describe('search order by length', () => {
  let t: TempStore;
  afterEach(async () => t.cleanup());

  it('puts hits with fewer words first, across every varint width', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    const counts = [1, 2, 127, 128, 129, 255, 256, 16_383, 16_384, 20_000];
    const ids = new Map<number, string>();
    // Created longest first, so record id order (the tie-break) is the reverse of the expected one.
    for (const n of [...counts].reverse()) {
      const name = ['Vardo', ...Array.from({ length: n - 1 }, (_, i) => `w${i % 7}`)].join(' ');
      ids.set(n, (await t.store.createRecord(ws.id, newRecord('companies', { name }))).id);
    }
    await t.searched(ws.id);
    const sizes = t.raw().prepare('SELECT length(sz) AS bytes FROM records_fts_docsize').all() as { bytes: number }[];
    expect(new Set(sizes.map((s) => s.bytes))).toEqual(new Set([1, 2, 3]));
    const found = await t.store.searchRecords(ws.id, { text: 'vardo', offset: 0, limit: 20 });
    expect(found.items.map((r) => r.id)).toEqual(counts.map((n) => ids.get(n)));
    expect(found.total).toBe(counts.length);
  });
});
