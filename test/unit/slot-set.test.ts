import { describe, expect, it } from 'vitest';
import { SlotMap, SlotSet } from '../../src/domain/graph/slot-set.ts';

describe('SlotSet', () => {
  it('adds each slot once and forgets them all at begin()', () => {
    const set = new SlotSet(4).begin();
    expect([set.add(3), set.add(3), set.add(0), set.has(3), set.has(1)]).toEqual([true, false, true, true, false]);
    set.begin();
    expect([set.has(3), set.has(0), set.add(3)]).toEqual([false, false, true]);
  });

  it('grows past its capacity and keeps what it held', () => {
    const set = new SlotSet(2).begin();
    set.add(1);
    expect(set.add(5_000)).toBe(true);
    expect([set.has(1), set.has(5_000), set.has(4_999), set.has(1_000_000)]).toEqual([true, true, false, false]);
  });

  it('keeps slots that share a word apart, bit 31 included, and empties a set of many members', () => {
    const set = new SlotSet(64).begin();
    for (const slot of [31, 32, 63, 0]) set.add(slot);
    expect([0, 1, 30, 31, 32, 33, 62, 63].map((slot) => set.has(slot))).toEqual([true, false, false, true, true, false, false, true]);
    set.begin();
    for (let slot = 0; slot < 10_000; slot += 3) set.add(slot);
    expect([set.has(9_999), set.has(9_998), set.has(3)]).toEqual([true, false, true]);
    set.begin();
    expect([set.has(9_999), set.has(3), set.has(31)]).toEqual([false, false, false]);
  });
});

describe('SlotMap', () => {
  it('keeps a number with each slot, -1 for a slot not in the map, and empties at begin()', () => {
    const map = new SlotMap(4).begin();
    map.set(2, 0);
    map.set(7, 41);
    map.set(2, 9);
    expect([map.get(2), map.get(7), map.get(3), map.get(100)]).toEqual([9, 41, -1, -1]);
    map.begin();
    expect([map.get(2), map.get(7)]).toEqual([-1, -1]);
    map.set(7, 1);
    expect(map.get(7)).toBe(1);
  });

  it('grows past its capacity and keeps what it held', () => {
    const map = new SlotMap(2).begin();
    map.set(1, 11);
    map.set(70_000, 5);
    expect([map.get(1), map.get(70_000), map.get(69_999)]).toEqual([11, 5, -1]);
  });
});
