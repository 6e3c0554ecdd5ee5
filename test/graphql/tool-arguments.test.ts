import { isDeepStrictEqual } from 'node:util';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CATALOG } from '../../gateway/tools/index.ts';
import { examplesIn } from '../../gateway/tools/manual.ts';
import { useDirectGraphQL } from '../../gateway/transports/graphql-direct.ts';
import { checkToolArguments, FIELD_TOOLS, toolParams } from '../../gateway/transports/graphql-tool-args.ts';
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

describe('the work of checking an operation', () => {
  const list = CATALOG.get('records.list')!;
  const actor = { workspace_id: 'ws_x', user_id: 'usr_x', role: 'owner', key_id: null, scopes: [], via: 'graphql', tool: null, plan: 'pro', trial_ends_at: null } as const;

  it('checks fields of one tool with the same argument values once, and lets other work run between two checks', async () => {
    const original = list.input.safeParse.bind(list.input);
    const spy = vi.spyOn(list.input, 'safeParse');
    try {
      const aliases = Array.from({ length: 30 }, (_, i) => `a${i}: records(object_type_slug: "companies", filters: $f) { total }`).join(' ');
      await checkToolArguments(schema, parse(`query($f: JSON) { ${aliases} }`), undefined, { f: { name: { contains: 'x' } } }, actor);
      expect(spy).toHaveBeenCalledTimes(1);
      spy.mockClear();
      // Two different checks: a task queued during the first has run by the second.
      let ran = false;
      const seen: boolean[] = [];
      spy.mockImplementation((...args) => {
        seen.push(ran);
        if (seen.length === 1) setImmediate(() => { ran = true; });
        return original(...args);
      });
      await checkToolArguments(schema, parse('{ a: records(object_type_slug: "companies", page: 1) { total } b: records(object_type_slug: "companies", page: 2) { total } }'), undefined, {}, actor);
      expect(seen).toEqual([false, true]);
    } finally {
      spy.mockRestore();
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
        expect(error!.extensions?.details?.graphql_field).toBe(rootField.split('.')[1]);
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
      expect(answer.errors![0]!.extensions).toMatchObject({ code: 'validation_error', details: { param: 'title', graphql_field: 'bad' } });
      const after = await callTool(h, 'rest', h.ws.owner.key, 'records.list', { object_type_slug: 'companies' });
      expect((after as { result: { total: number } }).result.total).toBe((before as { result: { total: number } }).result.total);
    });

    it('checks arguments written as literals, and leaves a field @skip drops alone', async () => {
      const literal = await graphql(`mutation { updateObjectType(slug: "companies", color: "${long(21)}") { slug } }`);
      expect(literal.status).toBe(400);
      expect(literal.errors![0]!.extensions).toMatchObject({ code: 'validation_error', details: { param: 'color', graphql_field: 'updateObjectType' } });
      const skipped = await graphql(`query($skip: Boolean!) { record(record_id: "${companyId}") { record_id } records(object_type_slug: "companies", page_size: 500) @skip(if: $skip) { total } }`, { skip: true });
      expect(skipped.errors).toBeUndefined();
      expect(skipped.data).toEqual({ record: { record_id: companyId } });
    });

    it.each([
      ['a skipped inline fragment', `query { objectTypes { slug } ... @skip(if: true) { records(object_type_slug: "companies", page_size: 500) { total } } }`, {}],
      ['a fragment spread left out by a variable', `query($v: Boolean!) { objectTypes { slug } ...F @include(if: $v) } fragment F on Query { records(object_type_slug: "companies", page_size: 500) { total } }`, { v: false }],
      ['an inline fragment left out by a defaulted variable', `query($v: Boolean = false) { objectTypes { slug } ... on Query @include(if: $v) { searchRecords(query: "") { total } } }`, {}],
    ])('leaves out the fields of %s, as execution does', async (_, query, variables) => {
      const answer = await graphql(query, variables);
      expect(answer.errors).toBeUndefined();
      expect(Object.keys(answer.data!)).toEqual(['objectTypes']);
    });

    it('checks every other field when a condition is sent as null, which no executor reads as a skip', async () => {
      const answer = await graphql(`mutation($s: Boolean = false) { z: createNote(title: "z") @skip(if: $s) { note_id } bad: createNote(title: "${long(501)}") { note_id } }`, { s: null });
      expect(answer.status).toBe(400);
      expect(answer.errors![0]!.extensions).toMatchObject({ code: 'validation_error', details: { param: 'title', graphql_field: 'bad' } });
    });

    it('checks a fragment spread twice once it is included by either spread', async () => {
      const answer = await graphql(`query($v: Boolean!) { ...F @include(if: $v) ...F } fragment F on Query { records(object_type_slug: "companies", page_size: 500) { total } }`, { v: false });
      expect(answer.status).toBe(400);
      expect(answer.errors![0]!.extensions).toMatchObject({ code: 'validation_error', details: { param: 'page_size' } });
    });

    it.each([
      ['an attendee', `mutation { createMeeting(title: "m", starts_at: "2026-12-01T10:00:00Z", ends_at: "2026-12-01T11:00:00Z", attendees: [{email: "a@example.com", record_id: null}]) { meeting_id } }`],
      ['a view sort', `mutation { createView(name: "n", object_type_slug: "deals", sorts: [{field: "amount", ascending: null}]) { view_id } }`],
      ['a new field', `mutation { addField(slug: "companies", field: {slug: "f_${direct ? 'direct' : 'yoga'}", name: "A", type: text, description: null}) { slug } }`],
      ['a list field', `mutation { createList(object_type_slug: "companies", name: "L", fields: [{slug: "s", name: "S", type: text, unique: null}]) { list_id } }`],
      ['a field patch', `mutation { updateField(slug: "companies", field_slug: "name", patch: {description: null}) { slug } }`],
    ])('reads a null in %s\'s input object as left out, where the parameter takes no null', async (_, query) => {
      const answer = await graphql(query);
      expect(answer.errors).toBeUndefined();
    });

    it('keeps nulls inside a JSON argument, which are data: refused where REST refuses them', async () => {
      const params = { name: 'r', config: { object_type_slug: 'deals', metric: 'count', metric_field: null } };
      const rest = await callTool(h, 'rest', h.ws.owner.key, 'reports.create', params);
      const answer = await graphql(CATALOG.get('reports.create')!.operation.document, params);
      expect(rest.ok ? 'ok' : rest.code).toBe(answer.errors ? answer.errors[0]!.extensions?.code : 'ok');
    });

    it('refuses null for a required argument whole, before any field runs', async () => {
      const before = (await callTool(h, 'rest', h.ws.owner.key, 'notes.list', { page_size: 1 })) as { result: { total: number } };
      const answer = await graphql(`mutation($r: String = "rec_x") { a: createNote(title: "t", body: "b") { note_id } b: deleteRecord(record_id: $r) { record_id } }`, { r: null });
      expect(answer.status).toBe(400);
      expect(answer.errors![0]!.extensions).toMatchObject({ code: 'validation_error', details: { param: 'record_id', graphql_field: 'b' } });
      const after = (await callTool(h, 'rest', h.ws.owner.key, 'notes.list', { page_size: 1 })) as { result: { total: number } };
      expect(after.result.total).toBe(before.result.total);
    });

    it('charges a refused operation one call per root field, as the tool calls it stands for are charged', async () => {
      const key = await h.keyFor(h.ws, h.ws.owner.user_id);
      const remaining = async (res: Response) => Number(/r=(\d+)/.exec(res.headers.get('RateLimit') ?? '')?.[1]);
      const send = (query: string) => fetch(`${h.url}/graphql`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query }) });
      const first = await remaining(await send('{ billing { plan } }'));
      const refused = await send(`mutation { a: updateObjectType(slug: "companies", color: "${long(21)}") { slug } b: updateObjectType(slug: "deals") { slug } c: updateObjectType(slug: "contacts") { slug } }`);
      expect(refused.status).toBe(400);
      expect(await remaining(await send('{ billing { plan } }'))).toBe(first - 4);
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
