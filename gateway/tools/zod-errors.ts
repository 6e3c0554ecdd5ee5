import type { z } from 'zod';
import { CrmError } from '../../src/domain/errors.ts';
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
  return typeof value;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur = input;
  for (const part of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[part];
  }
  return cur;
}

/** The keys a strict object at `path` accepts, for suggestions on unknown parameters. */
function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let cur: unknown = schema;
  for (const part of path) {
    const def = (cur as { def?: Record<string, unknown> }).def;
    if (!def) return [];
    if (def.type === 'optional' || def.type === 'nullable') cur = (def.innerType as z.ZodType);
    if (typeof part === 'number') cur = ((cur as { def: { element?: unknown } }).def.element);
    else cur = ((cur as { def: { shape?: Record<string, unknown> } }).def.shape ?? {})[part as string];
    if (!cur) return [];
  }
  let def = (cur as { def?: Record<string, unknown> }).def;
  while (def && (def.type === 'optional' || def.type === 'nullable')) def = (def.innerType as { def?: Record<string, unknown> }).def;
  return Object.keys((def?.shape as Record<string, unknown> | undefined) ?? {});
}

/**
 * Turns the first zod issue into a validation_error that names the parameter, the rule, the
 * allowed values and, for a misspelt name or option, the nearest valid one.
 */
export function zodToCrmError(error: z.ZodError, input: unknown, schema: z.ZodType, tool: string): CrmError {
  const issue = error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const param = paramPath([...issue.path, key]);
    const allowed = knownKeys(schema, issue.path);
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
      return new CrmError('validation_error', `${param} must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}, got ${describeValue(value)}`, {
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
    default:
      return new CrmError('validation_error', `${param}: ${issue.message}`, { param, rule: issue.code });
  }
}
