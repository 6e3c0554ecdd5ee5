/**
 * The client's method signatures, derived from the catalog's zod schemas at the type level only:
 * these imports vanish at run time, so the client never loads the server's tool stack.
 */
import type { z } from 'zod';
import type { analyticsTools } from '../gateway/tools/analytics.ts';
import type { commsTools } from '../gateway/tools/comms.ts';
import type { graphTools } from '../gateway/tools/graph.ts';
import type { integrationTools } from '../gateway/tools/integrations.ts';
import type { listsTools } from '../gateway/tools/lists.ts';
import type { noteTools } from '../gateway/tools/notes.ts';
import type { objectTools } from '../gateway/tools/objects.ts';
import type { recordTools } from '../gateway/tools/records.ts';
import type { reportTools } from '../gateway/tools/reports.ts';
import type { taskTools } from '../gateway/tools/tasks.ts';
import type { timelineTools } from '../gateway/tools/timeline.ts';
import type { viewTools } from '../gateway/tools/views.ts';

type AnyTool =
  | (typeof objectTools)[number] | (typeof recordTools)[number] | (typeof listsTools)[number]
  | (typeof viewTools)[number] | (typeof noteTools)[number] | (typeof taskTools)[number]
  | (typeof timelineTools)[number] | (typeof reportTools)[number] | (typeof analyticsTools)[number]
  | (typeof commsTools)[number] | (typeof integrationTools)[number] | (typeof graphTools)[number];

/** Every tool name the catalog serves. */
export type ServedTool = AnyTool['name'];

type ToolNamed<N extends ServedTool> = Extract<AnyTool, { name: N }>;

/** What a tool accepts: the zod input type of its definition (defaults optional). */
export type ToolInput<N extends ServedTool> = z.input<ToolNamed<N>['input']>;

/** What a tool resolves to: the zod output type of its definition. */
export type ToolOutput<N extends ServedTool> = z.output<ToolNamed<N>['output']>;

type CategoryOf<N> = N extends `${infer C}.${string}` ? C : never;
type ActionOf<N, C extends string> = N extends `${C}.${infer A}` ? A : never;

/** A method taking the tool's input (optional when every parameter is) and resolving to its result. */
export type ToolMethod<N extends ServedTool> = {} extends ToolInput<N>
  ? (params?: ToolInput<N>) => Promise<ToolOutput<N>>
  : (params: ToolInput<N>) => Promise<ToolOutput<N>>;

/** `client.<category>.<action>(params)` for every served tool. */
export type ToolMethods = {
  readonly [C in CategoryOf<ServedTool>]: {
    readonly [A in ActionOf<ServedTool, C>]: `${C}.${A}` extends ServedTool ? ToolMethod<`${C}.${A}`> : never;
  };
};
