import { z } from 'zod';
import type { Scope } from '../../src/domain/types.ts';
import type { ToolDefinition } from './define.ts';
import { TOOL_NAMES, type ToolName } from './names.ts';
import { objectTools } from './objects.ts';
import { recordTools } from './records.ts';
import { listsTools } from './lists.ts';
import { viewTools } from './views.ts';
import { noteTools } from './notes.ts';
import { taskTools } from './tasks.ts';
import { timelineTools } from './timeline.ts';
import { graphTools } from './graph.ts';

/** Every tool the service offers, by name. Frozen; built once (STYLE.md §1). */
export const CATALOG: ReadonlyMap<string, ToolDefinition> = (() => {
  const map = new Map<string, ToolDefinition>();
  for (const tool of [...objectTools, ...recordTools, ...listsTools, ...viewTools, ...noteTools, ...taskTools, ...timelineTools, ...graphTools]) {
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

/** JSON Schema 2020-12 of a tool's input and output, computed once. */
export function toolSchemas(tool: ToolDefinition): ToolSchemas {
  let s = schemas.get(tool.name);
  if (!s) {
    s = {
      inputSchema: z.toJSONSchema(tool.input, { target: 'draft-2020-12', io: 'input' }) as Record<string, unknown>,
      outputSchema: z.toJSONSchema(tool.output, { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>,
    };
    schemas.set(tool.name, s);
  }
  return s;
}

export type { ToolDefinition, ToolName };
