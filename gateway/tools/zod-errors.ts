import type { z } from 'zod';
import { CrmError } from '../../src/domain/errors.ts';
import { characterCount } from '../../src/domain/fields/checks.ts';
import { nearest } from '../../src/domain/suggest.ts';

/** Dotted parameter path as callers write it: `fields[2].type`, `data.email`. */
export function paramPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    // An empty key still names a parameter the caller sent: show it as "".
    else out += out ? `.${String(part) || '""'}` : String(part) || '""';
  }
  return out;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  // 1e400 in a body parses to Infinity: "got number" alone would not say what was wrong with it.
  if (typeof value === 'number' && !Number.isFinite(value)) return `number ${value} (out of range)`;
  return typeof value;
}

/** What a type refusal says was expected: "an integer", "an array", "a string". */
function expectedType(type: unknown): string {
  const name = type === 'int' ? 'integer' : String(type);
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

/**
 * The issue to report among those zod found: for a number past two bounds at once (an integer
 * past 2^53 is past the safe-integer bound zod's int() checks and the parameter's own maximum),
 * the tighter one, which is the parameter's.
 */
function tightest(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue {
  const first = issues[0]!;
  if (first.code !== 'too_big' && first.code !== 'too_small') return first;
  const key = first.code === 'too_big' ? 'maximum' : 'minimum';
  const bound = (i: z.core.$ZodIssue) => Number((i as unknown as Record<string, unknown>)[key]);
  const same = issues.filter((i) => i.code === first.code && i.path.length === first.path.length && i.path.every((p, n) => p === first.path[n]));
  return same.reduce((best, i) => ((first.code === 'too_big' ? bound(i) < bound(best) : bound(i) > bound(best)) ? i : best), first);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur = input;
  for (const part of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[part];
  }
  return cur;
}

type Def = { type?: string; innerType?: unknown; element?: unknown; shape?: Record<string, unknown>; options?: unknown[] };
const defOf = (schema: unknown): Def | undefined => (schema as { def?: Def } | undefined)?.def;

/** The schemas `schema` stands for: itself, without optional/nullable, and each option of a union. */
function forms(schema: unknown): unknown[] {
  const def = defOf(schema);
  if (def && (def.type === 'optional' || def.type === 'nullable')) return forms(def.innerType);
  if (def?.type === 'union') return (def.options ?? []).flatMap(forms);
  return [schema];
}

/** The keys a strict object at `path` accepts (any union branch's), for suggestions on unknown parameters. */
function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let here: unknown[] = [schema];
  for (const part of path) {
    here = here.flatMap(forms).map((s) => (typeof part === 'number' ? defOf(s)?.element : defOf(s)?.shape?.[part as string])).filter(Boolean);
    if (here.length === 0) return [];
  }
  return [...new Set(here.flatMap(forms).flatMap((s) => Object.keys(defOf(s)?.shape ?? {})))];
}

/**
 * A union's refusal as the branch that came nearest: zod reports only "Invalid input" for a
 * union, with each branch's own issues beside it. The branch whose first issue lies deepest (an
 * option inside the array form, not "expected array") wins, then one about a value the caller
 * sent, then one that took the value's type; when every branch refused the type at the union
 * itself, the union issue stays, to be told as the types it takes.
 */
function narrowed(issue: z.core.$ZodIssue, input: unknown): z.core.$ZodIssue {
  let current = issue;
  while (current.code === 'invalid_union' && current.errors.length > 0) {
    // A key that every branch refuses is the caller's mistake whichever branch was meant.
    const refused = current.errors.map((branch) => branch.find((i) => i.code === 'unrecognized_keys' && i.path.length === 0) as { keys: string[] } | undefined);
    const shared = refused.every(Boolean) ? refused[0]!.keys.find((k) => refused.every((r) => r!.keys.includes(k))) : undefined;
    if (shared !== undefined) return { code: 'unrecognized_keys', keys: [shared], path: current.path, message: '', input: undefined } as z.core.$ZodIssue;
    const firsts = current.errors.map((branch) => branch[0]).filter((i): i is z.core.$ZodIssue => i !== undefined);
    if (firsts.length === 0 || firsts.every((i) => i.code === 'invalid_type' && i.path.length === 0)) return current;
    // Deeper first; then where the caller sent something (a wrong email, not a missing record_id); then not a type refusal.
    const rank = (i: z.core.$ZodIssue) => i.path.length * 4 + (valueAt(input, [...current.path, ...i.path]) === undefined ? 0 : 2) + (i.code === 'invalid_type' ? 0 : 1);
    const best = firsts.reduce((a, b) => (rank(b) > rank(a) ? b : a));
    current = { ...best, path: [...current.path, ...best.path] } as z.core.$ZodIssue;
  }
  return current;
}

/**
 * Turns the first zod issue into a validation_error that names the parameter, the rule, the
 * allowed values and, for a misspelt name or option, the nearest valid one.
 */
export function zodToCrmError(error: z.ZodError, input: unknown, schema: z.ZodType, tool: string): CrmError {
  const issue = narrowed(tightest(error.issues), input);
  if (issue.code === 'invalid_union') {
    // Every branch refused the value's type: say which types are taken.
    const param = paramPath(issue.path) || 'params';
    const expected = [...new Set(issue.errors.map((branch) => String((branch[0] as { expected?: unknown } | undefined)?.expected)))];
    const value = valueAt(input, issue.path);
    if (value === undefined) return new CrmError('validation_error', `${param} is required`, { param, rule: 'required', expected: expected.join(' or ') });
    return new CrmError('validation_error', `${param} must be ${expected.map(expectedType).join(' or ')}, got ${describeValue(value)}`, {
      param, rule: 'type', expected: expected.join(' or '),
    });
  }
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const param = paramPath([...issue.path, key]);
    const allowed = knownKeys(schema, issue.path);
    if (allowed.includes(key)) {
      // Known to another branch of a union: the caller combined keys that exclude each other.
      const parent = valueAt(input, issue.path);
      const others = parent && typeof parent === 'object' ? Object.keys(parent).filter((k) => k !== key && allowed.includes(k)) : [];
      const where = paramPath(issue.path) || 'params';
      return new CrmError('validation_error', `${where}: ${key} cannot be given with ${others.join(', ') || 'the other keys'}; give one of ${allowed.join(', ')}`, {
        param, rule: 'exclusive', allowed,
      });
    }
    const suggestion = nearest(key, allowed);
    return new CrmError('validation_error', `${param} is not a parameter of ${tool}${suggestion ? `; did you mean "${paramPath([...issue.path, suggestion])}"?` : ''}`, {
      param, rule: 'unknown_parameter', allowed, ...(suggestion ? { suggestion } : {}),
    });
  }
  const param = paramPath(issue.path) || 'params';
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return new CrmError('validation_error', `${param} is required`, { param, rule: 'required', expected: issue.expected });
      return new CrmError('validation_error', `${param} must be ${expectedType(issue.expected)}, got ${describeValue(value)}`, {
        param, rule: 'type', expected: issue.expected,
      });
    case 'invalid_value': {
      const allowed = issue.values as unknown[];
      const suggestion = typeof value === 'string' ? nearest(value, allowed.map(String)) : undefined;
      return new CrmError('validation_error', `${param} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(value)}${suggestion ? `; did you mean "${suggestion}"?` : ''}`, {
        param, rule: 'enum', allowed, ...(suggestion ? { suggestion } : {}),
      });
    }
    case 'too_big':
    case 'too_small': {
      const bound = issue.code === 'too_big' ? 'max' : 'min';
      return new CrmError('validation_error', `${param}: ${issue.message.replace(/^Too (big|small): /, '')}, got ${describeValue(value)}${typeof value === 'number' ? ` ${value}` : ''}`, {
        param, rule: bound, [bound]: Number((issue as { maximum?: unknown; minimum?: unknown })[bound === 'max' ? 'maximum' : 'minimum']),
      });
    }
    case 'invalid_key': {
      // A key of a field map refused by its own schema: say the bound it broke.
      const inner = issue.issues[0] as { code?: string; maximum?: unknown } | undefined;
      if (inner?.code === 'too_big') {
        const key = String(issue.path.at(-1));
        return new CrmError('validation_error', `${param}: a key here may have at most ${String(inner.maximum)} characters, got ${characterCount(key)}`, {
          param, rule: 'key_max', max: Number(inner.maximum),
        });
      }
      return new CrmError('validation_error', `${param}: ${issue.message}`, { param, rule: issue.code });
    }
    default:
      return new CrmError('validation_error', `${param}: ${issue.message}`, { param, rule: issue.code });
  }
}
