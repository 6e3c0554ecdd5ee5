import { execute, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../gateway/seed/index.ts';
import { listTools } from '../../gateway/tools/index.ts';
import type { Actor } from '../../src/domain/actor.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { createContext } from '../../src/graphql/context.ts';
import { runOperation } from '../../src/graphql/execute.ts';
import { schema } from '../../src/graphql/schema.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';

/**
 * Catalog operations compiled with `plainLeaves` skip GraphQL's scalar and enum serializers, which
 * is sound only while every leaf is already the JSON value the standard executor would give. This
 * holds them to it: on the demo graph, with classified contacts (so category and strength are set),
 * each such tool's answer must be byte for byte the standard executor's, and fit the tool's output
 * schema. A tool newly marked plainLeaves fails here until it has inputs below.
 */
let store: Store;
let actor: Actor;
const ids: Record<'companies' | 'contacts' | 'deals', string[]> = { companies: [], contacts: [], deals: [] };

beforeAll(async () => {
  store = createSqliteStore({ path: ':memory:' });
  await store.init();
  const seed = await seedDemo(store, { scale: 0.05, keyPrefix: 'crm' });
  actor = { workspace_id: seed.workspace_id, user_id: seed.user_id, role: 'owner', key_id: null, scopes: [], via: 'rest', tool: null, plan: null, trial_ends_at: null };
  for (const slug of ['companies', 'contacts', 'deals'] as const) ids[slug] = await store.recordIdsOf(seed.workspace_id, slug, null, 12);
  const classified = await createContext(store, actor).services.classify.classify({});
  expect(classified.items.some((item) => item.category !== 'other')).toBe(true);
  // A soft-deleted record the walks must pass by.
  await createContext(store, actor).services.records.delete(ids.contacts[11]!);
});
afterAll(() => store.close());

const inputs: Record<string, () => Record<string, unknown>[]> = {
  'graph.query': () => [...ids.companies.slice(0, 4), ...ids.contacts.slice(0, 4), ...ids.deals.slice(0, 4)].flatMap((record_id) => [
    { record_id },
    { record_id, depth: 3, limit: 500 },
    { record_id, depth: 4, limit: 7 },
    { record_id, depth: 2, types: 'contacts' },
    { record_id, depth: 3, categories: 'customer,prospect,partner' },
  ]),
  // Live records of each type, each with its relations in both directions.
  'records.get': () => [...ids.companies.slice(0, 6), ...ids.contacts.slice(0, 11), ...ids.deals.slice(0, 6)].map((record_id) => ({ record_id })),
  'graph.path': () => ids.contacts.slice(0, 6).flatMap((from_record_id, i) => [
    { from_record_id, to_record_id: ids.contacts[(i + 5) % 10]! },
    { from_record_id, to_record_id: ids.companies[i]!, max_depth: 6, limit: 10 },
  ]),
};

describe('operations compiled with plain leaves', () => {
  const marked = listTools().filter((tool) => tool.operation.plainLeaves);

  it('are exactly the tools this test has inputs for', () => {
    expect(marked.map((tool) => tool.name).sort()).toEqual(Object.keys(inputs).sort());
  });

  for (const tool of marked) {
    it(`${tool.name} answers byte for byte what the standard executor answers`, async () => {
      const document = parse(tool.operation.document);
      let nonEmpty = 0;
      for (const input of inputs[tool.name]!()) {
        const variables = tool.operation.variables(tool.input.parse(input));
        const plain = await runOperation(tool.operation.document, variables, createContext(store, actor), { plainLeaves: true });
        const standard = await execute({ schema, document, variableValues: variables, contextValue: createContext(store, actor) });
        expect(standard.errors, JSON.stringify(input)).toBeUndefined();
        expect(JSON.stringify(plain), JSON.stringify(input)).toBe(JSON.stringify(standard.data));
        const result = tool.operation.result(plain);
        expect(tool.output.safeParse(result).success, JSON.stringify(input)).toBe(true);
        if (JSON.stringify(result).length > 200) nonEmpty++;
      }
      expect(nonEmpty).toBeGreaterThan(3);
    });
  }
});
