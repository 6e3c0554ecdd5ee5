import { longerThan } from '../fields/checks.ts';
import { validationError } from '../errors.ts';

/** A display name: trimmed, not empty, at most `max` characters. */
export function requireName(name: string, param = 'name', max = 100): string {
  const trimmed = name.trim();
  if (!trimmed) throw validationError(param, `${param} must not be empty`, { rule: 'required' });
  if (longerThan(trimmed, max)) throw validationError(param, `${param} must be at most ${max} characters`, { rule: 'max_length', max });
  return trimmed;
}
