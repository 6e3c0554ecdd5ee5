import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG } from '../../gateway/tools/index.ts';
import { examplesIn } from '../../gateway/tools/manual.ts';
import { useDirectGraphQL } from '../../gateway/transports/graphql-direct.ts';
import { FIELD_TOOLS, toolParams } from '../../gateway/transports/graphql-tool-args.ts';
import { schema } from '../../src/graphql/schema.ts';
import { callTool, startHarness, type Harness } from '../e2e/harness.ts';

/**
 * /graphql checks each root field's arguments with its tool's input schema, so what REST refuses
 * it refuses too, with the same code, message and parameter; before, it checked only what the
 * domain checks, and stored 20,000 meeting attendees, 11 view sorts and colors past their bound.
 */

/** Root fields no tool runs: workspace settings, reached through the CLI and these mutations only. */
const SETTINGS_FIELDS = ['Query.settings', 'Mutation.addMember', 'Mutation.createApiKey', 'Mutation.revokeApiKey', 'Mutation.setMemberRole', 'Mutation.setPlan'];

describe('root fields and the tools behind them', () => {
  it('maps every root field but the settings to the one tool whose operation it is, and every argument of it to a parameter', () => {
    const unmapped: string[] = [];
    for (const type of [schema.getQueryType()!, schema.getMutationType()!]) {
      for (const field of Object.values(type.getFields())) {
        const key = `${type.name}.${field.name}`;
        const mapped = FIELD_TOOLS.get(key);
        if (!mapped) {
          unmapped.push(key);
          continue;
        }
        // An argument the tool's document does not pass would reach the resolver unchecked.
        expect(field.args.map((a) => a.name).sort(), key).toEqual([...mapped.variableOf.keys()].sort());
      }
    }
    expect(unmapped.sort()).toEqual([...SETTINGS_FIELDS].sort());
    expect(FIELD_TOOLS.size).toBe(CATALOG.size);
  });

  it("reads every tool's variables back into parameters that pass its schema and give the same variables", () => {
    for (const tool of CATALOG.values()) {
      const [field] = [...FIELD_TOOLS.values()].filter((f) => f.tool === tool);
      expect(field, tool.name).toBeDefined();
      for (const example of examplesIn(tool.description)) {
        const variables = JSON.parse(JSON.stringify(tool.operation.variables(tool.input.parse(example)))) as Record<string, unknown>;
        const parsed = tool.input.safeParse(toolParams(field!, variables));
        expect(parsed.success ? 'ok' : parsed.error.message, `${tool.name} ${JSON.stringify(example)}`).toBe('ok');
        expect(isDeepStrictEqual(JSON.parse(JSON.stringify(tool.operation.variables(parsed.data!))), variables), tool.name).toBe(true);
      }
    }
  });
});

let h: Harness;
let companyId: string;
beforeAll(async () => {
  h = await startHarness();
  const created = await callTool(h, 'rest', h.ws.owner.key, 'records.create', { object_type_slug: 'companies', data: { name: 'Acme' } });
  companyId = (created as { result: { record_id: string } }).result.record_id;
});
afterAll(async () => {
  useDirectGraphQL(true);
  await h?.close();
});

interface GraphQLAnswer {
  status: number;
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: { code?: string; details?: Record<string, unknown> } }>;
}

async function graphql(query: string, variables: Record<string, unknown> = {}, key = h.ws.owner.key): Promise<GraphQLAnswer> {
  const res = await fetch(`${h.url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, ...(await res.json()) };
}

const long = (n: number) => 'x'.repeat(n);
const sorts = (n: number) => Array.from({ length: n }, () => ({ field: 'name', ascending: true }));

/** Calls REST refuses, as [tool, params, the same call's /graphql variables where they differ]. */
const REFUSED: Array<[string, Record<string, unknown>, Record<string, unknown>?]> = [
  ['meetings.create', { title: 'Demo', starts_at: '2026-12-01T10:00:00Z', ends_at: '2026-12-01T11:00:00Z', attendees: Array.from({ length: 101 }, (_, i) => ({ email: `a${i}@example.com` })) }],
  ['meetings.create', { title: long(1000), starts_at: '2026-12-01T10:00:00Z', ends_at: '2026-12-01T11:00:00Z' }],
  ['views.create', { name: 'Eleven', object_type_slug: 'companies', sorts: sorts(11) }],
  ['notes.create', { title: 'Many', body: 'b', record_ids: Array.from({ length: 101 }, (_, i) => `rec_${i}`) }],
  ['objects.update', { slug: 'companies', color: long(21) }],
  ['lists.create', { object_type_slug: 'companies', name: 'L', description: long(5000) }],
  ['records.create', { object_type_slug: 'Bad Slug!', data: { name: 'x' } }],
  ['records.list', { object_type_slug: 'companies', page_size: 101 }],
  ['objects.update_field', { slug: 'companies', field_slug: 'name', name: long(101) }, { slug: 'companies', field_slug: 'name', patch: { name: long(101) } }],
];

for (const direct of [true, false]) {
  describe(`/graphql refuses what the tools refuse (${direct ? 'direct path' : 'through yoga'})`, () => {
    beforeAll(() => useDirectGraphQL(direct));

    for (const [tool, params, variables] of REFUSED) {
      it(`${tool} ${JSON.stringify(params).slice(0, 80)}`, async () => {
        const rest = await callTool(h, 'rest', h.ws.owner.key, tool, params);
        expect(rest.ok, 'REST refuses it').toBe(false);
        if (rest.ok) return;
        const answer = await graphql(CATALOG.get(tool)!.operation.document, variables ?? params);
        expect(answer.status).toBe(rest.status);
        expect(answer.data ?? null).toBeNull();
        const [error] = answer.errors!;
        expect(error!.message).toBe(rest.message);
        expect(error!.extensions?.code).toBe(rest.code);
        expect(error!.extensions?.details?.param).toBe(rest.details?.param);
        const [rootField] = [...FIELD_TOOLS].find(([, f]) => f.tool.name === tool)!;
        expect(error!.extensions?.details?.field).toBe(rootField.split('.')[1]);
      });
    }

    it('runs no field of an operation one of whose fields is refused, and names the refused one by its alias', async () => {
      const before = await callTool(h, 'rest', h.ws.owner.key, 'records.list', { object_type_slug: 'companies' });
      const answer = await graphql(`mutation($d: JSON!, $long: String!) {
        good: createRecord(object_type_slug: "companies", data: $d) { record_id }
        ...More
      }
      fragment More on Mutation { bad: createNote(title: $long, body: "b") { note_id } }`, { d: { name: 'Never' }, long: long(501) });
      expect(answer.status).toBe(400);
      expect(answer.errors![0]!.extensions).toMatchObject({ code: 'validation_error', details: { param: 'title', field: 'bad' } });
      const after = await callTool(h, 'rest', h.ws.owner.key, 'records.list', { object_type_slug: 'companies' });
      expect((after as { result: { total: number } }).result.total).toBe((before as { result: { total: number } }).result.total);
    });

    it('checks arguments written as literals, and leaves a field @skip drops alone', async () => {
      const literal = await graphql(`mutation { updateObjectType(slug: "companies", color: "${long(21)}") { slug } }`);
      expect(literal.status).toBe(400);
      expect(literal.errors![0]!.extensions).toMatchObject({ code: 'validation_error', details: { param: 'color', field: 'updateObjectType' } });
      const skipped = await graphql(`query($skip: Boolean!) { record(record_id: "${companyId}") { record_id } records(object_type_slug: "companies", page_size: 500) @skip(if: $skip) { total } }`, { skip: true });
      expect(skipped.errors).toBeUndefined();
      expect(skipped.data).toEqual({ record: { record_id: companyId } });
    });

    it('tells a key outside the tool\'s scope only that, whatever its arguments', async () => {
      const answer = await graphql(CATALOG.get('meetings.create')!.operation.document, { title: long(1000), starts_at: 'x', ends_at: 'y' }, h.ws.recordsOnly);
      expect(answer.errors![0]!.extensions?.code).toBe('permission_denied');
      expect(JSON.stringify(answer)).not.toContain('title');
    });

    it('takes what the tools take, null for an argument left out included', async () => {
      const answer = await graphql(`query($p: Int) { records(object_type_slug: "companies", page_size: 5, page: $p) { total } }`, { p: null });
      expect(answer.errors).toBeUndefined();
      expect((answer.data!.records as { total: number }).total).toBeGreaterThan(0);
    });
  });
}
