import { execute, GraphQLError, parse, validate, type DocumentNode, type ExecutionResult } from 'graphql';
import { CrmError, isCrmError } from '../domain/errors.ts';
import type { GraphQLContext } from './context.ts';
import { schema } from './schema.ts';

const documents = new Map<string, DocumentNode>();

/** Parses and validates an operation once per process; tool documents are fixed strings. */
export function prepare(source: string): DocumentNode {
  let doc = documents.get(source);
  if (!doc) {
    doc = parse(source);
    const errors = validate(schema, doc);
    if (errors.length) throw new Error(`invalid operation: ${errors.map((e) => e.message).join('; ')}`);
    documents.set(source, doc);
  }
  return doc;
}

/**
 * Runs one operation in-process and returns its data, or throws the first error as a CrmError
 * (the code a resolver threw, or internal_error for anything unexpected).
 */
export async function runOperation(
  source: string,
  variables: Record<string, unknown>,
  context: GraphQLContext,
): Promise<Record<string, unknown>> {
  const result = (await execute({ schema, document: prepare(source), variableValues: variables, contextValue: context })) as ExecutionResult;
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
