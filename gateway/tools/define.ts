import { z } from 'zod';
import type { Scope } from '../../src/domain/types.ts';
import type { ToolName } from './names.ts';

/** MCP tool annotations (hints for agents; never relied on for security). */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint?: boolean;
}

/** How a tool runs: one GraphQL operation, its variables, and the tool result cut from its data. */
export interface ToolOperation<I> {
  document: string;
  variables: (input: I) => Record<string, unknown>;
  result: (data: Record<string, unknown>) => unknown;
  /**
   * The parameters behind a set of variables, where they are not the variables themselves (a
   * patch nested under one variable): /graphql reads a root field's arguments back into the
   * tool's parameters with it to validate them (gateway/transports/graphql-tool-args.ts).
   */
  params?: (variables: Record<string, unknown>) => Record<string, unknown>;
  /** Compile the document without leaf serializers (OperationOptions in src/graphql/execute.ts). */
  plainLeaves?: boolean;
}

export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: ToolName;
  scope: Scope;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  operation: ToolOperation<z.output<I>>;
}

/**
 * A declared tool: usable wherever a ToolDefinition is, and still carrying its name and its zod
 * input and output types, so the typed client derives its method signatures from the catalog.
 */
export type TypedTool<N extends ToolName, I extends z.ZodType, O extends z.ZodType> = ToolDefinition & { readonly name: N; readonly input: I; readonly output: O };

/** The one way to declare a tool: a frozen definition whose types survive for the typed client. */
export function defineTool<const N extends ToolName, I extends z.ZodObject, O extends z.ZodObject>(def: ToolDefinition<I, O> & { name: N }): TypedTool<N, I, O> {
  return Object.freeze(def) as unknown as TypedTool<N, I, O>;
}

export const READ_ONLY: ToolAnnotations = Object.freeze({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
export const CREATES: ToolAnnotations = Object.freeze({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
export const UPDATES: ToolAnnotations = Object.freeze({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
export const DELETES: ToolAnnotations = Object.freeze({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });

/** Takes the single top-level field of an operation's data as the tool's result. */
export function pick(field: string): (data: Record<string, unknown>) => unknown {
  return (data) => data[field];
}

/** Copies only the keys the caller gave, so GraphQL sees omitted arguments as omitted. */
export function given<T extends Record<string, unknown>>(input: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}
