import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ERROR_CODES } from '../../src/domain/errors.ts';
import { toolSchemas, type ToolDefinition } from '../tools/index.ts';
import { toolManual } from '../tools/manual.ts';
import { portableSchema } from '../tools/portable.ts';

/** What a failed call carries in structuredContent: {error: {code, message, details}}. */
const toolError = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
const TOOL_ERROR_SCHEMA = portableSchema(strip(z.toJSONSchema(toolError, { target: 'draft-2020-12' }) as Record<string, unknown>));

function strip(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _s, ...rest } = schema;
  return rest;
}

const descriptors = new Map<string, Tool>();

/**
 * The tools/list entry of a tool. Its outputSchema admits the success shape or the error shape,
 * because failed calls carry `{error}` in structuredContent and clients validate both.
 */
export function mcpToolDescriptor(tool: ToolDefinition): Tool {
  let d = descriptors.get(tool.name);
  if (!d) {
    const { inputSchema, outputSchema } = toolSchemas(tool);
    d = {
      name: tool.name,
      title: tool.title,
      description: toolManual(tool),
      inputSchema: inputSchema as Tool['inputSchema'],
      outputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        anyOf: [strip(outputSchema), TOOL_ERROR_SCHEMA],
      } as Tool['outputSchema'],
      annotations: { title: tool.title, ...tool.annotations },
    };
    descriptors.set(tool.name, d);
  }
  return d;
}
