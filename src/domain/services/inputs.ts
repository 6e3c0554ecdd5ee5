import { longerThan } from '../fields/checks.ts';
import { validationError } from '../errors.ts';
import { ID_PREFIXES, isIdOf, type IdKind } from '../ids.ts';

/** A display name: trimmed, not empty, at most `max` characters. */
export function requireName(name: string, param = 'name', max = 100): string {
  const trimmed = name.trim();
  if (!trimmed) throw validationError(param, `${param} must not be empty`, { rule: 'required' });
  if (longerThan(trimmed, max)) throw validationError(param, `${param} must be at most ${max} characters`, { rule: 'max_length', max });
  return trimmed;
}

/**
 * An id parameter of the given kind, checked for its shape before any read: a typo is a 400
 * naming the parameter (rule `format`), where a filter would otherwise answer an empty page.
 */
export function requireIdOf(kind: IdKind, id: string, param: string): string {
  if (!isIdOf(kind, id)) {
    const label = kind.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
    throw validationError(param, `${param} must be a ${label} id like "${ID_PREFIXES[kind]}_01J9ZK3M4N5P6Q7R8S9T0V1W2X", got ${JSON.stringify(id.slice(0, 100))}`, { rule: 'format' });
  }
  return id;
}
