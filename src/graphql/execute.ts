import { execute, GraphQLError, parse, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { CrmError, isCrmError } from '../domain/errors.ts';
import { releaseContext, type GraphQLContext } from './context.ts';
import { schema } from './schema.ts';

export interface Prepared {
  document: DocumentNode;
  /** The document compiled to a function, or null where graphql-jit declined it. */
  compiled: CompiledQuery | null;
}

/**
 * How a catalog operation is compiled. `plainLeaves`: its result's leaves are taken as they are,
 * without the scalar and enum serializers (graphql-jit's disableLeafSerialization; null checks
 * stay). Only for operations whose every leaf the domain builds as the JSON type the schema names
 * (strings, integers, booleans, nulls): a test requires such a tool's answers to equal the
 * standard executor's (test/graphql/plain-leaves.test.ts).
 */
export interface OperationOptions {
  plainLeaves?: boolean;
}

/** By document text, one map per compile option: a key built per call would be hashed per call. */
const prepared = { plain: new Map<string, Prepared>(), serialized: new Map<string, Prepared>() };

/** An operation compiled by graphql-jit, or null where it declines one (the standard executor then runs it). */
export function compileOperation(on: GraphQLSchema, document: DocumentNode, operationName?: string, options: OperationOptions = {}): CompiledQuery | null {
  const result = compileQuery(on, document, operationName, options.plainLeaves ? { disableLeafSerialization: true } : {});
  return isCompiledQuery(result) ? result : null;
}

/** Parses, validates and compiles an operation once per process; tool documents are fixed strings. */
export function prepare(source: string, options: OperationOptions = {}): Prepared {
  const kept = options.plainLeaves ? prepared.plain : prepared.serialized;
  let entry = kept.get(source);
  if (!entry) {
    const document = parse(source);
    const errors = validate(schema, document);
    if (errors.length) throw new Error(`invalid operation: ${errors.map((e) => e.message).join('; ')}`);
    entry = { document, compiled: compileOperation(schema, document, undefined, options) };
    kept.set(source, entry);
  }
  return entry;
}

/**
 * Runs one operation in-process and returns its data, or throws the first error as a CrmError
 * (the code a resolver threw, or internal_error for anything unexpected). The catalog's documents
 * are fixed, so each is compiled once (graphql-jit) and then runs as a plain function instead of
 * being interpreted field by field per call; /graphql, whose documents come from callers, keeps
 * the standard executor.
 */
export async function runOperation(
  source: string,
  variables: Record<string, unknown>,
  context: GraphQLContext,
  options: OperationOptions = {},
): Promise<Record<string, unknown>> {
  const { document, compiled } = prepare(source, options);
  let result: ExecutionResult;
  try {
    result = (await (compiled
      ? compiled.query(undefined, context, variables)
      : execute({ schema, document, variableValues: variables, contextValue: context }))) as ExecutionResult;
  } finally {
    releaseContext(context);
  }
  if (result.errors?.length) throw toCrmError(result.errors[0]!);
  return (result.data ?? {}) as Record<string, unknown>;
}

/** The CrmError behind a GraphQL error; variable coercion failures are validation errors. */
export function toCrmError(error: GraphQLError): CrmError {
  const original = error.originalError;
  if (isCrmError(original)) return original;
  if (original && !(original instanceof GraphQLError)) {
    return new CrmError('internal_error', 'internal error', undefined, { cause: original });
  }
  const variable = /Variable "\$(\w+)"/.exec(error.message)?.[1];
  return new CrmError('validation_error', error.message, variable ? { param: variable } : {});
}
