import { describe, expect, it } from 'vitest';
import { ID_PREFIXES, isIdOf, newMonotonicId } from '../../../src/domain/ids.ts';
import { tempStore } from './temp-store.ts';

describe('sqlite bulk record writes', () => {
  it('writes thousands of plain records a second in one call', async () => {
    const t = await tempStore();
    try {
      const ws = await t.workspace();
      const inputs = Array.from({ length: 20_000 }, (_, i) => ({
        object_type_slug: 'companies', data: { name: `Company ${i}` }, uniques: [], refs: [], created_by: null, assignee_id: null,
      }));
      const started = performance.now();
      expect(await t.store.createRecords(ws.id, inputs)).toBe(20_000);
      // Typically well under a second; the bound only catches per-row statement preparation and the like.
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(await t.store.countRecords(ws.id, 'companies')).toBe(20_000);
    } finally {
      await t.cleanup();
    }
  });
});

describe('monotonic ids', () => {
  it('sort in the order made within one millisecond and when the clock steps back', () => {
    const at = Date.now();
    const ids = [newMonotonicId('event', at), newMonotonicId('event', at), newMonotonicId('event', at - 5), newMonotonicId('event', at)];
    expect(ids.every((id) => isIdOf('event', id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const later = newMonotonicId('event', at + 1);
    expect(later > ids[3]!).toBe(true);
    expect(later.startsWith(`${ID_PREFIXES.event}_`)).toBe(true);
  });
});
