import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineTool, READ_ONLY } from '../../gateway/tools/define.ts';
import { listTools, toolSchemas } from '../../gateway/tools/index.ts';
import { examplesIn, toolManual } from '../../gateway/tools/manual.ts';
import { mcpToolDescriptor } from '../../gateway/transports/mcp-tools.ts';

describe('tool descriptions as the agent manual', () => {
  it('publishes for every tool an example call that names only its parameters and gives every required one', () => {
    for (const tool of listTools()) {
      const { inputSchema } = toolSchemas(tool);
      const known = Object.keys(inputSchema.properties as object);
      const examples = examplesIn(mcpToolDescriptor(tool).description!);
      expect(examples.length, tool.name).toBeGreaterThan(0);
      for (const example of examples) {
        expect(example, tool.name).toBeTypeOf('object');
        const keys = Object.keys(example as object);
        expect(known, `${tool.name} example ${JSON.stringify(example)}`).toEqual(expect.arrayContaining(keys));
        expect(keys, tool.name).toEqual(expect.arrayContaining((inputSchema.required ?? []) as string[]));
      }
    }
  });

  it("makes every hand-written example pass the tool's own input validation", () => {
    for (const tool of listTools()) {
      for (const example of examplesIn(tool.description)) {
        const parsed = tool.input.safeParse(example);
        expect(parsed.success ? 'ok' : parsed.error.message, `${tool.name} ${JSON.stringify(example)}`).toBe('ok');
      }
    }
  });

  it('says what every tool returns and names every bounded parameter with its bound', () => {
    for (const tool of listTools()) {
      const manual = toolManual(tool);
      expect(manual, tool.name).toMatch(/\bReturns\b/);
      for (const [name, prop] of Object.entries(toolSchemas(tool).inputSchema.properties as Record<string, { maximum?: number }>)) {
        if (typeof prop.maximum === 'number' && prop.maximum < Number.MAX_SAFE_INTEGER) expect(manual, tool.name).toContain(`${name} at most ${prop.maximum}`);
      }
    }
  });

  it('completes a bare description with limits, an example built from the schema and the result shape', () => {
    const tool = defineTool({
      name: 'records.get', scope: 'records', title: 'Probe', description: 'Reads a thing.', annotations: READ_ONLY,
      input: z.strictObject({
        slug: z.string().describe('Type slug, e.g. "deals".'),
        size: z.number().int().min(1).max(50),
        kind: z.enum(['a', 'b']).nullable(),
        note: z.string().optional(),
      }),
      output: z.object({ items: z.array(z.string()), total: z.number() }),
      operation: { document: '{ __typename }', variables: () => ({}), result: () => ({}) },
    });
    const manual = toolManual({ ...tool, name: 'probe.get' as never });
    expect(manual).toBe('Reads a thing. Limits: size at most 50. Example: {"slug":"deals","size":1,"kind":"a"}. Returns {items, total}.');
    expect(tool.input.safeParse(examplesIn(manual)[0]).success).toBe(true);
  });

  it('reads examples with nested braces and quoted braces, and reports unparseable ones', () => {
    expect(examplesIn('Example: {"a": {"b": "}"}}. Example (other): {"c": [1]}.')).toEqual([{ a: { b: '}' } }, { c: [1] }]);
    expect(examplesIn('Example: {slug: "x"}.')).toEqual([undefined]);
  });
});
