import { validationError, type CrmError } from '../errors.ts';
import { nearest } from '../suggest.ts';

/**
 * Small building blocks shared by the value, definition and filter validators, so that every
 * message reads the same way: `<param> must be <expected>, got <what was given>`.
 */

/** A JSON object (not an array, not null, not a class instance). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** `a.b` from a base path and a key; the key alone when there is no base. */
export function joinParam(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

/** What a value is, for messages: `string "12"`, `number 3`, `array`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string': {
      const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      return `string ${JSON.stringify(shown)}`;
    }
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    case 'undefined':
      return 'nothing';
    default:
      return typeof value;
  }
}

/** `<param> must be <expected>, got <given>` with rule `type`. */
export function typeError(param: string, expected: string, value: unknown): CrmError {
  return validationError(param, `${param} must be ${expected}, got ${describeValue(value)}`, { rule: 'type', expected });
}

/** Names for a message: the first 30, then how many more. */
export function listNames(names: readonly string[]): string {
  const shown = names.slice(0, 30).join(', ');
  return names.length > 30 ? `${shown}, … (${names.length - 30} more)` : shown;
}

/**
 * A name that is not one of `allowed` (a field, an operator, an option): the given rule, the
 * allowed names and, when one is close, the nearest as `suggestion`.
 */
export function suggestError(param: string, message: string, rule: string, name: string, allowed: readonly string[]): CrmError {
  const suggestion = nearest(name, allowed);
  if (suggestion === undefined) return validationError(param, `${message}; ${allowed.length ? `allowed: ${listNames(allowed)}` : 'none is available'}`, { rule, allowed });
  return validationError(param, `${message}; did you mean ${JSON.stringify(suggestion)}?`, { rule, allowed, suggestion });
}

/** A string that is not one of `allowed`: rule `enum`. */
export function enumError(param: string, value: string, allowed: readonly string[]): CrmError {
  return suggestError(param, `${param} must be one of the allowed values, got ${JSON.stringify(value)}`, 'enum', value, allowed);
}

/** Checks a string and returns it, or throws a type error. */
export function expectString(value: unknown, param: string, expected = 'a string'): string {
  if (typeof value !== 'string') throw typeError(param, expected, value);
  return value;
}

/** Checks a boolean and returns it, or throws a type error. */
export function expectBoolean(value: unknown, param: string): boolean {
  if (typeof value !== 'boolean') throw typeError(param, 'a boolean', value);
  return value;
}

/**
 * Characters as the published schemas count them (JSON Schema's maxLength and zod count code
 * points): a surrogate pair is one. String.length counts UTF-16 units, so 51 emoji were 102 of
 * them and a name the schema let through was refused as longer than 100.
 */
export function characterCount(s: string): number {
  let pairs = 0;
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return s.length - pairs;
}

/** Whether `s` has more than `max` characters (code points); counts only when its units exceed `max`. */
export function longerThan(s: string, max: number): boolean {
  return s.length > max && characterCount(s) > max;
}

/** A string that is non-empty after trimming and at most `max` characters; returns it trimmed. */
export function expectName(value: unknown, param: string, max = 100): string {
  const text = expectString(value, param).trim();
  if (text.length === 0) throw validationError(param, `${param} must not be empty`, { rule: 'required' });
  if (longerThan(text, max)) throw validationError(param, `${param} must be at most ${max} characters, got ${characterCount(text)}`, { rule: 'max_length', max });
  return text;
}

/** An optional free text: undefined stays undefined, null or blank becomes null, else at most `max` characters. */
export function optionalText(value: unknown, param: string, max: number): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const text = expectString(value, param, 'a string or null').trim();
  if (longerThan(text, max)) throw validationError(param, `${param} must be at most ${max} characters, got ${characterCount(text)}`, { rule: 'max_length', max });
  return text.length === 0 ? null : text;
}

/** Keeps the first occurrence of each value, in order. */
export function dedupe<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Every key of `obj` must be in `allowed`; another key is rule `unsupported` with the nearest allowed key. */
export function rejectOtherKeys(obj: Record<string, unknown>, allowed: readonly string[], param: string, what: string): void {
  for (const key of Object.keys(obj)) {
    if (allowed.includes(key)) continue;
    const p = joinParam(param, key);
    throw suggestError(p, `${p} is not a property of ${what}`, 'unsupported', key, allowed);
  }
}

/** An integer in [min, max], else rule `range` (or `type` when not a number). */
export function expectInteger(value: unknown, param: string, min: number, max: number): number {
  const expected = `an integer from ${min} to ${max}`;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw typeError(param, expected, value);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw validationError(param, `${param} must be ${expected}, got ${value}`, { rule: 'range', min, max });
  }
  return value;
}
