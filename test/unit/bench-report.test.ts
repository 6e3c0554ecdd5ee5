import { describe, expect, it } from 'vitest';
import { ratio } from '../../bench/lib/report.ts';

describe('bench report ratios', () => {
  it('keeps three significant digits below 1, so a figure just under a target is not rounded up to it', () => {
    expect(ratio(8_190 / 55_397)).toBe('0.148×');
    expect(ratio(0.845)).toBe('0.845×');
    expect(ratio(0.15)).toBe('0.15×');
    expect(ratio(0.0029)).toBe('0.0029×');
    expect(ratio(0.03712)).toBe('0.0371×');
  });

  it('keeps two decimals from 1 up, and a dash for what was not measured', () => {
    expect(ratio(1)).toBe('1.00×');
    expect(ratio(1.0349)).toBe('1.03×');
    expect(ratio(22.4)).toBe('22.40×');
    expect(ratio(NaN)).toBe('–');
    expect(ratio(Infinity)).toBe('–');
  });
});
