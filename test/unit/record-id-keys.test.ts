import { describe, expect, it } from 'vitest';
import { compare } from '../../src/domain/graph/walk.ts';
import { newId, writeRecordIdKeys } from '../../src/domain/ids.ts';

/** The order of two ids by their keys, as the graph cache compares slots; null when either has none. */
function byKeys(a: string, b: string): number | null {
  const keys = new Float64Array(6);
  writeRecordIdKeys(a, keys, 0);
  writeRecordIdKeys(b, keys, 3);
  if (Number.isNaN(keys[0]!) || Number.isNaN(keys[3]!)) return null;
  return keys[0]! - keys[3]! || keys[1]! - keys[4]! || keys[2]! - keys[5]!;
}

describe('record id sort keys', () => {
  it('order record ids exactly as their strings compare, within one millisecond too', () => {
    const ids = [
      ...Array.from({ length: 300 }, (_, i) => newId('record', 1_700_000_000_000 + (i % 7))),
      ...Array.from({ length: 100 }, (_, i) => newId('record', i * 997_000_003)),
      'rec_00000000000000000000000000', 'rec_ZZZZZZZZZZZZZZZZZZZZZZZZZZ', 'rec_0000000000ZZZZZZZZZZZZZZZZ', 'rec_000000000000000000000ZZZZZ',
    ];
    for (let i = 0; i < ids.length; i++) {
      for (let j = 0; j < ids.length; j += 7) {
        expect(Math.sign(byKeys(ids[i]!, ids[j]!)!)).toBe(compare(ids[i]!, ids[j]!));
      }
    }
  });

  it('have none for ids of another shape, which are then compared as strings', () => {
    for (const id of ['rec_0000000000000000000000000', 'rec_000000000000000000000000000', 'rec_0000000000000000000000000I', 'rec_000000000000000000000000a0', 'nte_01J9ZK3M4N5P6Q7R8S9T0V1W2X', 'rec_0000000000000000000000000é']) {
      expect(byKeys(id, 'rec_00000000000000000000000000')).toBeNull();
    }
  });
});
