import { describe, expect, it } from 'vitest';
import { periodOf } from '../../src/domain/comms/usage.ts';

/** Billing periods are UTC months; periodOf keeps the current month's bounds between calls. */
describe('periodOf', () => {
  it('names the UTC month of a time, on both sides of a month boundary and back', () => {
    const december = Date.UTC(2026, 11, 1);
    expect(periodOf(december - 1)).toBe('2026-11');
    expect(periodOf(december)).toBe('2026-12');
    expect(periodOf(december - 1)).toBe('2026-11');
    expect(periodOf(Date.UTC(2026, 11, 31, 23, 59, 59, 999))).toBe('2026-12');
    expect(periodOf(Date.UTC(2027, 0, 1))).toBe('2027-01');
    expect(periodOf(new Date(december))).toBe('2026-12');
  });

  it('agrees with the ISO date for every hour of two years, in order and out of order', () => {
    const hours: number[] = [];
    for (let ms = Date.UTC(2027, 0, 1); ms < Date.UTC(2029, 0, 1); ms += 3_600_000) hours.push(ms);
    const shuffled = [...hours].sort((a, b) => ((a * 7919) % 1009) - ((b * 7919) % 1009));
    for (const ms of [...hours, ...shuffled]) expect(periodOf(ms)).toBe(new Date(ms).toISOString().slice(0, 7));
  });

  it('does not confuse years 0-99 with 1900-1999', () => {
    const early = new Date(0);
    early.setUTCFullYear(50, 0, 15);
    expect(periodOf(early)).toBe('0050-01');
    expect(periodOf(Date.UTC(1950, 0, 15))).toBe('1950-01');
    expect(periodOf(early)).toBe('0050-01');
  });

  it('defaults to now', () => {
    expect(periodOf()).toBe(new Date().toISOString().slice(0, 7));
  });
});
