import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/domain/limits.ts';
import { metrics } from '../../gateway/metrics.ts';
import { CATALOG } from '../../gateway/tools/index.ts';
import { useDirectGraphQL } from '../../gateway/transports/graphql-direct.ts';
import { startHarness, type Harness } from '../e2e/harness.ts';

let h: Harness;
let recordId: string;
beforeAll(async () => {
  h = await startHarness();
  const created = await send({ query: 'mutation($d: JSON!) { createRecord(object_type_slug: "companies", data: $d) { record_id } }', variables: { d: { name: 'Acme' } } });
  recordId = JSON.parse(created.body).data.createRecord.record_id;
});
afterAll(async () => {
  useDirectGraphQL(true);
  await h?.close();
});

interface Answer {
  status: number;
  type: string | null;
  body: string;
}

async function send(body: unknown, headers: Record<string, string> = {}, key = h.ws.owner.key): Promise<Answer> {
  const res = await fetch(`${h.url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

const catalog = (tool: string, params: Record<string, unknown>) => ({ query: CATALOG.get(tool)!.operation.document, variables: CATALOG.get(tool)!.operation.variables(params) });
const RECORD = 'query($id: String!) { record(record_id: $id) { record_id display_name } }';
const PAGE = 'records(object_type_slug: "companies", page_size: 100) { items { record_id data display_name created_at updated_at } total }';
const SIZED = 'query($n: Int) { records(object_type_slug: "companies", page_size: $n) { items { record_id data display_name created_at updated_at } } }';

/** Requests whose answers must not depend on which path serves them (none of them changes data). */
const TABLE: { name: string; body: () => unknown; headers?: Record<string, string>; key?: () => string }[] = [
  { name: 'records.get of a record', body: () => catalog('records.get', { record_id: recordId }) },
  { name: 'records.get of a missing record', body: () => catalog('records.get', { record_id: 'rec_01J9ZK3M4N5P6Q7R8S9T0V1W' }) },
  { name: 'objects.get', body: () => catalog('objects.get', { slug: 'deals' }) },
  { name: 'a variable of the wrong type', body: () => ({ query: RECORD, variables: { id: 5 } }) },
  { name: 'a missing required variable', body: () => ({ query: RECORD, variables: {} }) },
  { name: 'null variables', body: () => ({ query: RECORD, variables: null }) },
  { name: 'an Int past 32 bits in an input object', body: () => ({
    query: 'mutation($fields: [FieldInput!]!) { createObjectType(slug: "gadgets", name: "Gadgets", fields: $fields) { slug } }',
    variables: { fields: [{ slug: 'size', name: 'Size', type: 'number', max: 9005847464246845 }] },
  }) },
  { name: 'a mutation the role may not run', key: () => h.ws.member.key, body: () => ({ query: 'mutation { createObjectType(slug: "x_member", name: "X", fields: [{slug: "name", name: "Name", type: text}]) { slug } }' }) },
  { name: 'a mutation with invalid data', body: () => ({ query: 'mutation($d: JSON!) { createRecord(object_type_slug: "contacts", data: $d) { id } }', variables: { d: { nam: 'x' } } }) },
  { name: 'a query outside the key\'s scopes', key: () => h.ws.recordsOnly, body: () => ({ query: '{ objectTypes { slug } }' }) },
  { name: 'a chosen operation', body: () => ({ query: `query A { objectTypes { slug } } query B { ${PAGE} }`, operationName: 'B' }) },
  { name: 'an unknown operation name', body: () => ({ query: 'query A { objectTypes { slug } }', operationName: 'C' }) },
  { name: 'two operations and no name', body: () => ({ query: 'query A { objectTypes { slug } } query B { objectTypes { name } }' }) },
  { name: '@include with a variable', body: () => ({ query: 'query($f: Boolean!) { objectTypes { slug name @include(if: $f) } }', variables: { f: false } }) },
  { name: 'aliased pages within the cost bound', body: () => ({ query: `{ ${Array.from({ length: 28 }, (_, i) => `a${i}: ${PAGE}`).join(' ')} }` }) },
  { name: 'aliased pages past the cost bound', body: () => ({ query: `{ ${Array.from({ length: 29 }, (_, i) => `a${i}: ${PAGE}`).join(' ')} }` }) },
  { name: 'a page size within the cost bound, as a variable', body: () => ({ query: SIZED, variables: { n: 5 } }) },
  // The same document as the row above: a cost remembered for one page size must not answer for another.
  { name: 'a page size past the cost bound, as a variable', body: () => ({ query: SIZED, variables: { n: LIMITS.graphql.maxCost } }) },
  { name: 'a document too deep', body: () => ({ query: `{ objectTypes ${'{ fields '.repeat(LIMITS.graphql.maxDepth)}{ slug }${' }'.repeat(LIMITS.graphql.maxDepth + 1)}` }) },
  { name: 'a syntax error', body: () => ({ query: '{ objectTypes { slug }' }) },
  { name: 'an unknown field', body: () => ({ query: '{ objectTypes { nope } }' }) },
  { name: 'an unexpected parameter', body: () => ({ query: '{ objectTypes { slug } }', extra: 1 }) },
  { name: 'a query that is not a string', body: () => ({ query: 5 }) },
  { name: 'a subscription', body: () => ({ query: 'subscription { objectTypes { slug } }' }) },
  { name: 'a body that is not JSON', body: () => '{"query": ' },
  { name: 'an Accept of JSON', headers: { Accept: 'application/json' }, body: () => ({ query: '{ objectTypes { slug } }' }) },
  { name: 'an Accept of the GraphQL response type', headers: { Accept: 'application/graphql-response+json' }, body: () => catalog('records.get', { record_id: 'rec_01J9ZK3M4N5P6Q7R8S9T0V1W' }) },
  { name: 'an Origin', headers: { Origin: 'https://app.example' }, body: () => ({ query: '{ objectTypes { slug } }' }) },
];

describe('/graphql answers a plain JSON POST directly', () => {
  it('answers the catalog operations without yoga', async () => {
    const before = await metrics.value('crm_graphql_direct_total');
    const answer = await send(catalog('records.get', { record_id: recordId }));
    expect(JSON.parse(answer.body).data.record.record_id).toBe(recordId);
    expect(await metrics.value('crm_graphql_direct_total')).toBe(before + 1);
  });

  for (const row of TABLE) {
    it(`gives ${row.name} the status, content type and body yoga gives it`, async () => {
      const key = row.key?.() ?? h.ws.owner.key;
      useDirectGraphQL(false);
      const viaYoga = await send(row.body(), row.headers, key);
      useDirectGraphQL(true);
      const direct = await send(row.body(), row.headers, key);
      expect(direct).toEqual(viaYoga);
    });
  }
});
