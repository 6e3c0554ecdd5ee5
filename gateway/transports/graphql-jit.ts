import { getOperationAST, getVariableValues, type DocumentNode, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { releaseContext } from '../../src/graphql/context.ts';
import { compileOperation } from '../../src/graphql/execute.ts';

/**
 * Runs callers' operations compiled (graphql-jit), as the tools run theirs
 * (src/graphql/execute.ts). Yoga's parser cache hands back the same DocumentNode for the same
 * source, so a compiled operation is kept per document and operation name, and is dropped with
 * the document when that cache evicts it. An operation graphql-jit declines runs on the
 * standard executor. Limits are unaffected: they run while validating and before executing.
 */
export function compiledExecutionPlugin(): Plugin {
  const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();
  return {
    onExecute({ args, setExecuteFn }) {
      let byName = compiled.get(args.document);
      if (!byName) compiled.set(args.document, (byName = new Map()));
      const name = args.operationName ?? '';
      let query = byName.get(name);
      if (query === undefined) {
        query = compileOperation(args.schema, args.document, args.operationName ?? undefined);
        byName.set(name, query);
      }
      const run = query;
      if (run) {
        setExecuteFn((a) => runCompiled(run, a.schema, a.document, a.operationName ?? undefined, a.rootValue, a.contextValue, a.variableValues ?? {}));
      }
      // Whichever executor ran it, the operation's per-call caches go with it (releaseContext).
      return { onExecuteDone: () => releaseContext(args.contextValue) };
    },
  };
}

/** How many variable errors the standard executor reports before it gives up (graphql-js `execute`). */
const MAX_VARIABLE_ERRORS = 50;

/** Past this many list items in its variables, an operation's variables are checked before graphql-jit sees them. */
const CHECKED_LIST_ITEMS = 256;

/**
 * Runs a compiled operation, answering variables that do not fit their types as the standard
 * executor does: graphql-js's own errors, at most 50 and then its "Too many errors". graphql-jit
 * checks every value before it gives up and reports each that does not coerce, in its own words:
 * a list of 1,700 bad entries gave 3,400 errors, each then masked and serialised, and stalled the
 * server for seconds. So variables holding many list items are checked by graphql-js first
 * (bounded however bad they are; valid ones are then coerced twice), and when graphql-jit refuses
 * the others (its result then has no `data`: nothing ran), graphql-js says why.
 */
export function runCompiled(
  compiled: CompiledQuery, schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined,
  root: unknown, context: unknown, variables: Record<string, unknown>,
): ExecutionResult | Promise<ExecutionResult> {
  const standard = (): readonly GraphQLError[] | undefined => {
    const operation = getOperationAST(document, operationName);
    return getVariableValues(schema, operation?.variableDefinitions ?? [], variables, { maxErrors: MAX_VARIABLE_ERRORS }).errors;
  };
  if (holdsMoreListItems(variables, CHECKED_LIST_ITEMS)) {
    const errors = standard();
    if (errors) return { errors };
  }
  const answer = (result: ExecutionResult): ExecutionResult => {
    if ('data' in result || !result.errors) return result;
    return { errors: standard() ?? result.errors.slice(0, MAX_VARIABLE_ERRORS) };
  };
  const result = compiled.query(root, context, variables) as ExecutionResult | Promise<ExecutionResult>;
  return isPromise(result) ? result.then(answer) : answer(result);
}

/** Whether arrays in `value` hold more than `bound` items in all (stops counting there). */
function holdsMoreListItems(value: unknown, bound: number): boolean {
  let items = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const next = stack.pop();
    if (next === null || typeof next !== 'object') continue;
    if (Array.isArray(next)) {
      items += next.length;
      if (items > bound) return true;
      for (const item of next) stack.push(item);
    } else {
      for (const item of Object.values(next)) stack.push(item);
    }
  }
  return false;
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as Promise<T> | undefined)?.then === 'function';
}
