import type { Context } from 'koa';
import { getOperationAST, GraphQLError, type DocumentNode, type ExecutionResult } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { createGraphQLError, processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import { actorOf } from '../../src/domain/actor.ts';
import { LIMITS } from '../../src/domain/limits.ts';
import { compileOperation } from '../../src/graphql/execute.ts';
import { releaseContext, type GraphQLContext } from '../../src/graphql/context.ts';
import { schema } from '../../src/graphql/schema.ts';
import { sendJson } from '../body.ts';
import type { Principal } from '../tools/invoke.ts';
import { metrics } from '../metrics.ts';
import { runCompiled } from './graphql-jit.ts';
import { boundedOperationCost } from './graphql-limits.ts';
import { meterOperation, operationCalls } from './graphql-calls.ts';
import { checkToolArguments } from './graphql-tool-args.ts';

/** A document yoga parsed and validated (with the operation bounds) and graphql-jit compiled. */
interface Ready {
  document: DocumentNode;
  compiled: CompiledQuery;
}

/** Documents longer than this always go through yoga; so do those past the cache. */
const SOURCE_MAX = 8192;
const READY_MAX = 256;
const JSON_UTF8 = 'application/json; charset=utf-8';

const answered = metrics.counter('crm_graphql_direct_total', 'GraphQL POSTs answered without yoga (the plain JSON case; graphql-direct.ts).');

let enabled = true;
/** Sends every request through yoga (false) or lets the direct path take its share (true): tests compare the two answers. */
export function useDirectGraphQL(on: boolean): void {
  enabled = on;
}

/**
 * The plain case of `/graphql` without yoga's Fetch layer: a JSON POST of a known-good query or
 * mutation, asking for JSON, from no browser origin. Yoga's per-request cost (Request/Response
 * objects, plugin chain, parse and validation cache lookups, the cost walk) was most of a cheap
 * call's time. A document is judged once, by yoga's own parse and validate (so the token,
 * depth, alias and directive bounds are yoga's), then compiled; the cost bound is checked per
 * call. Anything else, or anything in doubt before execution starts (a parse or validation
 * error, a cost past the bound, bad variables), is left to yoga, which answers it as before.
 * After execution starts the answer is built here with yoga's own result processor and the same
 * error masking, so a mutation never runs twice.
 */
export function directGraphQL<S extends object>(
  yoga: YogaServerInstance<S, GraphQLContext>,
  contextFor: (principal: Principal, calls: number) => GraphQLContext,
  maskError: (error: unknown) => Error,
) {
  const ready = new Map<string, Ready | null>();

  /** Yoga's verdict on a document and operation, compiled when good; null where yoga must answer. */
  function judge(source: string, operationName: string | undefined): Ready | null {
    // Parse and validate need no request: the plugins that bound them read only the document.
    const enveloped = yoga.getEnveloped({} as never);
    let document: DocumentNode;
    try {
      document = enveloped.parse(source);
      if (enveloped.validate(enveloped.schema, document).length) return null;
    } catch {
      return null;
    }
    const operation = getOperationAST(document, operationName);
    if (!operation || operation.operation === 'subscription') return null;
    const compiled = compileOperation(schema, document, operationName);
    return compiled && { document, compiled };
  }

  function lookup(source: string, operationName: string | undefined): Ready | null {
    const key = `${operationName ?? ''}\n${source}`;
    let entry = ready.get(key);
    if (entry === undefined) {
      entry = judge(source, operationName);
      if (ready.size >= READY_MAX) ready.delete(ready.keys().next().value!);
    } else {
      ready.delete(key); // most recently used goes last
    }
    ready.set(key, entry);
    return entry;
  }

  /**
   * Answers the request and returns true, or returns false for yoga to answer it, without side
   * effects but the RateLimit fields of an operation the key could not afford (nothing recorded).
   */
  return async function answer(ctx: Context, body: unknown): Promise<boolean> {
    if (!enabled || !plainJsonExchange(ctx) || !isPlainBody(body)) return false;
    const { query, variables, operationName } = body as { query: string; variables?: Record<string, unknown> | null; operationName?: string | null };
    if (query.length > SOURCE_MAX) return false;
    const entry = lookup(query, operationName ?? undefined);
    if (!entry) return false;
    try {
      const cost = boundedOperationCost(schema, entry.document, variables ?? {}, operationName ?? undefined);
      if (cost > LIMITS.graphql.maxCost) return false;
    } catch {
      return false;
    }
    // Refused, it records nothing past its request's call: yoga meters it again and answers the 429.
    if (await meterOperation(ctx, entry.document, operationName ?? undefined)) return false;

    let result: ExecutionResult;
    try {
      // Arguments a tool call would refuse: the operation is answered with the refusal, none of it run (as toolArgumentsPlugin does on yoga's path).
      const tool = await checkToolArguments(schema, entry.document, operationName ?? undefined, variables ?? {}, actorOf(ctx.state.principal as Principal, 'graphql', null));
      const context = contextFor(ctx.state.principal as Principal, operationCalls(entry.document, operationName ?? undefined));
      context.actor.tool = tool;
      try {
        result = await runCompiled(entry.compiled, schema, entry.document, operationName ?? undefined, undefined, context, variables ?? {});
      } finally {
        releaseContext(context);
      }
    } catch (error) {
      // As yoga answers an executor that throws: the masked error alone.
      const masked = maskError(error);
      result = { errors: [masked instanceof GraphQLError ? masked : createGraphQLError(masked.message, { originalError: masked })] };
    }
    answered.inc();
    ctx.set('Content-Type', JSON_UTF8);
    if (!result.errors?.length && !result.extensions) {
      ctx.status = 200;
      sendJson(ctx, JSON.stringify(result));
      return true;
    }
    const errors = result.errors?.map(maskError) as GraphQLError[] | undefined;
    const response = await processRegularResult({ ...result, ...(errors ? { errors } : {}) }, yoga.fetchAPI, 'application/json');
    ctx.status = response.status;
    response.headers.forEach((value, name) => ctx.set(name, value));
    ctx.body = await response.text();
    return true;
  };
}

/**
 * A request yoga would parse as JSON and answer as application/json with no CORS headers: JSON
 * content type (its first listed value, as yoga reads it), an Accept of nothing, any, or JSON
 * alone, and no Origin.
 */
function plainJsonExchange(ctx: Context): boolean {
  const type = (ctx.get('Content-Type').split(',')[0] ?? '');
  if (type !== 'application/json' && !type.startsWith('application/json;')) return false;
  const accept = ctx.get('Accept').replace(/\s/g, '').toLowerCase();
  if (accept !== '' && accept !== '*/*' && accept !== 'application/json') return false;
  return ctx.req.headers.origin === undefined;
}

/** `{ query, variables?, operationName? }` with the types yoga requires; anything else is yoga's to refuse. */
function isPlainBody(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'query') {
      if (typeof value !== 'string') return false;
    } else if (key === 'variables') {
      if (value !== null && (typeof value !== 'object' || Array.isArray(value))) return false;
    } else if (key === 'operationName') {
      if (value !== null && typeof value !== 'string') return false;
    } else {
      return false;
    }
  }
  return typeof (body as { query?: unknown }).query === 'string';
}
