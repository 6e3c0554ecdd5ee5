import { describe, expect, it } from 'vitest';
import { CATALOG, listTools, toolSchemas, toolsForScopes } from '../../gateway/tools/index.ts';
import { TOOL_NAME_PATTERN, TOOL_NAMES } from '../../gateway/tools/names.ts';
import { prepare } from '../../src/graphql/execute.ts';
import { SCOPES } from '../../src/domain/types.ts';

const SPEC_CATEGORIES = ['objects', 'records', 'lists', 'views', 'notes', 'tasks', 'analytics', 'reports', 'timeline', 'graph',
  'integrations', 'email', 'messages', 'meetings', 'billing', 'support'];

describe('the tool catalog', () => {
  it('knows exactly 62 unique tool names of the form <category>.<action>', () => {
    expect(TOOL_NAMES).toHaveLength(62);
    expect(new Set(TOOL_NAMES).size).toBe(62);
    for (const name of TOOL_NAMES) expect(name).toMatch(TOOL_NAME_PATTERN);
  });

  it('covers every category of the spec, plus contacts.classify', () => {
    const categories = new Set(TOOL_NAMES.map((n) => n.split('.')[0]));
    for (const c of SPEC_CATEGORIES) expect(categories).toContain(c);
    expect([...categories].sort()).toEqual([...SPEC_CATEGORIES, 'contacts'].sort());
  });

  it('offers only names among the 62, with the scope of their category (contacts.classify: graph)', () => {
    for (const tool of listTools()) {
      expect(TOOL_NAMES).toContain(tool.name);
      const category = tool.name.split('.')[0]!;
      expect(tool.scope).toBe(category === 'contacts' ? 'graph' : category);
      expect(SCOPES).toContain(tool.scope);
    }
    expect(CATALOG.size).toBe(listTools().length);
  });

  it('serves every one of the 62 names, no more and no fewer', () => {
    expect(listTools().map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
  });

  it('bounds every string parameter and key of every tool in its published schema', () => {
    // A value in an open map (record data, filters, a report filter's operand) is any JSON the
    // field's own validator bounds, under the global bound on every string; all else says its own.
    const freeValue = /additionalProperties\.anyOf|\.value\.anyOf/;
    const unbounded: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}[${i}]`));
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (n.type === 'string' && n.enum === undefined && n.const === undefined && typeof n.maxLength !== 'number' && !freeValue.test(path)) unbounded.push(path);
      for (const [k, v] of Object.entries(n)) walk(v, `${path}.${k}`);
    };
    for (const tool of listTools()) walk(toolSchemas(tool).inputSchema, tool.name);
    expect(unbounded).toEqual([]);
  });

  it('gives every tool a title, an actionable description, annotations and JSON Schemas of type object', () => {
    for (const tool of listTools()) {
      expect(tool.title.length).toBeGreaterThan(3);
      expect(tool.description.length).toBeGreaterThan(40);
      const { inputSchema, outputSchema } = toolSchemas(tool);
      expect(inputSchema.type).toBe('object');
      expect(inputSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(outputSchema.type).toBe('object');
      expect(tool.annotations.readOnlyHint && tool.annotations.destructiveHint).toBe(false);
    }
  });

  it("compiles every tool's GraphQL operation against the schema, to a function", () => {
    // A document graphql-jit declined would still run, interpreted, and quietly lose the speed.
    for (const tool of listTools()) expect(prepare(tool.operation.document).compiled, tool.name).not.toBeNull();
  });

  it('filters tools by scopes; no scopes means every tool', () => {
    expect(toolsForScopes([])).toHaveLength(listTools().length);
    expect(toolsForScopes(['records']).every((t) => t.scope === 'records')).toBe(true);
    expect(toolsForScopes(['billing'])).toEqual(listTools().filter((t) => t.scope === 'billing'));
  });
});
