import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GraphQLError } from 'graphql';
import { actorOf } from '../../src/domain/actor.ts';
import { CrmError, isCrmError } from '../../src/domain/errors.ts';
import { createContext, type GraphQLContext } from '../../src/graphql/context.ts';
import { schema } from '../../src/graphql/schema.ts';
import type { GatewayDeps } from '../state.ts';
import type { Principal } from '../tools/invoke.ts';
import { readBodyBytes, UnsupportedMediaType, utf8Text } from '../body.ts';
import { guardParams } from '../tools/guard.ts';
import { IDEMPOTENCY_HEADER, idempotencyHeader } from '../tools/idempotency.ts';
import { directGraphQL } from './graphql-direct.ts';
import { compiledExecutionPlugin } from './graphql-jit.ts';
import { graphqlLimitPlugins, isBoundError } from './graphql-limits.ts';
import { callMeterPlugin, meterOperation, operationCalls, type OperationMeter } from './graphql-calls.ts';
import { countCall } from '../../src/domain/comms/usage.ts';
import { toolArgumentsPlugin } from './graphql-tool-args.ts';
import { RateLimitedError } from '../ratelimit/index.ts';
import { edge } from './rest.ts';

/**
 * How graphql-js and graphql-jit both begin the error for a variable whose value does not fit its
 * type, and the error graphql-js ends a long list of those with (graphql-jit-compiled operations
 * answer bad variables with graphql-js's errors too: graphql-jit.ts, runCompiled).
 */
const VARIABLE_ERROR = /^(Variable "\$\w+" got invalid value|Too many errors processing variables, error limit reached)/;

interface ServerContext extends OperationMeter {
  principal: Principal;
}

/**
 * The GraphQL API for internal teams at /graphql, behind the same bearer auth and rate limit as
 * the tools. Errors carry the service's code in `extensions.code`; unexpected ones are masked.
 */
export function mountGraphQL(router: Router, deps: GatewayDeps, authenticate: Middleware): void {
  // Billed per root field, as metered: the direct path knows them when it makes the context; yoga
  // makes its context before parsing, so there they are counted once the operation is metered.
  const contextFor = (principal: Principal, calls: number): GraphQLContext =>
    createContext(deps.store, actorOf(principal, 'graphql', null), deps.config.keyPrefix, calls);
  const maskError = (error: unknown): Error => {
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (isCrmError(original)) {
      return new GraphQLError(original.message, {
        ...(error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {}),
        extensions: {
          code: original.code, ...(original.details ? { details: original.details } : {}),
          // An operation refused before it ran for the key's rate limit: 429 with Retry-After, as every call style answers.
          ...(original instanceof RateLimitedError ? { http: { status: original.status, headers: original.headers } } : {}),
        },
      });
    }
    // Our operation bounds: a 400 whatever the Accept header (yoga answers parse errors with 200
    // to application/json clients, as the GraphQL-over-HTTP spec allows).
    if (isBoundError(error)) return new GraphQLError(error.message, { extensions: { ...error.extensions, http: { status: 400 } } });
    // A variable that fails its scalar's coercion (an Int past 32 bits, a string for a number):
    // the caller's input, not our fault. The standard executor wraps the scalar's own
    // GraphQLError; the compiled one reports it bare, named by the variable.
    if (error instanceof GraphQLError && !error.path && (original instanceof GraphQLError || (!original && VARIABLE_ERROR.test(error.message)))) {
      return new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'validation_error', details: { param: 'variables' }, http: { status: 400 } } });
    }
    // GraphQL's own refusals (syntax, validation against the schema, a body that is no request):
    // the caller's mistake, told with the error table's code like every other (yoga's own code,
    // GRAPHQL_PARSE_FAILED and the like, kept beside it in details).
    if (error instanceof GraphQLError && !error.originalError) return callerError(error);
    deps.logger.error('internal error in /graphql', { error: String((original as Error | undefined)?.stack ?? error) });
    return new GraphQLError('internal error; the incident was logged', { extensions: { code: 'internal_error' } });
  };
  const yoga: YogaServerInstance<ServerContext, GraphQLContext> = createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    plugins: [...graphqlLimitPlugins(), callMeterPlugin(), toolArgumentsPlugin(), compiledExecutionPlugin(), validationCodePlugin()],
    logging: false,
    // The page carries GraphiQL inline: nothing is fetched from outside, so it works offline.
    renderGraphiQL,
    graphiql: { title: 'CRM GraphQL', headers: JSON.stringify({ Authorization: 'Bearer <API_KEY>' }) },
    context: ({ principal }) => {
      if (!principal) throw new CrmError('unauthorized', 'missing API key: send the header "Authorization: Bearer <API_KEY>"');
      return contextFor(principal, 0);
    },
    maskedErrors: { maskError },
  });
  const direct = directGraphQL(yoga, contextFor, maskError);

  const handle: Middleware = async (ctx) => {
    // Replays are kept per tool call; a GraphQL operation may hold many. Ignored, a retried
    // mutation would silently write twice, which the header exists to prevent.
    if (idempotencyHeader(ctx.headers) !== undefined) {
      throw new CrmError('validation_error', `${IDEMPOTENCY_HEADER} is not taken on /graphql: an operation is not replayed; send writes that must not repeat as tool calls (REST, the bridge or MCP)`, {
        param: IDEMPOTENCY_HEADER, rule: 'unsupported',
      });
    }
    // Yoga would read up to 25 MB; read the body here under the gateway's limit and hand it over
    // (yoga takes a Buffer on `req.body` in place of the stream).
    if (ctx.method === 'POST') {
      const bytes = await readBodyBytes(ctx.req, deps.config.bodyLimitBytes, mediaTypeRefusal(ctx.get('Content-Type')));
      if (bytes.length > 0) (ctx.req as { body?: Buffer }).body = bytes;
      const body = jsonOf(utf8Text(bytes));
      if (refuseVariables(ctx, variablesOf(body))) return;
      if (await direct(ctx, body)) return;
    } else {
      // An operation sent over GET carries its variables (and extensions) in the query string:
      // each must be a JSON object, which yoga parses with no answer of its own for bad JSON (an
      // internal error, as HTTP 200), and the variables get the same bounds.
      for (const name of ['variables', 'extensions'] as const) {
        const raw = ctx.query[name];
        if (raw === undefined) continue;
        const parsed = typeof raw === 'string' ? jsonOf(raw) : undefined;
        if (parsed === null || (typeof parsed === 'object' && !Array.isArray(parsed))) continue;
        refuse(ctx, new CrmError('validation_error', `${name} must be one JSON object in the query string, got ${typeof raw === 'string' ? JSON.stringify(raw.slice(0, 40)) : `${raw.length} values`}`, {
          param: name, rule: 'json',
        }));
        return;
      }
      if (typeof ctx.query.variables === 'string' && refuseVariables(ctx, jsonOf(ctx.query.variables))) return;
    }
    ctx.respond = false;
    await yoga.handle(ctx.req, ctx.res, {
      principal: ctx.state.principal!,
      meterOperation: async (document, operationName) => {
        const refusal = await meterOperation(ctx, document, operationName);
        if (!refusal) countCall(deps.store, ctx.state.principal!.workspace_id, 'graphql', operationCalls(document, operationName));
        return refusal;
      },
    });
  };
  // One route for every method (as the other paths have), so a wrong method is our 405, not the
  // catch-all 404. GraphiQL (an HTML page, no data) opens without a key; every operation it sends
  // needs one.
  router.all('/graphql', edge('graphql'), async (ctx, next) => {
    if (ctx.method === 'POST') return next();
    if (ctx.method !== 'GET') return refuseMethod(ctx);
    if (ctx.accepts('text/html') === 'text/html' && !ctx.query.query) {
      ctx.respond = false;
      await yoga.handle(ctx.req, ctx.res, {} as ServerContext);
      return;
    }
    return next();
  }, authenticate, handle);
}

/**
 * GraphQL over HTTP takes GET (queries, from the query string) and POST, as yoga does; any other
 * method is a 405 naming both, with the `{error}` body of every other path's 405.
 */
function refuseMethod(ctx: Context): void {
  ctx.status = 405;
  ctx.set('Allow', 'GET, POST');
  ctx.body = { error: `method ${ctx.method} is not allowed on /graphql; use POST (or GET for a query)` };
}

/**
 * The POST bodies /graphql reads: JSON (`application/json`, `application/graphql+json`) and a bare
 * document (`application/graphql`), matched as yoga matches them (the first listed type, exactly).
 * Yoga also parses form and multipart bodies, but their variables would pass by the bounds
 * (guardVariables reads JSON bodies), and any other type it answered with an empty 415.
 */
const POST_TYPES = ['application/json', 'application/graphql+json', 'application/graphql'];

/** The 415 for a POST whose type /graphql does not read (thrown once the body is drained), or null. */
function mediaTypeRefusal(header: string): UnsupportedMediaType | null {
  const type = header.split(',')[0] ?? '';
  if (POST_TYPES.some((t) => type === t || type.startsWith(`${t};`))) return null;
  const got = type ? `got ${JSON.stringify(type.slice(0, 100))}` : 'the request has none';
  return new UnsupportedMediaType(`Content-Type must be application/json for a POST to /graphql; ${got}`, {
    param: 'content-type', rule: 'media_type', allowed: POST_TYPES,
  });
}

/**
 * An operation that fails validation against the schema (an unknown field, a literal of the wrong
 * type) is refused before masking sees it, with yoga's GRAPHQL_VALIDATION_FAILED: coded
 * validation_error here as every other refusal, yoga's code kept as details.graphql_code.
 */
function validationCodePlugin(): Plugin {
  return {
    onValidate: () => ({ valid, result, setResult }) => {
      if (!valid) setResult(result.map((error: unknown) => (error instanceof GraphQLError ? callerError(error) : error)));
    },
  };
}

/** A GraphQL error of the caller's making, coded validation_error (its yoga code, if any, kept as details.graphql_code). */
function callerError(error: GraphQLError): GraphQLError {
  const { code, ...extensions } = (error.extensions ?? {}) as { code?: unknown };
  if (code === 'validation_error') return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes, source: error.source, positions: error.positions, path: error.path,
    extensions: { ...extensions, code: 'validation_error', ...(typeof code === 'string' ? { details: { graphql_code: code } } : {}) },
  });
}

/**
 * The bounds every tool's parameters get (string and key lengths, prototype keys, nesting) apply
 * to an operation's variables too: without them a 400 000-character id reached the resolvers and
 * came back in the error message. A refusal is answered here (true), as a GraphQL response: a 400
 * with the error in `errors[]`, its code and details in `extensions`, as every other refusal of an
 * operation is, so a GraphQL client reads it as one. A body that is not JSON is left to yoga.
 */
function refuseVariables(ctx: Context, variables: unknown): boolean {
  if (variables === undefined) return false;
  try {
    guardParams(variables, 'this operation');
    return false;
  } catch (error) {
    if (!isCrmError(error)) throw error;
    refuse(ctx, error);
    return true;
  }
}

/** Answers a refusal as /graphql answers one, here past the error middleware: the call log and metrics still get its code. */
function refuse(ctx: Context, error: CrmError): void {
  ctx.state.call.code = error.code;
  ctx.status = error.status;
  ctx.body = { errors: [{ message: error.message, extensions: { code: error.code, ...(error.details ? { details: error.details } : {}) } }] };
}

/** A JSON request body; undefined when it is not JSON. */
function jsonOf(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/** The `variables` of a JSON request body; undefined when there are none. */
function variablesOf(body: unknown): unknown {
  return body && typeof body === 'object' ? (body as { variables?: unknown }).variables : undefined;
}
