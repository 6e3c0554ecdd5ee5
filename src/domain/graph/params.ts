import { validationError } from '../errors.ts';
import { nearest } from '../suggest.ts';
import { GRAPH_LIMITS } from './limits.ts';

/** An integer parameter within [min, max], or its default when absent; a validation_error naming it otherwise. */
export function bounded(param: string, value: number | null | undefined, min: number, max: number, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < min || v > max) {
    throw validationError(param, `${param} must be an integer from ${min} to ${max}, got ${v}`, { rule: 'range', min, max });
  }
  return v;
}

/**
 * A comma-separated list (`"contacts,companies"`), trimmed, each entry one of `allowed` (the
 * nearest allowed name is suggested for a typo). Absent, empty or only commas and blanks (`","`,
 * a list joined from empty names): no filter, never one that matches nothing.
 */
export function commaList(param: string, value: string | null | undefined, allowed: readonly string[]): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = [...new Set(value.split(',').map((s) => s.trim()).filter((s) => s !== ''))];
  if (items.length === 0) return undefined;
  if (items.length > GRAPH_LIMITS.filterMax) {
    throw validationError(param, `${param} may name at most ${GRAPH_LIMITS.filterMax} values`, { rule: 'max_items', max: GRAPH_LIMITS.filterMax });
  }
  for (const item of items) {
    if (!allowed.includes(item)) {
      const suggestion = nearest(item.slice(0, 100), allowed);
      throw validationError(param, `${param}: ${JSON.stringify(item.slice(0, 100))} is not one of ${allowed.join(', ')}`, {
        rule: 'enum', allowed: [...allowed], ...(suggestion ? { suggestion } : {}),
      });
    }
  }
  return items;
}
