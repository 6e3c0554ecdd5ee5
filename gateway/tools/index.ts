import { z } from 'zod';
import type { Scope } from '../../src/domain/types.ts';
import type { ToolDefinition } from './define.ts';
import { TOOL_NAMES, type ToolName } from './names.ts';
import { portableSchema } from './portable.ts';
import { objectTools } from './objects.ts';
import { recordTools } from './records.ts';
import { listsTools } from './lists.ts';
import { viewTools } from './views.ts';
import { noteTools } from './notes.ts';
import { taskTools } from './tasks.ts';
import { timelineTools } from './timeline.ts';
import { reportTools } from './reports.ts';
import { analyticsTools } from './analytics.ts';
import { commsTools } from './comms.ts';
import { integrationTools } from './integrations.ts';
import { graphTools } from './graph.ts';

/** Every tool the service offers, by name. Frozen; built once at import. */
export const CATALOG: ReadonlyMap<string, ToolDefinition> = (() => {
  const map = new Map<string, ToolDefinition>();
  for (const tool of [
    ...objectTools, ...recordTools, ...listsTools, ...viewTools, ...noteTools, ...taskTools, ...timelineTools,
    ...reportTools, ...analyticsTools, ...commsTools, ...integrationTools, ...graphTools,
  ]) {
    if (map.has(tool.name)) throw new Error(`duplicate tool ${tool.name}`);
    if (!(TOOL_NAMES as readonly string[]).includes(tool.name)) throw new Error(`tool ${tool.name} is not one of the 62 names`);
    map.set(tool.name, tool);
  }
  return map;
})();

export function listTools(): ToolDefinition[] {
  return [...CATALOG.values()];
}

/** The tools a key with these scopes may call (empty scopes: all). */
export function toolsForScopes(scopes: readonly Scope[]): ToolDefinition[] {
  return listTools().filter((t) => scopes.length === 0 || scopes.includes(t.scope));
}

export interface ToolSchemas {
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
}

const schemas = new Map<string, ToolSchemas>();

/**
 * JSON Schema 2020-12 of a tool's input and output, computed once, in the portable spelling
 * (no type arrays, no empty schemas) so every tool, whoever adds it, publishes schemas that
 * strict clients accept.
 */
export function toolSchemas(tool: ToolDefinition): ToolSchemas {
  let s = schemas.get(tool.name);
  if (!s) {
    s = {
      inputSchema: portableSchema(z.toJSONSchema(tool.input, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>),
      outputSchema: portableSchema(z.toJSONSchema(tool.output, { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>),
    };
    schemas.set(tool.name, s);
  }
  return s;
}

export type { ToolDefinition, ToolName };
