import type { DocumentNode } from 'graphql';
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
      if (run) setExecuteFn((a) => run.query(a.rootValue, a.contextValue, a.variableValues ?? {}));
      // Whichever executor ran it, the operation's per-call caches go with it (releaseContext).
      return { onExecuteDone: () => releaseContext(args.contextValue) };
    },
  };
}
