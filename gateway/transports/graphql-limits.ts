import { maxAliasesPlugin, maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin, maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin, maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import {
  getOperationAST, getVariableValues, GraphQLError, valueFromASTUntyped, visit, type ASTVisitor, type DocumentNode, type GraphQLSchema,
  type ValidationContext, type ValidationRule, type ValueNode,
} from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import type { Plugin } from 'graphql-yoga';
import { isCrmError } from '../../src/domain/errors.ts';
import { LIMITS } from '../../src/domain/limits.ts';
import { guardParams } from '../tools/guard.ts';
import { graphFieldEstimator } from './graphql-graph-cost.ts';

const G = LIMITS.graphql;

/** The extensions every bound's error carries: the service's code and HTTP 400 (fresh each time: yoga consumes `http`). */
const invalid = () => ({ code: 'validation_error', http: { status: 400 } });

/** Whether an error is one of the bounds below refusing an operation. */
export function isBoundError(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError && error.extensions?.code === 'validation_error' && !error.originalError;
}

/** graphql-armor reports through this: the limit error gets our code and status. */
const tagged = {
  exposeLimits: true,
  onReject: [(_context: unknown, error: GraphQLError) => { Object.assign(error.extensions, invalid()); }],
};

/**
 * A field's selection counts once per item it can return: `page_size` (paged lists) or `limit`
 * (graph walks and other capped lists), else once. So five aliases of `records(page_size: 100)`
 * cost five hundred times their item selection, which is what the server would build.
 */
export const listSizeEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  const size = typeof args.page_size === 'number' ? args.page_size
    : typeof args.limit === 'number' ? args.limit
      : 'page_size' in args ? LIMITS.pageSizeDefault : 1;
  return 1 + childComplexity * Math.max(1, size);
};

/**
 * The cost of an operation with its variables, by the rule above and the graph fields'
 * (graphql-graph-cost.ts). The variables are checked first, and the check stops at the first bad
 * one: graphql-query-complexity coerces them with no bound on the errors it collects, so 1,700
 * bad list items cost 3,400 errors before the walk gave up (0.8 s on a machine at a fifth of its
 * usual speed, and the walk ran twice: once on the direct path, once in yoga's plugin).
 */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>, operationName?: string): number {
  const operation = getOperationAST(document, operationName);
  if (operation?.variableDefinitions?.length) {
    const { errors } = getVariableValues(schema, operation.variableDefinitions, variables, { maxErrors: 1 });
    if (errors) throw errors[0];
  }
  return getComplexity({
    schema, query: document, variables, operationName, estimators: [graphFieldEstimator, listSizeEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
}

/** Costs at most this long a key (the operation name and the values that can change it) are remembered. */
const COST_KEY_MAX = 256;
/** Remembered costs per document (one per operation name and such values); past this the set starts over. */
const COSTS_PER_DOCUMENT = 32;

const costs = new WeakMap<DocumentNode, Map<string, number>>();
const costInputs = new WeakMap<DocumentNode, Map<string, string[] | null>>();

/**
 * The arguments whose values the estimators read (listSizeEstimator and graph-cost's fields), by
 * name; a test holds the estimators to it (they read no other).
 */
export const COST_ARGUMENTS: ReadonlySet<string> = new Set(['page_size', 'limit', 'depth', 'max_depth', 'record_ids']);

/** Directives whose arguments decide whether a field counts at all. */
const CONDITIONS: ReadonlySet<string> = new Set(['skip', 'include']);

/**
 * The variables whose values can change an operation's cost: those inside the value of a field
 * argument COST_ARGUMENTS names or of a @skip/@include condition, anywhere in the document
 * (fragments included), sorted; null when there is no such operation. A record's `data`, a list's
 * `filters` or a batch's `entries` differ from call to call and would otherwise make every call's
 * key new, and walk the cost again.
 */
function costVariables(document: DocumentNode, operationName: string | undefined): string[] | null {
  let byName = costInputs.get(document);
  if (!byName) costInputs.set(document, (byName = new Map()));
  let names = byName.get(operationName ?? '');
  if (names === undefined) {
    names = getOperationAST(document, operationName) ? readVariables(document) : null;
    if (byName.size >= COSTS_PER_DOCUMENT) byName.clear();
    byName.set(operationName ?? '', names);
  }
  return names;
}

function readVariables(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (value: ValueNode) => visit(value, { Variable: (variable) => { names.add(variable.name.value); } });
  visit(document, {
    Field: (field) => field.arguments?.forEach((arg) => COST_ARGUMENTS.has(arg.name.value) && collect(arg.value)),
    Directive: (directive) => CONDITIONS.has(directive.name.value) && directive.arguments?.forEach((arg) => collect(arg.value)),
  });
  return [...names].sort();
}

/**
 * `operationCost`, remembered per document while it is within the bound. The estimators read
 * only the arguments COST_ARGUMENTS names (and @skip/@include), so the cost is a function of the
 * document, the operation name and the values of the variables in those (costVariables); those
 * make the key. A cost past the bound is not remembered: a later call with bad variables must
 * still reach execution, which reports them precisely.
 */
export function boundedOperationCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>, operationName?: string): number {
  const names = costVariables(document, operationName);
  // Absent and null differ (an absent size argument takes its default): [] against [null].
  const key = names && `${operationName ?? ''}\n${JSON.stringify(names.map((n) => (Object.hasOwn(variables, n) ? [variables[n]] : [])))}`;
  const known = key && key.length <= COST_KEY_MAX ? costs.get(document)?.get(key) : undefined;
  if (known !== undefined) return known;
  const cost = operationCost(schema, document, variables, operationName);
  if (key && key.length <= COST_KEY_MAX && cost <= G.maxCost) {
    let byKey = costs.get(document);
    if (!byKey) costs.set(document, (byKey = new Map()));
    if (byKey.size >= COSTS_PER_DOCUMENT) byKey.clear();
    byKey.set(key, cost);
  }
  return cost;
}

/** The validation rules of the depth, alias and directive bounds, for checking fixed documents. */
export function limitRules(): ValidationRule[] {
  return [
    maxDepthRule({ n: G.maxDepth, ...tagged }),
    maxAliasesRule({ n: G.maxAliases, ...tagged }),
    maxDirectivesRule({ n: G.maxDirectives, ...tagged }),
  ] as unknown as ValidationRule[];
}

/**
 * The bounds every tool's parameters get (string and key lengths, NUL and lone surrogates,
 * prototype keys, nesting), applied to the literals written in the document itself, as they are
 * to its variables: an argument such as `createNote(title: "a\u0000b")` or a JSON literal with a
 * `constructor` key or forty levels of nesting was stored as written, past every bound the tool
 * call styles enforce. Each argument is checked as a parameter of its name.
 */
function literalBoundsRule(context: ValidationContext): ASTVisitor {
  return {
    Argument(node) {
      try {
        guardParams({ [node.name.value]: valueFromASTUntyped(node.value) }, 'this operation');
      } catch (error) {
        if (!isCrmError(error)) throw error;
        context.reportError(new GraphQLError(error.message, { nodes: node, extensions: { ...invalid(), details: error.details } }));
      }
      return false;
    },
  };
}

/** Adds literalBoundsRule to validation (yoga's path and the direct one, which validates through envelop). */
function literalBoundsPlugin(): Plugin {
  return { onValidate: ({ addValidationRule }) => addValidationRule(literalBoundsRule) };
}

/** Refuses an operation whose cost, computed with its variables, is past `LIMITS.graphql.maxCost`. */
function costLimitPlugin(): Plugin {
  return {
    onExecute({ args }) {
      let cost: number;
      try {
        cost = boundedOperationCost(args.schema, args.document, (args.variableValues ?? {}) as Record<string, unknown>, args.operationName ?? undefined);
      } catch {
        return; // bad variables or operation name: execution reports them precisely.
      }
      if (cost > G.maxCost) {
        throw new GraphQLError(`Query cost limit of ${G.maxCost} exceeded, found ${cost}: ask for fewer items (page_size, limit) or fewer fields`, {
          extensions: { ...invalid(), rule: 'max_cost', max: G.maxCost },
        });
      }
    },
  };
}

/**
 * The yoga plugins that bound one `/graphql` operation: tokens (while parsing, so a huge
 * document stops early), depth, aliases, directives, and a cost that counts list sizes. Each
 * refusal is a 400 with `extensions.code` = `validation_error`.
 */
export function graphqlLimitPlugins(): Plugin[] {
  return [
    maxTokensPlugin({ n: G.maxTokens, ...tagged }),
    maxDepthPlugin({ n: G.maxDepth, ...tagged }),
    maxAliasesPlugin({ n: G.maxAliases, ...tagged }),
    maxDirectivesPlugin({ n: G.maxDirectives, ...tagged }),
    literalBoundsPlugin(),
    costLimitPlugin(),
  ] as Plugin[];
}
