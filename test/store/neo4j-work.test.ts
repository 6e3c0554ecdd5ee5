import { describe, expect, it } from 'vitest';
import { CrmError } from '../../src/domain/errors.ts';
import type { NewEvent, NewRecord } from '../../src/domain/store/port.ts';
import type { Connection, Row, Tx } from '../../src/store/neo4j/connection.ts';
import { entryMethods } from '../../src/store/neo4j/entries.ts';
import { noteMethods } from '../../src/store/neo4j/notes.ts';
import { recordMethods } from '../../src/store/neo4j/records.ts';
import { registeredStatements, type BuiltStatement } from '../../src/store/neo4j/statement.ts';
import { timelineMethods } from '../../src/store/neo4j/timeline.ts';
import '../../src/store/neo4j/index.ts';

/**
 * The decisions the Neo4j adapter takes in TypeScript between its statements — which failure of a
 * batch it reports, in which order it writes, what it binds — checked without a server: a scripted
 * transaction answers each registered statement by name and logs what was sent.
 */

type Answer = (name: string, params: Record<string, unknown>) => Row[];
interface Sent {
  name: string;
  params: Record<string, unknown>;
}

function scripted(answer: Answer = () => []): { conn: Connection; sent: Sent[]; names: () => string[] } {
  const byCypher = new Map(registeredStatements().map((s) => [s.cypher, s.name]));
  const sent: Sent[] = [];
  const tx = {
    async rows(built: BuiltStatement): Promise<Row[]> {
      const name = byCypher.get(built.cypher) ?? `built: ${built.cypher.split('\n')[0]}`;
      sent.push({ name, params: built.params });
      return answer(name, built.params);
    },
    async first(built: BuiltStatement): Promise<Row | undefined> {
      return (await tx.rows(built))[0];
    },
  } as unknown as Tx;
  const conn = { read: (work: (t: Tx) => Promise<unknown>) => work(tx), write: (work: (t: Tx) => Promise<unknown>) => work(tx) };
  return { conn: conn as unknown as Connection, sent, names: () => sent.map((s) => s.name) };
}

const WS = 'ws_01JB0000000000000000000000';
/** A unique field, as the store holds it. */
const uniqueField = (slug: string, type: string) => ({ id: `fld_${slug}`, slug, name: slug, type, unique: true, position: 0, created_at: 'x' });
const objectType = (slug: string): Row => ({
  object_type: { id: `obj_${slug}`, workspace_id: WS, slug, name: slug, created_at: 'x', updated_at: 'x', deleted_at: null },
  fields: slug === 'contacts' ? [uniqueField('email', 'email')] : slug === 'companies' ? [uniqueField('code', 'text')] : [],
});
const record = (id: string): Row => ({ record: { id } });
const event = (resourceId: string, recordIds: string[] = []): NewEvent => ({
  actor_id: null, key_id: null, via: 'rest', tool: 't', action: 'create', resource_type: 'record', resource_id: resourceId, record_ids: recordIds, diff: null,
});
const newRecord = (slug: string, extra: Partial<NewRecord> = {}): NewRecord =>
  ({ object_type_slug: slug, data: {}, uniques: [], refs: [], created_by: null, assignee_id: null, ...extra });
const email = (value: string) => ({ uniques: [{ field: 'email', value }] });

async function failure(promise: Promise<unknown>): Promise<CrmError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(CrmError);
  return error as CrmError;
}

const knownTypes: Answer = (name, params) => (name === 'getObjectType' && params.slug !== 'projects' ? [objectType(String(params.slug))] : []);

describe('createRecords on Neo4j', () => {
  it('names the first record of the batch whose unique value another record holds, and writes nothing after the check', async () => {
    const { conn, names } = scripted((name, params) => (name === 'takenClaims' ? [{ i: 1 }] : knownTypes(name, params)));
    const error = await failure(recordMethods(conn).createRecords(WS, [
      newRecord('contacts', email('bob@x.io')), newRecord('companies'), newRecord('contacts', email('ada@x.io')),
    ], [event('batch')]));
    expect(error.toJSON()).toEqual({
      code: 'conflict', message: 'records[2]: Another record already has this email value',
      details: { param: 'data.email', field: 'email', rule: 'unique', index: 2 },
    });
    expect(names()).not.toContain('writeClaims');
    expect(names()).not.toContain('writeEvents');
  });

  it('names the second of two records of the batch that claim the same value', async () => {
    const { conn } = scripted(knownTypes);
    const error = await failure(recordMethods(conn).createRecords(WS, [newRecord('contacts', email('a@x.io')), newRecord('contacts', email('a@x.io'))]));
    expect(error.details).toMatchObject({ field: 'email', index: 1 });
  });

  it('reports the failures of each record before those of the next, as SQLite writing them one by one', async () => {
    const missing = 'rec_00000000000000000000000000';
    const { conn } = scripted((name, params) => {
      if (name === 'takenClaims') return [{ i: 0 }];
      if (name === 'missingTargets') return [{ field: 'company', to_id: missing }];
      return knownTypes(name, params);
    });
    const error = await failure(recordMethods(conn).createRecords(WS, [
      newRecord('companies'), newRecord('contacts', { refs: [{ field: 'company', to_id: missing }] }), newRecord('contacts', email('a@x.io')),
    ]));
    expect(error.code).toBe('not_found');
    expect(error.details).toMatchObject({ param: 'data.company', id: missing, index: 1 });
  });

  it('rejects a record of an unknown type by its index before creating any node', async () => {
    const { conn, names } = scripted(knownTypes);
    const error = await failure(recordMethods(conn).createRecords(WS, [newRecord('companies'), newRecord('projects')]));
    expect(error.message).toBe('records[1]: object type "projects" was not found');
    expect(names()).not.toContain('createRecords');
  });

  it('writes nodes, then claims, field edges and index of the whole batch, then its events, in one transaction', async () => {
    const { conn, sent, names } = scripted(knownTypes);
    const [companyId, personId] = ['rec_01JB0000000000000000000001', 'rec_01JB0000000000000000000002'];
    expect(await recordMethods(conn).createRecords(WS, [
      newRecord('contacts', { id: personId, data: { name: 'Ada', company: companyId }, refs: [{ field: 'company', to_id: companyId }], ...email('a@x.io') }),
      newRecord('companies', { id: companyId, data: { name: 'Acme' } }),
    ], [event('a', [personId, personId]), event('b')])).toBe(2);
    expect(names()).toEqual([
      'getObjectType', 'getObjectType', 'createRecords', 'takenClaims', 'missingTargets', 'writeClaims', 'addFieldRelations', 'writeIndex', 'writeEvents',
    ]);
    const params = (name: string) => sent.find((s) => s.name === name)!.params;
    expect((params('createRecords').records as Row[]).map((r) => [r.id, r.object_type_id])).toEqual([[personId, 'obj_contacts'], [companyId, 'obj_companies']]);
    expect(params('addFieldRelations').refs).toEqual([{ from_id: personId, field: 'company', to_id: companyId }]);
    expect(params('writeClaims').claims).toEqual([{ record_id: personId, field: 'email', value: 'a@x.io' }]);
    const events = params('writeEvents').events as Row[];
    expect(events.map((e) => [e.resource_id, e.record_ids, e.concerns, e.diff])).toEqual([['a', [personId, personId], [personId], null], ['b', [], [], null]]);
    expect(String(events[0]!.id) < String(events[1]!.id)).toBe(true);
  });
});

describe('addListEntries on Neo4j', () => {
  const LIST = 'lst_01JB0000000000000000000000';
  const answer = (live: string[], inList: string[]): Answer => (name, params) => {
    if (name === 'getList') return [{ resource: { id: LIST, workspace_id: WS, fields: '[]', deleted_at: null } }];
    if (name === 'getRecords') return (params.ids as string[]).filter((id) => live.includes(id)).map(record);
    if (name === 'findListEntries') return (params.record_ids as string[]).filter((id) => inList.includes(id)).map((id) => ({ entry: { id: `ent_${id}`, record_id: id, data: '{}' } }));
    return [];
  };
  const add = (a: Answer, recordIds: string[]) =>
    failure(entryMethods(scripted(a).conn).addListEntries(WS, LIST, recordIds.map((id) => ({ record_id: id, data: {} })), null, []));

  it('checks each entry in order: a missing record before a duplicate that comes after it', async () => {
    const error = await add(answer(['a'], []), ['a', 'gone', 'a']);
    expect(error.toJSON()).toMatchObject({ code: 'not_found', details: { param: 'entries[1].record_id', index: 1, id: 'gone' } });
  });

  it('tells a record already in the list from one twice in the batch', async () => {
    expect((await add(answer(['a', 'b'], ['b']), ['a', 'b'])).message).toBe('entries[1].record_id: the record "b" is already in the list');
    expect((await add(answer(['a', 'b'], []), ['a', 'b', 'a'])).details).toEqual({ param: 'entries[2].record_id', index: 2, record_id: 'a' });
  });
});

describe('notes on Neo4j', () => {
  it('names the first record it cannot attach by its place in the list given', async () => {
    const { conn } = scripted((name) => (name === 'linkableNoteRecords' ? [{ id: 'a' }] : []));
    const error = await failure(noteMethods(conn).createNote(WS, { kind: 'note', title: 't', body: '', format: 'plain', record_ids: ['a', 'x', 'a'], created_by: null }, []));
    expect(error.details).toEqual({ param: 'record_ids[1]', resource: 'record', id: 'x' });
  });

  it('links each record once, in the order given, after the note itself was found live', async () => {
    const { conn, names, sent } = scripted((name) => (name === 'linkableNoteRecords' ? [{ id: 'a' }, { id: 'b' }] : name === 'updateNote' ? [{ id: 'nte_1' }] : []));
    await noteMethods(conn).updateNote(WS, 'nte_1', { title: 'New', record_ids: ['b', 'a', 'b'] }, []);
    expect(names().slice(0, 3)).toEqual(['updateNote', 'linkableNoteRecords', 'replaceNoteLinks']);
    expect(sent[0]!.params.patch).toEqual({ title: 'New' });
    expect(sent[1]!.params).toEqual({ workspace_id: WS, id: 'nte_1', ids: ['b', 'a'] });
    expect(sent[2]!.params).toEqual({ id: 'nte_1', record_ids: ['b', 'a'] });
  });
});

describe('read-modify-writes on Neo4j', () => {
  const stored = { id: 'rec_1', workspace_id: WS, object_type_slug: 'companies', data: '{}', assignee_id: null, created_by: null, created_at: 't0', updated_at: '2026-01-01T00:00:00.005Z', deleted_at: null };
  const answers: Answer = (name, params) => (name === 'getRecord' ? [{ record: stored, object_type_id: 'obj_companies' }]
    : name === 'getObjectType' ? knownTypes(name, params)
    : name === 'getListEntry' ? [{ entry: { id: 'ent_1', workspace_id: WS, list_id: 'lst_1', record_id: 'rec_1', data: '{}', created_by: null, created_at: 't0', updated_at: stored.updated_at } }] : []);
  const write = { data: { name: 'x' }, uniques: [], refs: [] };

  it('takes the record\'s write lock before reading it, so the check and the write see the same state', async () => {
    const { conn, names } = scripted(answers);
    await recordMethods(conn).updateRecord(WS, 'rec_1', { ...write, unchanged_since: stored.updated_at });
    expect(names().slice(0, 4)).toEqual(['lockRecord', 'getRecord', 'getObjectType', 'updateRecord']);
  });

  it('writes nothing when the claims miss a field its object type made unique since they were worked out', async () => {
    const { conn, names } = scripted(answers);
    const error = await failure(recordMethods(conn).updateRecord(WS, 'rec_1', { data: { name: 'x', code: 'C' }, uniques: [], refs: [] }));
    expect(error.details).toEqual({ resource: 'object type', id: 'companies', rule: 'changed_meanwhile' });
    expect(names()).toEqual(['lockRecord', 'getRecord', 'getObjectType']);
    // Claims on a field that no longer claims are refused the same way, on every write path.
    const stale = { data: { name: 'x' }, uniques: [{ field: 'domain', value: 'x.io' }], refs: [] };
    expect((await failure(recordMethods(scripted(answers).conn).updateRecord(WS, 'rec_1', stale))).details).toMatchObject({ rule: 'changed_meanwhile' });
    expect((await failure(recordMethods(scripted(knownTypes).conn).createRecord(WS, newRecord('companies', stale)))).details).toMatchObject({ rule: 'changed_meanwhile' });
    const batch = await failure(recordMethods(scripted(knownTypes).conn).createRecords(WS, [newRecord('companies'), newRecord('companies', { data: { code: 'C' } })]));
    expect(batch.details).toMatchObject({ rule: 'changed_meanwhile', index: 1 });
  });

  it('writes nothing when the record changed since the caller read it', async () => {
    const { conn, names } = scripted(answers);
    const error = await failure(recordMethods(conn).updateRecord(WS, 'rec_1', { ...write, unchanged_since: '2026-01-01T00:00:00.004Z' }));
    expect(error.details).toMatchObject({ rule: 'changed_meanwhile', id: 'rec_1' });
    expect(names()).toEqual(['lockRecord', 'getRecord']);
  });

  it('stamps a write later than the last even when the clock has not passed it', async () => {
    const ahead = new Date(Date.now() + 60_000).toISOString();
    const { conn, sent } = scripted((name, params) => (name === 'getRecord' ? [{ record: { ...stored, updated_at: ahead }, object_type_id: 'obj_companies' }] : answers(name, params)));
    await recordMethods(conn).updateRecord(WS, 'rec_1', write);
    expect(sent.find((s) => s.name === 'updateRecord')!.params.now).toBe(new Date(Date.parse(ahead) + 1).toISOString());
  });

  it('locks, checks and writes a list entry the same way', async () => {
    const { conn, names } = scripted(answers);
    await failure(entryMethods(conn).updateListEntry(WS, 'ent_1', {}, [], 'other'));
    expect(names()).toEqual(['lockListEntry', 'getListEntry']);
  });
});

describe('listEvents on Neo4j', () => {
  const read = async (found: boolean, query: { record_id?: string; since?: string; before?: string }) => {
    const { conn, names, sent } = scripted((name) => (name === 'isRecord' ? [{ found }] : []));
    await timelineMethods(conn).listEvents(WS, { ...query, offset: 0, limit: 10 });
    return { names: names(), params: sent.at(-1)!.params };
  };

  it('reads the workspace timeline from the start without a cursor', async () => {
    expect(await read(false, {})).toEqual({ names: ['listEvents', 'countEvents'], params: { workspace_id: WS, since: '', before: '~' } });
  });

  it('bounds the page by both cursors when given', async () => {
    expect((await read(false, { since: 'evt_1', before: 'evt_9' })).params).toEqual({ workspace_id: WS, since: 'evt_1', before: 'evt_9' });
  });

  it('walks from a record along its edges, and finds events naming another id by their record_ids', async () => {
    expect((await read(true, { record_id: 'rec_1', since: 'evt_1' })).names).toEqual(['isRecord', 'listRecordEvents', 'countRecordEvents']);
    expect((await read(false, { record_id: 'rec_1' })).names).toEqual(['isRecord', 'listNamedEvents', 'countNamedEvents']);
  });
});
