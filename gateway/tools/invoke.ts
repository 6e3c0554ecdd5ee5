import { actorOf, type Actor } from '../../src/domain/actor.ts';
import { CrmError } from '../../src/domain/errors.ts';
import { LIMITS } from '../../src/domain/limits.ts';
import { nearest } from '../../src/domain/suggest.ts';
import type { CallStyle } from '../../src/domain/types.ts';
import { assertToolAccess } from '../../src/graphql/builder.ts';
import { createContext } from '../../src/graphql/context.ts';
import { runOperation } from '../../src/graphql/execute.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { guardParams } from './guard.ts';
import { checkIdempotencyKey, once } from './idempotency.ts';
import { CATALOG, type ToolDefinition } from './index.ts';
import { zodToCrmError } from './zod-errors.ts';

/** The caller as resolved from an API key, before a call style and tool are known. */
export type Principal = Omit<Actor, 'via' | 'tool'>;

/** The catalog entry for a name, or tool_not_found naming the nearest tool. */
export function findTool(name: unknown): ToolDefinition {
  if (typeof name === 'string' && name.length > LIMITS.toolNameMaxLength) {
    throw new CrmError('validation_error', `tool: a tool name has at most ${LIMITS.toolNameMaxLength} characters, got ${name.length}`, {
      param: 'tool', rule: 'max', max: LIMITS.toolNameMaxLength,
    });
  }
  const tool = typeof name === 'string' ? CATALOG.get(name) : undefined;
  if (tool) return tool;
  const suggestion = typeof name === 'string' ? nearest(name, [...CATALOG.keys()]) : undefined;
  throw new CrmError('tool_not_found', `tool ${JSON.stringify(name)} does not exist${suggestion ? `; did you mean "${suggestion}"?` : ''}`, {
    param: 'tool', ...(suggestion ? { suggestion } : {}),
  });
}

/**
 * The one entry point every call style uses: check that the key's scopes and the workspace's
 * subscription allow the tool (the GraphQL layer's own `tool` check, assertToolAccess, run here
 * first), check the bounds every tool shares (string and key lengths, prototype keys, nesting),
 * validate the parameters with the tool's zod schema, then run its GraphQL operation as the
 * principal. Roles and the workspace are enforced inside the GraphQL layer, which checks the
 * scope and trial again for its own callers. A write with an idempotency key
 * runs at most once per key (idempotency.ts), for every call style alike.
 */
export async function invokeTool(
  store: Store, principal: Principal, via: CallStyle, name: unknown, params: unknown, options: InvokeOptions = {},
): Promise<unknown> {
  const tool = findTool(name);
  // Before anything about the parameters: a key outside the tool's scope, or a workspace past its
  // trial, must not learn what the tool takes from its validation errors.
  assertToolAccess(principal, tool.scope);
  // Reads are idempotent already and ignore the header, a malformed one included.
  const keyed = options.idempotencyKey !== undefined && !tool.annotations.readOnlyHint;
  const idempotencyKey = keyed ? checkIdempotencyKey(options.idempotencyKey!) : undefined;
  // Only a REST body can be null (the bridge refuses `params: null`, MCP `arguments: null`); no body at all is {}.
  // A REST body that is an array, a string, a number or a boolean is named as the body too: REST
  // has no `params` (the bridge's name for them) to point at.
  if (params === null || (via === 'rest' && (typeof params !== 'object' || Array.isArray(params)) && params !== undefined)) {
    const got = params === null ? 'null' : Array.isArray(params) ? 'an array' : `a ${typeof params}`;
    throw new CrmError('validation_error', `the body must be a JSON object of the tool's parameters ({} for none), got ${got}`, { param: 'body', rule: 'type' });
  }
  guardParams(params, tool.name);
  const parsed = tool.input.safeParse(params ?? {});
  if (!parsed.success) throw zodToCrmError(parsed.error, params, tool.input, tool.name);
  const run = async () => {
    const context = createContext(store, actorOf(principal, via, tool.name));
    const { operation } = tool;
    const data = await runOperation(operation.document, operation.variables(parsed.data), context, { plainLeaves: operation.plainLeaves });
    return operation.result(data);
  };
  // A key without an API key id (never over HTTP) has no scope to live in.
  if (idempotencyKey === undefined || !principal.key_id) return run();
  return once(store, { keyId: principal.key_id, key: idempotencyKey, tool: tool.name, params: parsed.data }, run);
}

/** Per-request options every call style passes the same way. */
export interface InvokeOptions {
  /** The `Idempotency-Key` header, when the request carried one. */
  idempotencyKey?: string;
}
