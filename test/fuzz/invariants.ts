import { ERROR_TABLE, type ErrorCode } from '../../src/domain/errors.ts';
import { characterCount, longerThan } from '../../src/domain/fields/checks.ts';
import { LIMITS, PROTOTYPE_KEYS } from '../../src/domain/limits.ts';
import type { Outcome } from '../e2e/harness.ts';

/** Codes a hostile but authenticated call may end with; anything else (5xx above all) is a bug. */
const EXPECTED: ReadonlySet<string> = new Set<ErrorCode>(['validation_error', 'not_found', 'tool_not_found', 'conflict', 'payload_too_large', 'permission_denied']);
/** JSON-RPC errors MCP answers for a malformed call or an unknown tool. */
const RPC_CODES: ReadonlySet<number> = new Set([-32602, -32600, -32700]);

/** What is wrong with one answer, or null: no 5xx, a documented code with its status, a named parameter. */
export function answerProblem(out: Outcome): string | null {
  if (out.status >= 500) return `answered ${out.status}`;
  if (out.ok) return null;
  if (out.code === 'jsonrpc') return RPC_CODES.has(out.rpc!) ? null : `JSON-RPC error ${out.rpc}`;
  if (!EXPECTED.has(out.code)) return `unexpected code ${out.code} (${out.message})`;
  if (ERROR_TABLE[out.code as ErrorCode].status !== out.status) return `${out.code} came with status ${out.status}`;
  if (out.code === 'validation_error' && !(typeof out.details?.param === 'string' && out.details.param)) return `validation_error without details.param: ${out.message}`;
  return null;
}

/** A value short enough to print: long strings cut, deep structures elided. */
export function summarize(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > 60 ? `${value.slice(0, 30)}…(${value.length} chars)` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth > 4) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) return value.length > 10 ? [...value.slice(0, 10).map((v) => summarize(v, depth + 1)), `…(${value.length} items)`] : value.map((v) => summarize(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [summarize(k) as string, summarize(v, depth + 1)]));
}

/**
 * Why these parameters must be refused whatever the tool: a prototype key anywhere (it is never a
 * parameter or a field), a string past the global bound, or a NUL character in a string or key (it
 * is never text). Null when nothing forces a refusal.
 */
export function mustRefuse(params: unknown): string | null {
  const stack = [params];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string' && longerThan(v, LIMITS.stringMaxLength)) return `a ${characterCount(v)}-character string`;
    if (typeof v === 'string' && v.includes('\0')) return 'a NUL character';
    if (v === null || typeof v !== 'object') continue;
    for (const [k, child] of Object.entries(v)) {
      if (PROTOTYPE_KEYS.has(k)) return `the key ${k}`;
      if (k.length > LIMITS.keyMaxLength) return `a ${k.length}-character key`;
      if (k.includes('\0')) return 'a NUL character in a key';
      stack.push(child);
    }
  }
  return null;
}
