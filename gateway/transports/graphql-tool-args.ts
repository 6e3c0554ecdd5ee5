import {
  getArgumentValues, getDirectiveValues, getOperationAST, getVariableValues, GraphQLError, GraphQLIncludeDirective, GraphQLSkipDirective, Kind,
  parse, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLObjectType, type GraphQLSchema,
  type OperationDefinitionNode, type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { z } from 'zod';
import type { Actor } from '../../src/domain/actor.ts';
import { isCrmError, type CrmError } from '../../src/domain/errors.ts';
import { assertToolAccess } from '../../src/graphql/builder.ts';
import type { GraphQLContext } from '../../src/graphql/context.ts';
import { CATALOG, type ToolDefinition } from '../tools/index.ts';
import { zodToCrmError } from '../tools/zod-errors.ts';

/**
 * The tool a root field runs, and how the field's arguments name that tool's parameters: every
 * tool's operation is one root field whose arguments are its variables (a test holds the catalog
 * to that), so an argument is the parameter its variable is made from.
 */
interface FieldTool {
  tool: ToolDefinition;
  /** Argument name → the operation variable (the parameter) it takes. */
  variableOf: ReadonlyMap<string, string>;
}

/** Root fields by `Query.<name>` / `Mutation.<name>`, from the catalog's documents. */
export const FIELD_TOOLS: ReadonlyMap<string, FieldTool> = (() => {
  const byField = new Map<string, FieldTool>();
  for (const tool of CATALOG.values()) {
    const operation = parse(tool.operation.document).definitions[0] as OperationDefinitionNode;
    const [root, ...more] = operation.selectionSet.selections;
    if (root?.kind !== Kind.FIELD || more.length) throw new Error(`${tool.name}: a tool's operation selects exactly one root field`);
    const variableOf = new Map<string, string>();
    for (const argument of root.arguments ?? []) {
      if (argument.value.kind !== Kind.VARIABLE) throw new Error(`${tool.name}: ${root.name.value}(${argument.name.value}) must take a variable`);
      variableOf.set(argument.name.value, argument.value.name.value);
    }
    const key = `${operation.operation === 'query' ? 'Query' : 'Mutation'}.${root.name.value}`;
    if (byField.has(key)) throw new Error(`${tool.name}: ${key} is already the operation of ${byField.get(key)!.tool.name}`);
    byField.set(key, { tool, variableOf });
  }
  return byField;
})();

/**
 * The parameters a tool call would have sent for these field arguments: each argument under its
 * variable's name, read back through the tool's `params` where its variables are not its
 * parameters as they are. A null argument is GraphQL's way of leaving it out where the tool's
 * parameter takes no null, and is left out here too (the resolvers read it so).
 */
export function toolParams(field: FieldTool, args: Record<string, unknown>): Record<string, unknown> {
  const shape = (field.tool.input as unknown as { shape: Record<string, z.ZodType> }).shape;
  const variables: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    const variable = field.variableOf.get(name) ?? name;
    if (value === null && !(shape[variable]?.safeParse(null).success ?? false)) continue;
    variables[variable] = value;
  }
  return field.tool.operation.params ? field.tool.operation.params(variables) : variables;
}

/** A root field the operation runs: the field, its node, and the tool behind it. */
interface RootField {
  key: string;
  node: FieldNode;
  definition: GraphQLField<unknown, unknown>;
  tool: FieldTool;
}

const rootFieldsOf = new WeakMap<DocumentNode, Map<string, RootField[] | null>>();

/**
 * Checks the arguments of every root field of an operation against its tool's input schema,
 * before anything runs, as every call style checks a tool call's parameters: so `/graphql`
 * refuses what REST, the bridge and MCP refuse, with the same message and details (plus `field`,
 * the root field's response key), and an operation with one bad field runs none of them. Throws
 * a GraphQLError coded validation_error with HTTP 400. Returns without a verdict where the variables do not fit
 * their types or the operation is not there: execution reports those precisely. Fields no tool
 * runs (workspace settings) keep the domain's checks alone.
 */
export function checkToolArguments(
  schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>, actor: Actor,
): void {
  const operation = getOperationAST(document, operationName);
  if (!operation) return;
  const fields = rootFields(schema, document, operation, operationName);
  if (!fields?.length) return;
  let coerced: Record<string, unknown> = {};
  if (operation.variableDefinitions?.length) {
    const result = getVariableValues(schema, operation.variableDefinitions, variables, { maxErrors: 1 });
    if (result.errors) return;
    coerced = result.coerced;
  }
  for (const field of fields) {
    let args: Record<string, unknown>;
    try {
      if (!included(field.node, coerced)) continue;
      args = getArgumentValues(field.definition, field.node, coerced);
    } catch {
      return; // a required argument left null and the like: execution says so.
    }
    const { tool } = field.tool;
    // A field the key may not call is refused when it runs, by the field's own scope check, as
    // now; its arguments are not looked at, so the key learns nothing about what it takes.
    if (!mayCall(actor, tool)) continue;
    const params = toolParams(field.tool, args);
    const parsed = tool.input.safeParse(params);
    if (!parsed.success) throw refusal(zodToCrmError(parsed.error, params, tool.input, tool.name), field);
  }
}

function mayCall(actor: Actor, tool: ToolDefinition): boolean {
  try {
    assertToolAccess(actor, tool.scope);
    return true;
  } catch {
    return false;
  }
}

/** A root field's @skip / @include, read with the operation's variables. */
function included(node: FieldNode, variables: Record<string, unknown>): boolean {
  if (!node.directives?.length) return true;
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

/** A refusal as /graphql answers it: the error's code, details naming the field, and its HTTP status. */
function refusal(error: unknown, field: RootField): unknown {
  if (!isCrmError(error)) return error;
  const crm = error as CrmError;
  return new GraphQLError(crm.message, {
    nodes: field.node,
    extensions: { code: crm.code, details: { ...(crm.details ?? {}), field: field.key }, http: { status: crm.status } },
  });
}

/**
 * The root fields an operation selects (through fragments too), with the tool each runs; null
 * when a selection names no field of the root type (validation refuses such a document first).
 */
function rootFields(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, operationName: string | undefined): RootField[] | null {
  let byName = rootFieldsOf.get(document);
  if (!byName) rootFieldsOf.set(document, (byName = new Map()));
  const name = operationName ?? '';
  let fields = byName.get(name);
  if (fields !== undefined) return fields;
  const type = operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : null;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  fields = type ? collect(type, operation.selectionSet, fragments, new Set()) : null;
  byName.set(name, fields);
  return fields;
}

function collect(type: GraphQLObjectType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, entered: Set<string>): RootField[] | null {
  const fields: RootField[] = [];
  for (const s of set.selections) {
    let inner: RootField[] | null = [];
    if (s.kind === Kind.FIELD) {
      if (s.name.value.startsWith('__')) continue;
      const definition = type.getFields()[s.name.value];
      if (!definition) return null;
      const tool = FIELD_TOOLS.get(`${type.name}.${s.name.value}`);
      if (tool) fields.push({ key: s.alias?.value ?? s.name.value, node: s, definition, tool });
      continue;
    }
    if (s.kind === Kind.INLINE_FRAGMENT) {
      inner = collect(type, s.selectionSet, fragments, entered);
    } else if (!entered.has(s.name.value)) {
      entered.add(s.name.value);
      const fragment = fragments.get(s.name.value);
      inner = fragment ? collect(type, fragment.selectionSet, fragments, entered) : null;
    }
    if (!inner) return null;
    fields.push(...inner);
  }
  return fields;
}

/** Runs checkToolArguments on every operation yoga executes, with the caller's actor. */
export function toolArgumentsPlugin(): Plugin {
  return {
    onExecute({ args }) {
      const context = args.contextValue as Partial<GraphQLContext>;
      if (!context.actor) return;
      checkToolArguments(args.schema, args.document, args.operationName ?? undefined, (args.variableValues ?? {}) as Record<string, unknown>, context.actor);
    },
  };
}
