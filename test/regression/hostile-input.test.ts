import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/domain/limits.ts';
import { callTool, rpc, startHarness, STYLES, type Harness } from '../e2e/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const owner = () => h.ws.owner.key;
/** Parameters from raw JSON, so `__proto__` stays an own key as a client would send it. */
const raw = (json: string) => JSON.parse(json) as Record<string, unknown>;
const MB = 1_000_000;

async function timelineTotal(): Promise<number> {
  const out = await callTool(h, 'rest', owner(), 'timeline.list', { page_size: 1 });
  if (!out.ok) throw new Error(out.message);
  return out.result.total;
}

describe.each(STYLES)('oversize strings over %s', (style) => {
  it.each([
    ['a filter key', 'records.list', { object_type_slug: 'companies', filters: { ['f'.repeat(MB)]: 'x' } }, /^filters\.f+…$/],
    ['a sort_field', 'records.list', { object_type_slug: 'companies', sort_field: 's'.repeat(MB) }, /^sort_field$/],
    ['a data key', 'records.create', { object_type_slug: 'companies', data: { ['d'.repeat(MB)]: 1 } }, /^data\.d+…$/],
    ['an object slug', 'records.list', { object_type_slug: 'o'.repeat(MB) }, /^object_type_slug$/],
    ['a note kind', 'notes.list', { kind: 'k'.repeat(MB) }, /^kind$/],
    ['a task status', 'tasks.list', { status: 's'.repeat(MB) }, /^status$/],
  ])('refuses 1 MB as %s with validation_error naming it', async (_, tool, params, param) => {
    const out = await callTool(h, style, owner(), tool, params);
    expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error' });
    expect(out.ok || out.details.param).toMatch(param);
  });

  it.each([
    ['graph.unlink', 'link_id', 'rel'], ['integrations.disconnect', 'integration_id', 'int'], ['messages.list', 'thread_id', 'thr'], ['messages.send', 'thread_id', 'thr'],
  ])('refuses a 99 KB id on %s past its schema bound, instead of echoing it in a 404', async (tool, param, prefix) => {
    const params = { [param]: `${prefix}_${'X'.repeat(99_000)}`, ...(tool === 'messages.send' ? { channel: 'chat', body: 'hi' } : {}) };
    const out = await callTool(h, style, owner(), tool, params);
    expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param, rule: 'max', max: LIMITS.idMaxLength } });
  });

  it('refuses a sort_field or a data key past its schema bound', async () => {
    const long = 'a'.repeat(LIMITS.fieldKeyMaxLength + 1);
    const sort = await callTool(h, style, owner(), 'records.list', { object_type_slug: 'companies', sort_field: long });
    expect(sort).toMatchObject({ status: 400, code: 'validation_error', details: { param: 'sort_field', rule: 'max' } });
    const key = await callTool(h, style, owner(), 'records.create', { object_type_slug: 'companies', data: { [long]: 1 } });
    expect(key).toMatchObject({ status: 400, code: 'validation_error', details: { param: expect.stringMatching(/^data\./) } });
  });

  it(`refuses parameters nested more than ${LIMITS.nestingMaxDepth} levels deep`, async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 1000; i++) deep = [deep];
    const out = await callTool(h, style, owner(), 'records.list', { object_type_slug: 'companies', filters: { name: deep } });
    expect(out).toMatchObject({ status: 400, code: 'validation_error', details: { rule: 'max_depth' } });
  });
});

describe.each(STYLES)('partial-match text over %s', (style) => {
  const call = (tool: string, params: unknown) => callTool(h, style, owner(), tool, params);

  it.each([
    ['49,999 ASCII characters', 'x'.repeat(49_999)],
    ['25,000 escaped wildcards', '%'.repeat(25_000)],
    ['16,667 three-byte characters', '日'.repeat(16_667)],
  ])('refuses %s (past any text value; once a 500 from SQLite\'s LIKE) in lists, views and reports alike', async (_, text) => {
    const filters = { name: { contains: text } };
    const expected = { ok: false, status: 400, code: 'validation_error', details: { rule: 'max_length', max: 10_000 } };
    expect(await call('records.list', { object_type_slug: 'companies', filters })).toMatchObject({ ...expected, details: { ...expected.details, param: 'filters.name.contains' } });
    expect(await call('views.create', { name: 'Long', object_type_slug: 'companies', filters })).toMatchObject(expected);
    const report = await call('reports.create', {
      name: 'Long', config: { object_type: 'companies', metric: 'count', chart_type: 'number', filters: [{ field: 'name', operator: 'starts_with', value: text }] },
    });
    expect(report).toMatchObject({ ...expected, details: { ...expected.details, param: 'config.filters[0].value' } });
  });

  it('refuses a number past 1e15, so no sum in analytics or reports overflows to Infinity', async () => {
    const out = await call('records.create', { object_type_slug: 'deals', data: { name: `Huge ${style}`, amount: 1e308 } });
    expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'data.amount', rule: 'max' } });
    expect(await call('analytics.pipeline', {})).toMatchObject({ ok: true });
  });

  it('refuses NUL in a filter, which once matched every record, and in a value, which hid it from substring filters', async () => {
    const list = await call('records.list', { object_type_slug: 'companies', filters: { name: { contains: '\u0000' } } });
    expect(list).toMatchObject({ ok: false, status: 400, details: { param: 'filters.name.contains', rule: 'unicode' } });
    const create = await call('records.create', { object_type_slug: 'companies', data: { name: 'nul\u0000byte' } });
    expect(create).toMatchObject({ ok: false, status: 400, details: { param: 'data.name', rule: 'unicode' } });
  });
});

describe('huge ids where no schema bounds them', () => {
  it('answers a 90 KB link id on /graphql without echoing it back whole', async () => {
    const res = await fetch(`${h.url}/graphql`, {
      method: 'POST', headers: { authorization: `Bearer ${owner()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation($l: String) { unlinkRecords(link_id: $l) { removed } }', variables: { l: `rel_${'X'.repeat(90_000)}` } }),
    });
    const text = await res.text();
    expect(text.length).toBeLessThan(10_000);
    // Refused as REST refuses it: an id past its bound, before anything runs.
    expect(res.status).toBe(400);
    expect(JSON.parse(text).errors[0].extensions).toMatchObject({ code: 'validation_error', details: { param: 'link_id', graphql_field: 'unlinkRecords' } });
  });
});

describe('bounds on literals written in a /graphql document', () => {
  const graphql = async (query: string) => {
    const res = await fetch(`${h.url}/graphql`, {
      method: 'POST', headers: { authorization: `Bearer ${owner()}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }),
    });
    return { status: res.status, body: await res.json() as { data?: unknown; errors?: Array<{ message: string; extensions: { code: string; details?: { param?: string; rule?: string } } }> } };
  };

  it.each([
    ['a NUL in a string argument', 'mutation { createNote(title: "a\\u0000b") { note_id } }', 'title', 'unicode'],
    ['a constructor key in a JSON argument', 'query { records(object_type_slug: "companies", filters: {constructor: {prototype: {x: 1}}}) { total } }', 'filters.constructor', 'unknown_parameter'],
    ['a key past 128 characters', `query { records(object_type_slug: "companies", filters: {${'k'.repeat(200)}: 1}) { total } }`, undefined, 'key_max'],
    ['forty levels of nesting', `query { records(object_type_slug: "companies", filters: ${'{a: '.repeat(40)}1${'}'.repeat(40)}) { total } }`, undefined, 'max_depth'],
  ])('refuses %s as the tool call styles do, before anything runs', async (_, query, param, rule) => {
    const before = (await callTool(h, 'rest', owner(), 'notes.list', { page_size: 1 }));
    const out = await graphql(query);
    // A document that fails validation is answered as GraphQL over HTTP answers it in JSON (200).
    expect(out.body.data).toBeUndefined();
    expect(out.body.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', details: { rule, ...(param ? { param } : {}) } });
    expect(await callTool(h, 'rest', owner(), 'notes.list', { page_size: 1 })).toMatchObject({ result: { total: before.ok ? before.result.total : -1 } });
  });

  it('refuses an Idempotency-Key, which /graphql would otherwise ignore and let a retried mutation write twice', async () => {
    const res = await fetch(`${h.url}/graphql`, {
      method: 'POST', headers: { authorization: `Bearer ${owner()}`, 'content-type': 'application/json', 'idempotency-key': 'k-42' },
      body: JSON.stringify({ query: 'mutation { createNote(title: "retry") { note_id } }' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'validation_error', details: { param: 'Idempotency-Key', rule: 'unsupported' } });
  });

  it('still runs an operation whose literals are within the bounds', async () => {
    const out = await graphql('mutation { createNote(title: "fine \\u00e9 😀") { title } }');
    expect(out).toMatchObject({ status: 200, body: { data: { createNote: { title: 'fine é 😀' } } } });
  });
});

describe('oversize tool names', () => {
  it('refuses a 1 MB tool name on the bridge with validation_error on tool', async () => {
    const out = await callTool(h, 'bridge', owner(), 'x'.repeat(MB), {});
    expect(out).toMatchObject({ status: 400, code: 'validation_error', details: { param: 'tool' } });
  });

  it('refuses a 100 KB tool name on MCP as invalid params', async () => {
    const res = await rpc(h, owner(), { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x'.repeat(100_000), arguments: {} } });
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.message).toMatch(/at most 64 characters/);
  });
});

describe.each(STYLES)('prototype keys over %s', (style) => {
  it('refuses a __proto__ filter instead of dropping it and listing every record', async () => {
    const out = await callTool(h, style, owner(), 'records.list', raw('{"object_type_slug": "companies", "filters": {"__proto__": {"name": "nomatch"}}}'));
    expect(out).toMatchObject({ status: 400, code: 'validation_error', details: { param: 'filters.__proto__', rule: 'unknown_parameter' } });
  });

  it('refuses a view whose filters hold __proto__, and saves nothing', async () => {
    const before = await timelineTotal();
    const out = await callTool(h, style, owner(), 'views.create', raw('{"name": "v", "object_type_slug": "companies", "filters": {"__proto__": {"name": "x"}}}'));
    expect(out).toMatchObject({ status: 400, code: 'validation_error', details: { param: 'filters.__proto__' } });
    expect(await timelineTotal()).toBe(before);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses %s as a data key of records.update, changing nothing', async (key) => {
    const created = await callTool(h, style, owner(), 'records.create', { object_type_slug: 'companies', data: { name: `Proto ${style} ${key}` } });
    if (!created.ok) throw new Error(created.message);
    const before = await timelineTotal();
    const out = await callTool(h, style, owner(), 'records.update', raw(`{"record_id": "${created.result.record_id}", "data": {"${key}": {"name": "x"}}}`));
    expect(out).toMatchObject({ status: 400, code: 'validation_error', details: { param: `data.${key}`, rule: 'unknown_parameter' } });
    expect(await timelineTotal()).toBe(before);
  });

  it('refuses a top-level __proto__ parameter like any other unknown parameter', async () => {
    const out = await callTool(h, style, owner(), 'records.list', raw('{"object_type_slug": "companies", "__proto__": {"page_size": 1}}'));
    expect(out).toMatchObject({ status: 400, code: 'validation_error', details: { param: '__proto__', rule: 'unknown_parameter' } });
  });

});

describe('prototype keys hidden in JSON escapes', () => {
  it('refuses a __proto__ key written with a unicode escape', async () => {
    const res = await fetch(`${h.url}/v1/records/list`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${owner()}`, 'Content-Type': 'application/json' },
      body: '{"object_type_slug": "companies", "filters": {"\\u005f_proto__": {}}}',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'validation_error', details: { param: 'filters.__proto__' } });
  });
});

describe('bodies over the limit', () => {
  it('answers 413 to a chunked body without a length once it passes the limit, and the client reads it', async () => {
    const chunk = new TextEncoder().encode(`"${'x'.repeat(64 * 1024)}",`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"object_type_slug": "companies", "filters": {"name": {"in": ['));
        if (sent > 2 * LIMITS.bodyMaxBytes) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${h.url}/v1/records/list`, {
      method: 'POST', headers: { Authorization: `Bearer ${owner()}`, 'Content-Type': 'application/json' }, body, duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
  });
});
