import { lintCypherQuery, testData, type DbSchema } from '@neo4j-cypher/language-support';
import { describe, expect, it } from 'vitest';
import { cypherCatalog } from '../../src/store/neo4j/catalog.ts';
import { LABELS, PROPERTY_KEYS, RELATIONSHIP_TYPES } from '../../src/store/neo4j/model.ts';
import { registeredStatements } from '../../src/store/neo4j/statement.ts';

/**
 * Every statement the Neo4j adapter can send passes @neo4j-cypher/language-support with nothing
 * to say: no syntax or semantic error, and no warning either — the linter is told the adapter's
 * labels, relationship types and property keys (a misspelt name is a warning), the parameters
 * each statement is run with (an undeclared one is an error), and the built-in procedures and
 * functions of Neo4j without any plugin (APOC or GDS would be an error). Both Cypher 5 (Neo4j 5)
 * and Cypher 25 (Neo4j 2025+) must accept every statement.
 */

type Version = 'CYPHER 5' | 'CYPHER 25';
const VERSIONS: readonly Version[] = ['CYPHER 5', 'CYPHER 25'];

const isPlugin = (name: string): boolean => /^(apoc|gds)\./.test(name);
const withoutPlugins = <T>(registry: Record<string, T> | undefined): Record<string, T> =>
  Object.fromEntries(Object.entries(registry ?? {}).filter(([name]) => !isPlugin(name)));

const catalog = testData.mockSchema;
const baseSchema: DbSchema = {
  labels: [...LABELS],
  relationshipTypes: [...RELATIONSHIP_TYPES],
  propertyKeys: [...PROPERTY_KEYS],
  procedures: Object.fromEntries(VERSIONS.map((v) => [v, withoutPlugins(catalog.procedures?.[v])])),
  functions: Object.fromEntries(VERSIONS.map((v) => [v, withoutPlugins(catalog.functions?.[v])])),
};

function lint(cypher: string, params: Record<string, unknown>, version: Version = 'CYPHER 5'): string[] {
  const schema: DbSchema = { ...baseSchema, defaultLanguage: version, parameters: Object.fromEntries(Object.keys(params).map((p) => [p, ''])) };
  return lintCypherQuery(cypher, schema).diagnostics.map((d) => `${d.severity === 1 ? 'error' : 'warning'}: ${d.message}`);
}

const entries = cypherCatalog();

describe('the Cypher linter itself', () => {
  it('reports a syntax error', () => {
    expect(lint('MATCH (r:Record) RETUR r', {})).toEqual(expect.arrayContaining([expect.stringMatching(/^error: Invalid input 'RETUR'/)]));
  });

  it('reports an undefined variable', () => {
    expect(lint('MATCH (r:Record) RETURN s', {})).toContain('error: Variable `s` not defined');
  });

  it('reports a parameter the statement is not run with', () => {
    expect(lint('MATCH (r:Record {id: $id}) RETURN r.id AS id', {})).toContain('error: Parameter $id is not defined.');
  });

  it('warns about a misspelt label or property', () => {
    const found = lint('MATCH (r:Recrod) RETURN r.idd AS id', {});
    expect(found.some((d) => d.startsWith('warning: Label Recrod is not present'))).toBe(true);
    expect(found.some((d) => d.startsWith('warning: idd is not present'))).toBe(true);
  });

  it('rejects a procedure that only a plugin provides', () => {
    expect(lint("CALL apoc.help('text')", {})).toEqual([expect.stringMatching(/^error: Procedure apoc\.help is not present/)]);
  });
});

describe('the adapter catalog', () => {
  it('holds every registered statement, the schema files and the builders for every operator', () => {
    const names = new Set(entries.map((e) => e.name));
    for (const s of registeredStatements()) expect(names.has(s.name)).toBe(true);
    expect(entries.filter((e) => e.name.startsWith('schema ')).length).toBeGreaterThanOrEqual(10);
    for (const op of ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'contains', 'starts_with', 'ends_with', 'is_empty', 'is_not_empty']) {
      expect(entries.some((e) => e.name.includes(` ${op}`)), op).toBe(true);
    }
    expect(new Set(entries.map((e) => e.name)).size).toBe(entries.length);
  });

  it('uses every parameter it declares', () => {
    for (const e of entries) {
      for (const param of Object.keys(e.params)) expect(e.cypher, `${e.name} declares $${param}`).toMatch(new RegExp(`\\$${param}\\b`));
    }
  });
});

describe.each(VERSIONS)('every statement under %s', (version) => {
  it.each(entries.map((e) => [e.name, e] as const))('%s lints clean', (_name, entry) => {
    expect(lint(entry.cypher, entry.params, version)).toEqual([]);
  });
});
