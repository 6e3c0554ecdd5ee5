import { nextTurn } from '../../src/domain/turns.ts';
import {
  getArgumentValues, getDirectiveValues, getNullableType, getOperationAST, getVariableValues, GraphQLError, GraphQLIncludeDirective,
  GraphQLSkipDirective, isInputObjectType, isListType, Kind, parse, type DocumentNode, type FieldNode, type FragmentDefinitionNode,
  type FragmentSpreadNode, type GraphQLField, type GraphQLInputType, type GraphQLObjectType, type GraphQLSchema, type InlineFragmentNode,
  type OperationDefinitionNode, type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { z } from 'zod';
import type { Actor } from '../../src/domain/actor.ts';
import { CrmError, isCrmError } from '../../src/domain/errors.ts';
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
 * parameters as they are. A null is GraphQL's way of leaving an argument or an input object's
 * field out where the tool's parameter takes no null, and is left out here too, as the resolvers
 * read it; nulls inside a JSON argument are data and stay. `definition` gives the arguments'
 * types; without it (a test) only the top level is read so.
 */
export function toolParams(field: FieldTool, args: Record<string, unknown>, definition?: GraphQLField<unknown, unknown>): Record<string, unknown> {
  const inputObjects = new WeakSet<object>();
  if (definition) for (const arg of definition.args) markInputObjects(args[arg.name], arg.type, inputObjects);
  const variables: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) variables[field.variableOf.get(name) ?? name] = value;
  const params = field.tool.operation.params ? field.tool.operation.params(variables) : variables;
  return withoutNulls(params, field.tool.input, inputObjects, true) as Record<string, unknown>;
}

/** Collects the values of `value` that are GraphQL input objects (not JSON scalars), by identity. */
function markInputObjects(value: unknown, type: GraphQLInputType, into: WeakSet<object>): void {
  if (value === null || typeof value !== 'object') return;
  const t = getNullableType(type);
  if (isListType(t)) {
    if (Array.isArray(value)) for (const item of value) markInputObjects(item, t.ofType, into);
    return;
  }
  if (!isInputObjectType(t)) return;
  into.add(value);
  const fields = t.getFields();
  for (const [key, item] of Object.entries(value)) if (fields[key]) markInputObjects(item, fields[key].type, into);
}

/**
 * A copy of `value` without the nulls of input objects that `schema` takes no null for. The top
 * level (the arguments) is an input object; below it, only objects in `inputObjects` are.
 */
function withoutNulls(value: unknown, schema: z.ZodType | undefined, inputObjects: WeakSet<object>, top = false): unknown {
  if (value === null || typeof value !== 'object' || !schema) return value;
  const def = unwrapped(schema);
  if (Array.isArray(value)) {
    const element = arrayElement(def);
    return element ? value.map((item) => withoutNulls(item, element, inputObjects)) : value;
  }
  if (!top && !inputObjects.has(value)) return value;
  const shape = objectShape(def);
  if (!shape) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null && !(shape[key]?.safeParse(null).success ?? false)) continue;
    out[key] = withoutNulls(item, shape[key], inputObjects);
  }
  return out;
}

type ZodDef = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; options?: z.ZodType[] };
const defOf = (schema: z.ZodType): ZodDef => (schema as unknown as { def: ZodDef }).def;

/** The schema under its optional, nullable, default and pipe wrappers. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let def = defOf(s); ; def = defOf(s)) {
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) return s;
    s = inner;
  }
}

/** The element schema of an array schema, or of the array branch of a union (one value or several). */
function arrayElement(schema: z.ZodType): z.ZodType | undefined {
  const def = defOf(schema);
  if (def.type === 'array') return def.element;
  if (def.type === 'union') for (const option of def.options ?? []) { const e = arrayElement(unwrapped(option)); if (e) return e; }
  return undefined;
}

/** The shape of an object schema; a union of objects gives the keys of all its branches. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  const def = defOf(schema);
  if (def.type === 'object') return (schema as unknown as { shape: Record<string, z.ZodType> }).shape;
  if (def.type !== 'union') return undefined;
  let merged: Record<string, z.ZodType> | undefined;
  for (const option of def.options ?? []) {
    const shape = objectShape(unwrapped(option));
    if (!shape) continue;
    merged ??= {};
    // A key several branches have keeps null if any branch takes it.
    for (const [key, s] of Object.entries(shape)) if (!merged[key] || s.safeParse(null).success) merged[key] = s;
  }
  return merged;
}

/** A root field the operation runs: its response key, its node and definition, and the tool behind it. */
interface RootField {
  key: string;
  node: FieldNode;
  definition: GraphQLField<unknown, unknown>;
  tool: FieldTool;
}

const fragmentsOf = new WeakMap<DocumentNode, Map<string, FragmentDefinitionNode>>();


/**
 * Checks the arguments of every root field of an operation against its tool's input schema,
 * before anything runs, as every call style checks a tool call's parameters: so `/graphql`
 * refuses what REST, the bridge and MCP refuse, with the same message and details (plus
 * `graphql_field`, the root field's response key), and an operation with one bad field runs none
 * of them. Throws a GraphQLError coded validation_error with HTTP 400; arguments GraphQL itself
 * cannot read (null for a required argument) are refused so too. Fields a @skip or @include
 * leaves out (on the field or on a fragment it is in) are not checked, as they do not run.
 * Returns without a verdict where the variables do not fit their types or the operation is not
 * there: execution refuses those whole. Fields no tool runs (workspace settings) keep the
 * domain's checks alone. Each field is checked as one call would be, and other work runs between
 * two fields' checks; fields of the same tool and the same argument values are checked once.
 *
 * Returns the tool's name when exactly one root field runs a tool, else null: the operation is
 * that tool's call, and its timeline events name the tool as a tool call's do.
 */
export async function checkToolArguments(
  schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>, actor: Actor,
): Promise<string | null> {
  const operation = getOperationAST(document, operationName);
  const type = operation?.operation === 'query' ? schema.getQueryType() : operation?.operation === 'mutation' ? schema.getMutationType() : null;
  if (!operation || !type) return null;
  let coerced: Record<string, unknown> = {};
  if (operation.variableDefinitions?.length) {
    const result = getVariableValues(schema, operation.variableDefinitions, variables, { maxErrors: 1 });
    if (result.errors) return null;
    coerced = result.coerced;
  }
  const fields: RootField[] = [];
  if (!collect(type, operation.selectionSet, fragmentsIn(document), coerced, new Set(), fields)) return null;
  const checked: Array<{ tool: ToolDefinition; args: Record<string, unknown> }> = [];
  for (const [i, field] of fields.entries()) {
    const { tool } = field.tool;
    // A field the key may not call is refused when it runs, by the field's own scope check, as
    // now; its arguments are not looked at, so the key learns nothing about what it takes.
    if (!mayCall(actor, tool)) continue;
    let args: Record<string, unknown>;
    try {
      args = getArgumentValues(field.definition, field.node, coerced);
    } catch (error) {
      throw refusal(argumentError(error), field);
    }
    if (checked.some((c) => c.tool === tool && sameArguments(c.args, args))) continue;
    // Other work runs between the checks of an operation's fields, as it does between separate calls.
    if (i > 0) await nextTurn();
    const params = toolParams(field.tool, args, field.definition);
    const parsed = tool.input.safeParse(params);
    if (!parsed.success) throw refusal(zodToCrmError(parsed.error, params, tool.input, tool.name), field);
    checked.push({ tool, args });
  }
  return fields.length === 1 ? fields[0]!.tool.tool.name : null;
}

/** Whether two fields' arguments are the same values (objects by identity: a variable used twice). */
function sameArguments(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && Object.is(a[k], b[k]));
}

function mayCall(actor: Actor, tool: ToolDefinition): boolean {
  try {
    assertToolAccess(actor, tool.scope);
    return true;
  } catch {
    return false;
  }
}

/** GraphQL's refusal of an argument it cannot read, as a validation error naming the argument. */
function argumentError(error: unknown): unknown {
  if (!(error instanceof GraphQLError)) return error;
  const argument = /Argument "(\w+)"/.exec(error.message)?.[1];
  return new CrmError('validation_error', error.message, argument ? { param: argument, rule: 'required' } : {});
}

/**
 * Whether @skip / @include let a field, inline fragment or fragment spread run, with the
 * operation's variables. A condition GraphQL cannot read (a nullable variable sent as null for
 * `if: Boolean!`) counts as letting it run: executors differ there (graphql-jit leaves the field
 * out, graphql-js refuses the operation), and a field that might run is checked.
 */
function included(node: FieldNode | InlineFragmentNode | FragmentSpreadNode, variables: Record<string, unknown>): boolean {
  if (!node.directives?.length) return true;
  try {
    if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
  } catch {
    return true;
  }
}

/** A refusal as /graphql answers it: the error's code, details naming the field, and its HTTP status. */
function refusal(error: unknown, field: RootField): unknown {
  if (!isCrmError(error)) return error;
  const crm = error as CrmError;
  return new GraphQLError(crm.message, {
    nodes: field.node,
    extensions: { code: crm.code, details: { ...(crm.details ?? {}), graphql_field: field.key }, http: { status: crm.status } },
  });
}

function fragmentsIn(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  let fragments = fragmentsOf.get(document);
  if (!fragments) {
    fragments = new Map();
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    fragmentsOf.set(document, fragments);
  }
  return fragments;
}

/**
 * Adds the root fields that run, with the tool each runs, as execution collects them: a
 * selection @skip or @include leaves out is passed by with all it holds, and a fragment is
 * entered once (what it selects depends on the variables only, so a second spread of it adds
 * nothing). False when a selection names no field of the root type (validation refuses such a
 * document first).
 */
function collect(
  type: GraphQLObjectType, set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, variables: Record<string, unknown>,
  entered: Set<string>, fields: RootField[],
): boolean {
  for (const s of set.selections) {
    if (!included(s, variables)) continue;
    if (s.kind === Kind.FIELD) {
      if (s.name.value.startsWith('__')) continue;
      const definition = type.getFields()[s.name.value];
      if (!definition) return false;
      const tool = FIELD_TOOLS.get(`${type.name}.${s.name.value}`);
      if (tool) fields.push({ key: s.alias?.value ?? s.name.value, node: s, definition, tool });
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      if (!collect(type, s.selectionSet, fragments, variables, entered, fields)) return false;
    } else if (!entered.has(s.name.value)) {
      entered.add(s.name.value);
      const fragment = fragments.get(s.name.value);
      if (!fragment || !collect(type, fragment.selectionSet, fragments, variables, entered, fields)) return false;
    }
  }
  return true;
}

/** Runs checkToolArguments on every operation yoga executes, with the caller's actor, and names its tool on the actor. */
export function toolArgumentsPlugin(): Plugin {
  return {
    async onExecute({ args }) {
      const context = args.contextValue as Partial<GraphQLContext>;
      if (!context.actor) return;
      const tool = await checkToolArguments(args.schema, args.document, args.operationName ?? undefined, (args.variableValues ?? {}) as Record<string, unknown>, context.actor);
      // The services read the actor as they write their events: an operation of one tool names it.
      context.actor.tool ??= tool;
    },
  };
}
