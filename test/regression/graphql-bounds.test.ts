import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getIntrospectionQuery, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, parse, typeFromAST, validate,
  type DocumentNode, type GraphQLInputType, type OperationDefinitionNode,
} from 'graphql';
import { LIMITS } from '../../src/domain/limits.ts';
import { schema } from '../../src/graphql/schema.ts';
import { CATALOG, listTools } from '../../gateway/tools/index.ts';
import { boundedOperationCost, COST_ARGUMENTS, limitRules, listSizeEstimator, operationCost } from '../../gateway/transports/graphql-limits.ts';
import { graphFieldEstimator } from '../../gateway/transports/graphql-graph-cost.ts';
import { startHarness, type Harness } from '../e2e/harness.ts';
import { counted } from '../graphql/counted.ts';

const G = LIMITS.graphql;
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function gql(body: string | object): Promise<{ status: number; body: any }> {
  const res = await fetch(`${h.url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

const RECORDS = 'records(object_type_slug: "companies", page_size: 100) { items { record_id data display_name created_at updated_at } total }';

function expectRefused(res: { status: number; body: any }, message: RegExp): void {
  expect(res.status).toBe(400);
  expect(res.body.errors[0].extensions.code).toBe('validation_error');
  expect(res.body.errors[0].message).toMatch(message);
  expect(res.body.data).toBeUndefined();
}

describe('/graphql operation bounds', () => {
  it('codes every refusal of a malformed operation validation_error, as the error table says', async () => {
    for (const [body, message] of [
      [{ query: '{ record( }' }, /Syntax Error/],
      [{ query: '{ nosuch }' }, /Cannot query field "nosuch"/],
      [{ query: '{ records(object_type_slug: "deals", page_size: "a") { total } }' }, /Int cannot represent/],
      [{}, /Must provide query string/],
    ] as const) {
      const res = await gql(body);
      expect(res.body.errors?.[0]?.message, JSON.stringify(body)).toMatch(message);
      expect(res.body.errors[0].extensions.code, JSON.stringify(body)).toBe('validation_error');
      expect(res.body.data ?? undefined).toBeUndefined();
    }
  });

  it('bounds the variables of an operation sent over GET as it does over POST', async () => {
    const variables = JSON.stringify({ id: 'rec_x', constructor: 1 });
    const url = `${h.url}/graphql?query=${encodeURIComponent('query($id: String!) { record(record_id: $id) { record_id } }')}&variables=${encodeURIComponent(variables)}`;
    const res = await fetch(url, { headers: { Authorization: `Bearer ${h.ws.owner.key}`, Accept: 'application/json' } });
    const body = await res.json() as any;
    // A GraphQL response (errors[], code and details in extensions), as a GraphQL client reads one.
    expect(res.status).toBe(400);
    expect(body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { param: 'constructor', rule: 'unknown_parameter' } });
    // The same answer a POST with these variables gets.
    const post = await gql({ query: 'query($id: String!) { record(record_id: $id) { record_id } }', variables: JSON.parse(variables) });
    expect([post.status, post.body]).toEqual([res.status, body]);
  });

  it.each([
    ['a NUL', { id: 'rec_a\u0000b' }, 'id', 'unicode'],
    ['a lone surrogate', { id: 'rec_\ud800' }, 'id', 'unicode'],
    ['nesting past 32 levels', { id: 'rec_x', deep: JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) }, undefined, 'max_depth'],
  ])('refuses variables holding %s as a GraphQL response, before anything runs', async (_, variables, param, rule) => {
    const res = await gql({ query: 'query($id: String!) { record(record_id: $id) { record_id } }', variables });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_error', details: { rule, ...(param ? { param } : {}) } });
  });

  it('answers an Int past 32 bits inside an input object variable with a 400 naming it, not a 500', async () => {
    // Found by the fuzz harness once /graphql ran operations compiled: that executor reports the
    // coercion failure as a bare error with no extensions.
    const res = await gql({
      query: 'mutation($fields: [FieldInput!]!) { createObjectType(slug: "gadgets", name: "Gadgets", fields: $fields) { slug } }',
      variables: { fields: [{ slug: 'size', name: 'Size', type: 'number', max: 9005847464246845 }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_error' });
    expect(res.body.errors[0].message).toMatch(/9005847464246845/);
  });

  it('refuses 5,000 aliases of a 100-item page before running any of them', async () => {
    const query = `{ ${Array.from({ length: 5000 }, (_, i) => `a${i}: ${RECORDS}`).join(' ')} }`;
    expectRefused(await gql({ query }), /limit/i);
  });

  it('refuses 25,000 aliases of objectTypes', async () => {
    const query = `{ ${Array.from({ length: 25_000 }, (_, i) => `a${i}: objectTypes { slug }`).join(' ')} }`;
    expectRefused(await gql({ query }), /limit/i);
  });

  it(`refuses more than ${G.maxAliases} aliases in a small document`, async () => {
    const query = `{ ${Array.from({ length: G.maxAliases + 1 }, (_, i) => `a${i}: objectTypes { slug }`).join(' ')} }`;
    expectRefused(await gql({ query }), /Aliases limit/);
  });

  it(`refuses a document of more than ${G.maxTokens} tokens`, async () => {
    const query = `{ objectTypes { ${'slug '.repeat(G.maxTokens)} } }`;
    expectRefused(await gql({ query }), /Token limit/);
  });

  it(`refuses a selection nested deeper than ${G.maxDepth}`, async () => {
    const query = `{ ${'a { '.repeat(G.maxDepth + 1)}b${' }'.repeat(G.maxDepth + 1)} }`;
    expectRefused(await gql({ query }), /depth limit/);
  });

  it(`refuses more than ${G.maxDirectives} directives`, async () => {
    const query = `{ objectTypes ${'@skip(if: false) '.repeat(G.maxDirectives + 1)} { slug } }`;
    expectRefused(await gql({ query }), /Directives limit/);
  });

  it('refuses an operation whose list sizes add up past the cost limit, literal or in variables', async () => {
    const aliases = (arg: string) => Array.from({ length: G.maxAliases }, (_, i) => `a${i}: records(object_type_slug: "companies", page_size: ${arg}) {
      items { record_id id object_type_slug data display_name assignee_id created_by created_at updated_at deleted_at } }`).join(' ');
    expectRefused(await gql({ query: `{ ${aliases('100')} }` }), /cost limit/);
    expectRefused(await gql({ query: `query($n: Int) { ${aliases('$n')} }`, variables: { n: 100 } }), /cost limit/);
  });

  it('refuses large pages of a document it just ran with small ones (the cost is remembered per variable values)', async () => {
    const query = `query($n: Int, $skip: Boolean!) { ${Array.from({ length: 3 }, (_, i) => `a${i}: records(object_type_slug: "companies", page_size: $n) @skip(if: $skip) {
      items { record_id id object_type_slug data display_name assignee_id created_by created_at updated_at deleted_at } }`).join(' ')} }`;
    for (let round = 0; round < 2; round++) {
      expect((await gql({ query, variables: { n: 5, skip: false } })).status).toBe(200);
      expect((await gql({ query, variables: { n: 1000, skip: true } })).status).toBe(200);
      expectRefused(await gql({ query, variables: { n: 1000, skip: false } }), /cost limit/);
      // Without $n the page takes its default size.
      expect((await gql({ query, variables: { skip: false } })).status).toBe(200);
    }
  });

  it('still runs the same operation when its pages are small', async () => {
    const query = `{ ${Array.from({ length: 25 }, (_, i) => `a${i}: records(object_type_slug: "companies", page_size: 2) { total }`).join(' ')} }`;
    const res = await gql({ query });
    expect(res.status).toBe(200);
    expect(res.body.data.a0.total).toBeTypeOf('number');
  });

  it('still answers the introspection query GraphiQL sends', async () => {
    const res = await gql({ query: getIntrospectionQuery() });
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  it('answers a body over the gateway limit with 413 without parsing it', async () => {
    const query = `{ objectTypes { slug } } # ${'x'.repeat(LIMITS.bodyMaxBytes)}`;
    const res = await gql({ query });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });
});

describe('the tools\' own operations', () => {
  it.each(listTools().map((t) => [t.name, t.operation.document]))('%s stays within every /graphql bound at the largest page and limit', (_, source) => {
    const document = parse(source, { maxTokens: G.maxTokens });
    expect(validate(schema, document, limitRules())).toEqual([]);
    expect(operationCost(schema, document, worstVariables(document))).toBeLessThanOrEqual(G.maxCost);
  });
});

/**
 * The remembered cost is keyed by the variables in the arguments the estimators read
 * (COST_ARGUMENTS) and in @skip/@include; a record's data or a batch's entries differ every call.
 */
describe('the cost remembered per variable values', () => {
  it('has estimators that read no argument but the ones COST_ARGUMENTS names', () => {
    const read = new Set<string>();
    const args = new Proxy({} as Record<string, unknown>, {
      get: (_target, key) => (typeof key === 'string' && read.add(key), undefined),
      has: (_target, key) => (typeof key === 'string' && read.add(key), false),
    });
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        for (const estimate of [graphFieldEstimator, listSizeEstimator]) {
          estimate({ type, field, args, childComplexity: 1, node: undefined as never, introspectionTypeName: undefined as never } as never);
        }
      }
    }
    expect(read.size).toBeGreaterThan(0);
    expect([...read].filter((name) => !COST_ARGUMENTS.has(name))).toEqual([]);
  });

  it('remembers a cost without reading the variables no estimator reads (a batch\'s entries)', () => {
    const document = parse(CATALOG.get('lists.bulk_add_entry')!.operation.document);
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ record_id: `rec_${i}`, data: { n: i } }));
    const first = boundedOperationCost(schema, document, { list_id: 'lst_a', entries: entries(3) });
    const later = counted(entries(100));
    expect(boundedOperationCost(schema, document, { list_id: 'lst_b', entries: later.list })).toBe(first);
    expect(later.reads()).toBe(0);
  });

  it('checks the variables before walking the cost, and stops at the first bad one', () => {
    const document = parse(CATALOG.get('lists.bulk_add_entry')!.operation.document);
    const entries = counted(Array.from({ length: 1000 }, (_, i) => `s${i}`));
    expect(() => operationCost(schema, document, { list_id: 'lst_a', entries: entries.list })).toThrow(/got invalid value/);
    expect(entries.reads()).toBeLessThan(10);
  });

  it('answers the cost a fresh walk gives whatever a JSON variable holds', () => {
    const document = parse(`query Q($f: JSON, $n: Int) { records(object_type_slug: "deals", filters: $f, page_size: $n) { items { record_id } total } }`);
    for (const [f, n] of [[{ stage: 'won' }, 10], [{ amount: { gte: 5 } }, 10], [null, 50], [{ stage: 'lost' }, 50], [{ a: 1 }, 3]] as const) {
      const variables = { f, n };
      expect(boundedOperationCost(schema, document, variables, 'Q')).toBe(operationCost(schema, document, variables, 'Q'));
    }
  });
});

/** Variables for a fixed document: the largest page_size and limit, the least of everything else. */
function worstVariables(document: DocumentNode): Record<string, unknown> {
  const op = document.definitions[0] as OperationDefinitionNode;
  const out: Record<string, unknown> = {};
  for (const v of op.variableDefinitions ?? []) {
    const name = v.variable.name.value;
    if (name === 'page_size') out[name] = LIMITS.pageSizeMax;
    else if (name === 'limit') out[name] = LIMITS.graphLimitMax;
    else if (v.type.kind === 'NonNullType') out[name] = sample(typeFromAST(schema, v.type) as GraphQLInputType);
  }
  return out;
}

function sample(type: GraphQLInputType): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return [];
  const named = getNamedType(inner);
  if (isEnumType(named)) return named.getValues()[0]!.value;
  if (isInputObjectType(named)) {
    return Object.fromEntries(Object.values(named.getFields()).filter((f) => isNonNullType(f.type)).map((f) => [f.name, sample(f.type)]));
  }
  return ({ Int: 1, Float: 1, Boolean: true, JSON: {} } as Record<string, unknown>)[named.name] ?? 'x';
}
