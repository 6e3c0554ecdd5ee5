import { CrmError } from '../../src/domain/errors.ts';
import { characterCount, longerThan } from '../../src/domain/fields/checks.ts';
import { LIMITS, PROTOTYPE_KEYS } from '../../src/domain/limits.ts';
import { unmarkKey } from '../body.ts';
import { paramPath } from './zod-errors.ts';

/**
 * The bounds every tool shares, checked on the raw parameters before zod or anything else runs,
 * so a tool that forgot a `.max()` still cannot be handed a megabyte string, a megabyte key, a
 * prototype key, a thousand levels of nesting or a string that is not text (a lone surrogate, a
 * NUL). One pass,
 * iterative (no recursion to overflow), linear in the size of the parameters.
 */
export function guardParams(params: unknown, tool: string): void {
  const stack: Array<{ value: unknown; path: PropertyKey[] }> = [{ value: params, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (longerThan(value, LIMITS.stringMaxLength)) throw tooLong(path, characterCount(value));
      if (!wellFormed(value)) throw loneSurrogate(path);
      if (value.includes('\0')) throw nulCharacter(path);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= LIMITS.nestingMaxDepth) {
      throw new CrmError('validation_error', `${name(path)} is nested more than ${LIMITS.nestingMaxDepth} levels deep`, {
        param: name(path), rule: 'max_depth', max: LIMITS.nestingMaxDepth,
      });
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, path: [...path, i] }));
      continue;
    }
    for (const rawKey of Object.keys(value)) {
      const key = unmarkKey(rawKey);
      if (PROTOTYPE_KEYS.has(key)) {
        const param = paramPath([...path, key]);
        throw new CrmError('validation_error', `${param} is not a parameter of ${tool}`, { param, rule: 'unknown_parameter' });
      }
      if (!wellFormed(key)) throw loneSurrogate([...path, key]);
      if (key.includes('\0')) throw nulCharacter([...path, key]);
      if (key.length > LIMITS.keyMaxLength) {
        const param = paramPath([...path, `${key.slice(0, 40)}…`]);
        throw new CrmError('validation_error', `${param}: a key may have at most ${LIMITS.keyMaxLength} characters, got ${key.length}`, {
          param, rule: 'key_max', max: LIMITS.keyMaxLength,
        });
      }
      stack.push({ value: (value as Record<string, unknown>)[rawKey], path: [...path, key] });
    }
  }
}

/** String.prototype.isWellFormed (ES2024, in Node 20): no UTF-16 surrogate without its pair. */
const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * A JSON `\ud800` escape without its pair parses to a string no UTF-8 text can hold: stored,
 * it came back as three U+FFFD (or, in JSON columns, as the escape), so it is refused here.
 */
function loneSurrogate(path: readonly PropertyKey[]): CrmError {
  const param = name(path);
  return new CrmError('validation_error', `${param} holds a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair), which is not text; send the character itself or its full surrogate pair`, {
    param, rule: 'unicode',
  });
}

/**
 * A NUL (U+0000) ends a string for SQLite's LIKE and for C code generally: stored, a text with one
 * was cut short there by substring filters, and in a filter value it matched everything.
 */
function nulCharacter(path: readonly PropertyKey[]): CrmError {
  const param = name(path);
  return new CrmError('validation_error', `${param} holds a NUL character (U+0000), which is not text`, { param, rule: 'unicode' });
}

function name(path: readonly PropertyKey[]): string {
  return paramPath(path) || 'params';
}

function tooLong(path: readonly PropertyKey[], length: number): CrmError {
  const param = name(path);
  return new CrmError('validation_error', `${param}: a string may have at most ${LIMITS.stringMaxLength} characters, got ${length}`, {
    param, rule: 'max', max: LIMITS.stringMaxLength,
  });
}
