/**
 * How many calls a /graphql operation makes for the rate limiter: one per root field, as each
 * root field is one tool's operation (every tool runs exactly one) and runs as one call would,
 * so thirty aliased `createRecord` fields cost what thirty `records.create` calls cost over
 * REST. Introspection fields (`__typename`, `__schema`, `__type`) make no call; an operation
 * with none of its own costs the one call its request costs. Fields reached through fragments
 * count, and so do fields a @skip or @include leaves out (the count is read once per document,
 * before variables), so the count never falls short of what runs.
 */
import { Kind, getOperationAST, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from 'koa';
import { meterCalls, type RateLimitedError } from '../ratelimit/index.ts';

const counted = new WeakMap<DocumentNode, Map<string, number>>();

/** The calls of the operation `operationName` names in `document` (at least 1). */
export function operationCalls(document: DocumentNode, operationName: string | undefined): number {
  let byName = counted.get(document);
  if (!byName) counted.set(document, (byName = new Map()));
  let calls = byName.get(operationName ?? '');
  if (calls === undefined) {
    const operation = getOperationAST(document, operationName);
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const keys = new Set<string>();
    if (operation) collect(operation.selectionSet, fragments, keys, new Set());
    calls = Math.max(1, keys.size);
    byName.set(operationName ?? '', calls);
  }
  return calls;
}

/**
 * The root fields' response keys: fields of one key are merged into one resolver call. A
 * fragment is entered once (validation refuses cycles; this walk does not depend on it).
 */
function collect(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, keys: Set<string>, entered: Set<string>): void {
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      if (!s.name.value.startsWith('__')) keys.add(s.alias?.value ?? s.name.value);
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      collect(s.selectionSet, fragments, keys, entered);
    } else if (!entered.has(s.name.value)) {
      entered.add(s.name.value);
      const fragment = fragments.get(s.name.value);
      if (fragment) collect(fragment.selectionSet, fragments, keys, entered);
    }
  }
}

/**
 * Counts an operation's calls past the first (its request's) before it runs, all or none: an
 * operation runs whole, so one the key cannot afford is refused whole (429 `rate_limited`) and
 * costs only its request's call. Returns the refusal, if any, for the caller to throw or render.
 */
export async function meterOperation(ctx: Context, document: DocumentNode, operationName: string | undefined): Promise<RateLimitedError | undefined> {
  return (await meterCalls(ctx, operationCalls(document, operationName), { partial: false })).refusal;
}

/** What the yoga leg finds in its context to meter an operation with (graphql.ts passes it in). */
export interface OperationMeter {
  meterOperation?: (document: DocumentNode, operationName: string | undefined) => Promise<RateLimitedError | undefined>;
}

/**
 * Meters the operation yoga is about to run, after the bounds have passed it (so an operation
 * refused for its size is not counted), and refuses it with the rate_limited error when the key
 * cannot afford its calls.
 */
export function callMeterPlugin(): Plugin {
  return {
    async onExecute({ args }) {
      const meter = (args.contextValue as OperationMeter).meterOperation;
      const refusal = meter && (await meter(args.document, args.operationName ?? undefined));
      if (refusal) throw refusal;
    },
  };
}
