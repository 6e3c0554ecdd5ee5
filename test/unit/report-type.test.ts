import { describe, expect, it } from 'vitest';
import type { SavedReport } from '../../src/domain/reports/types.ts';
import { reportsOn } from '../../src/domain/services/objects.ts';
import { standardType } from './domain-fixtures.ts';

describe('which type a saved report is on', () => {
  const type = { ...standardType('deals'), created_at: '2026-03-01T10:00:00Z' };
  const report = (created_at: string, object_type = 'deals') => ({ created_at, config: { object_type } }) as unknown as SavedReport;

  it('is the type of its slug made before it, compared by instant however the times are spelt', () => {
    expect(reportsOn(report('2026-03-01T10:00:00.500Z'), type)).toBe(true);
    expect(reportsOn(report('2026-03-01T12:00:00+02:00'), type)).toBe(true);
    expect(reportsOn(report('2026-03-01T10:00:00.000Z'), type)).toBe(true);
    // Saved before the type was made: for an earlier type of that slug, since deleted.
    expect(reportsOn(report('2026-03-01T09:59:59.999Z'), type)).toBe(false);
    expect(reportsOn(report('2026-03-01T11:00:00+02:00'), type)).toBe(false);
    expect(reportsOn(report('2026-03-02T00:00:00Z', 'contacts'), type)).toBe(false);
  });
});
