import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/domain/limits.ts';
import { schema } from '../../src/graphql/schema.ts';
import { operationCost } from '../../gateway/transports/graphql-limits.ts';
import { callTool, startHarness, type Harness } from '../e2e/harness.ts';

/**
 * The graph fields of /graphql count toward the operation's cost: what they may answer times
 * their selection, plus one per item for every level they walk. So many aliased deep neighbour
 * walks, or walks nested in a large page of records, are refused before anything runs.
 */
const G = LIMITS.graphql;
let h: Harness;
let person: string;
beforeAll(async () => {
  h = await startHarness();
  const company = (await callTool(h, 'rest', h.ws.owner.key, 'records.create', { object_type_slug: 'companies', data: { name: 'Cost Co' } })) as any;
  person = ((await callTool(h, 'rest', h.ws.owner.key, 'records.create', {
    object_type_slug: 'contacts', data: { name: 'Cost Person', company: company.result.record_id },
  })) as any).result.record_id;
});
afterAll(async () => {
  await h?.close();
});

async function gql(query: string, variables: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${h.url}/graphql`, {
    method: 'POST', headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: await res.json() };
}

function expectCostRefused(res: { status: number; body: any }): void {
  expect(res.status).toBe(400);
  expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_error', rule: 'max_cost', max: G.maxCost });
  expect(res.body.data).toBeUndefined();
}

const cost = (query: string, variables: Record<string, unknown> = {}) => operationCost(schema, parse(query), variables);
const aliases = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');

describe('/graphql graph fields count toward the operation cost', () => {
  it(`refuses ${G.maxAliases} aliased neighbour walks at depth 4 with a 400, and runs the same walks at depth 1`, async () => {
    const walks = (depth: number) => `query($id: String!) { ${aliases(G.maxAliases, `record(record_id: $id) { neighbors(depth: ${depth}) { record_id depth via } }`)} }`;
    expectCostRefused(await gql(walks(4), { id: person }));
    const shallow = await gql(walks(1), { id: person });
    expect(shallow.status).toBe(200);
    expect(shallow.body.errors).toBeUndefined();
    expect(shallow.body.data.a0.neighbors).toHaveLength(1);
  });

  it('multiplies neighbors by the size of the page it is nested in', async () => {
    const page = (size: number) => `{ records(object_type_slug: "contacts", page_size: ${size}) { items { neighbors { record_id } } } }`;
    const one = cost('{ record(record_id: "x") { neighbors { record_id } } }');
    expect(cost(page(10))).toBeGreaterThan(10 * (one - 1));
    expectCostRefused(await gql(page(100)));
    expect((await gql(page(20))).status).toBe(200);
  });

  it('raises the cost of graph, path and neighbors with the depth they walk, the limit and the number of contacts to classify', () => {
    const graph = (depth: number, limit: number) => cost(`{ graph(record_id: "x", depth: ${depth}, limit: ${limit}) { nodes { record_id } edges { type } } }`);
    expect(graph(4, 100)).toBeGreaterThan(graph(1, 100));
    expect(graph(2, 1000)).toBeGreaterThan(9 * graph(2, 100));
    // Without arguments a walk costs what its defaults (depth 2, limit 100) may return.
    expect(cost('{ graph(record_id: "x") { nodes { record_id } edges { type } } }')).toBe(graph(2, 100));
    // Out-of-range arguments cost as the largest allowed, and the service then refuses them with its own message.
    expect(graph(99, 100)).toBe(graph(4, 100));
    const path = (maxDepth: number) => cost(`{ path(from_record_id: "x", to_record_id: "y", max_depth: ${maxDepth}) { paths { length nodes { record_id } } } }`);
    expect(path(6)).toBeGreaterThan(path(1));
    const neighbors = (depth: number) => cost(`{ record(record_id: "x") { neighbors(depth: ${depth}) { record_id } } }`);
    expect(neighbors(4)).toBeGreaterThan(neighbors(1));
    const classify = (ids: string) => cost(`mutation { classifyContacts(${ids}persist: false) { items { record_id reasons { signal } } } }`);
    expect(classify('')).toBeGreaterThan(classify('record_ids: ["a", "b"], '));
    expect(classify('')).toBeGreaterThan(100 * 4);
  });

  it('refuses aliased deep graph walks of the largest limit with a 400 naming the bound', async () => {
    const query = `{ ${aliases(3, `graph(record_id: "x", depth: 4, limit: 1000) { nodes { record_id depth } edges { source target } }`)} }`;
    expectCostRefused(await gql(query));
  });
});
