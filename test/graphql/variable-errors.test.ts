import { execute, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG } from '../../gateway/tools/index.ts';
import { useDirectGraphQL } from '../../gateway/transports/graphql-direct.ts';
import { runCompiled } from '../../gateway/transports/graphql-jit.ts';
import { compileOperation } from '../../src/graphql/execute.ts';
import { schema } from '../../src/graphql/schema.ts';
import { startHarness, type Harness } from '../e2e/harness.ts';
import { counted } from './counted.ts';

/**
 * Variables that do not fit their types are answered as the standard executor answers them: at
 * most 50 errors, then "Too many errors…", each a 400 validation_error naming the variables.
 * graphql-jit, which runs /graphql's operations, reports every bad value; a list of 1,700 bad
 * entries (the fuzz harness's find) gave 3,400 errors and stalled the server for seconds.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  useDirectGraphQL(true);
  await h?.close();
});

const BULK = CATALOG.get('lists.bulk_add_entry')!.operation.document;
const TOO_MANY = 'Too many errors processing variables, error limit reached. Execution aborted.';

interface Answer {
  status: number;
  errors: Array<{ message: string; extensions?: { code?: string; details?: { param?: string } } }>;
}

async function send(variables: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(`${h.url}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: BULK, variables }),
  });
  return { status: res.status, errors: (await res.json()).errors ?? [] };
}

/** The errors graphql-js's own executor gives the same variables (it stops at 50). */
async function standardMessages(variables: Record<string, unknown>): Promise<string[]> {
  const result = await execute({ schema, document: parse(BULK), variableValues: variables, contextValue: {} });
  return (result.errors ?? []).map((error) => error.message);
}

describe('/graphql variables that do not fit their types', () => {
  // 100 entries with no record_id (below the count past which graphql-js checks first: graphql-jit
  // reports all 100, cut to 50), 300 and 1,700 strings where entries are objects (checked first).
  const cases: Array<[string, () => unknown[]]> = [
    ['100 entries missing their record_id', () => Array.from({ length: 100 }, () => ({ data: {} }))],
    ['300 strings for entries', () => Array.from({ length: 300 }, (_, i) => `s${i}`)],
    ['1,700 strings for entries', () => Array.from({ length: 1700 }, (_, i) => `s${i}`)],
  ];
  for (const direct of [true, false]) {
    for (const [name, entries] of cases) {
      it(`answers ${name} with the standard executor's 50 errors and its last (${direct ? 'direct path' : 'through yoga'})`, async () => {
        const variables = { list_id: 'lst_x', entries: entries() };
        useDirectGraphQL(direct);
        const answer = await send(variables);
        useDirectGraphQL(true);
        expect(answer.status).toBe(400);
        expect(answer.errors).toHaveLength(51);
        expect(answer.errors.at(-1)!.message).toBe(TOO_MANY);
        for (const error of answer.errors) expect(error.extensions).toMatchObject({ code: 'validation_error', details: { param: 'variables' } });
        expect(answer.errors.map((error) => error.message)).toEqual(await standardMessages(variables));
      });
    }
  }

  it('still runs an operation whose many list items all fit their types (checked, then executed)', async () => {
    // 100 entries (the tool's most) holding 400 list items in all, past the 256 checked first.
    const answer = await send({ list_id: 'lst_x', entries: Array.from({ length: 100 }, (_, i) => ({ record_id: `rec_${i}`, data: { tags: ['a', 'b', 'c'] } })) });
    // Past the variables the operation runs, and the service answers: there is no such list.
    expect(answer.status).toBe(200);
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors[0]!.extensions).toMatchObject({ code: 'not_found', details: { param: 'list_id' } });
  });
});

describe('runCompiled', () => {
  const document = parse(BULK);
  const compiled = compileOperation(schema, document)!;

  it('stops reading a long list of bad values where the standard executor gives up', async () => {
    const entries = counted(Array.from({ length: 1700 }, (_, i) => `s${i}`));
    const result = await runCompiled(compiled, schema, document, undefined, undefined, {}, { list_id: 'lst_x', entries: entries.list });
    expect(result.errors).toHaveLength(51);
    expect(entries.reads()).toBeLessThan(100);
  });
});
