import { Ajv } from '@modelcontextprotocol/server/validators/ajv';
import { describe, expect, it } from 'vitest';
import { listTools, toolSchemas } from '../../gateway/tools/index.ts';
import { portabilityProblems, portableSchema } from '../../gateway/tools/portable.ts';
import { mcpToolDescriptor } from '../../gateway/transports/mcp-tools.ts';

const SAMPLES: unknown[] = [null, true, 0, 2.5, -3, '', 'x'.repeat(12), 'ada@example.com', [], [1, 'a'], {}, { a: 1 }, { name: 'Acme', n: null }];

/** Both schemas accept and reject exactly the same sample values. */
function expectSameVerdicts(before: Record<string, unknown>, after: Record<string, unknown>): void {
  const ajv = new Ajv({ strict: false });
  const a = ajv.compile(before);
  const b = ajv.compile(after);
  for (const v of SAMPLES) expect({ v, ok: b(v) }).toEqual({ v, ok: a(v) });
}

describe('tool schema portability', () => {
  it("publishes every tool's MCP input and output schema with 0 portability problems", () => {
    const problems = listTools().flatMap((tool) => {
      const d = mcpToolDescriptor(tool);
      return [...portabilityProblems(d.inputSchema), ...portabilityProblems(d.outputSchema)].map((p) => `${tool.name} ${p.rule} ${p.path}`);
    });
    expect(problems).toEqual([]);
  });

  it('uses the same portable schemas for the OpenAPI document', () => {
    for (const tool of listTools()) {
      const { inputSchema, outputSchema } = toolSchemas(tool);
      expect([...portabilityProblems(inputSchema), ...portabilityProblems(outputSchema)]).toEqual([]);
    }
  });

  it('finds type arrays, empty schemas, bare true and remote refs', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: ['string', 'null'] }, b: {}, c: true, d: { $ref: 'https://example.com/s.json' }, e: { type: 'string' } },
      additionalProperties: false,
    };
    expect(portabilityProblems(schema).map((p) => `${p.rule} ${p.path}`)).toEqual([
      'type-union $.properties.a', 'untyped-schema $.properties.b', 'boolean-schema $.properties.c', 'remote-ref $.properties.d',
    ]);
  });

  it('splits a nullable type array into anyOf branches that keep each type its own keywords', () => {
    const before = { type: ['string', 'null'], maxLength: 5, description: 'Icon name' };
    const after = portableSchema(before);
    expect(after).toEqual({ description: 'Icon name', anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }] });
    expectSameVerdicts(before, after);
  });

  it('spells an empty schema as an anyOf over every JSON type, accepting the same values', () => {
    const before = { type: 'object', properties: { data: { type: 'object', additionalProperties: {} }, any: { description: 'anything' } } };
    const after = portableSchema(before);
    expect(portabilityProblems(after)).toEqual([]);
    expectSameVerdicts(before, after);
    expectSameVerdicts({ type: 'object', additionalProperties: {} }, portableSchema({ type: 'object', additionalProperties: {} }));
  });

  it('keeps an existing anyOf beside the split types', () => {
    const before = { type: ['number', 'null'], minimum: 1, anyOf: [{ maximum: 10 }, { type: 'null' }] };
    const after = portableSchema(before);
    expect(portabilityProblems(after)).toEqual([]);
    expectSameVerdicts(before, after);
  });

  it('leaves additionalProperties: false and an empty schema under not alone', () => {
    const schema = { type: 'object', properties: { never: { not: {} } }, additionalProperties: false };
    expect(portableSchema(schema)).toEqual(schema);
    expect(portabilityProblems(schema)).toEqual([]);
  });
});
