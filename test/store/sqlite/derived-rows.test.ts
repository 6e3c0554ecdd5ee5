import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { uniqueClaims } from '../../../src/domain/fields.ts';
import type { NewField } from '../../../src/domain/store/port.ts';
import type { Workspace } from '../../../src/domain/types.ts';
import { Connection } from '../../../src/store/sqlite/connection.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * The value index, the FTS rows, entry value rows and event links follow each write; stale rows
 * would only cost space, so look.
 */
describe('sqlite derived rows', () => {
  let t: TempStore;
  let ws: Workspace;
  beforeEach(async () => {
    t = await tempStore();
    ws = await t.workspace();
  });
  afterEach(() => t.cleanup());

  /** The rows a record has now; its search rows are written first (a search does that). */
  const counts = async (recordId: string) => {
    await t.searched(ws.id);
    const pk = (t.raw().prepare('SELECT pk FROM records WHERE id = ?').get(recordId) as { pk: number }).pk;
    const one = (sql: string) => (t.raw().prepare(sql).get(pk) as { n: number }).n;
    return {
      values: one('SELECT COUNT(*) AS n FROM record_values WHERE record_pk = ?'),
      text: one("SELECT COUNT(*) AS n FROM records_fts WHERE rowid = ? AND records_fts MATCH 'acme'"),
      claims: one('SELECT COUNT(*) AS n FROM record_uniques WHERE record_pk = ?'),
    };
  };

  const count = (sql: string, ...params: unknown[]) => (t.raw().prepare(sql).get(...params) as { n: number }).n;
  const deal = (name: string) =>
    t.store.createRecord(ws.id, { object_type_slug: 'deals', data: { name }, uniques: [], refs: [], created_by: null, assignee_id: null });

  it('indexes one value row per scalar and array element, skipping empty strings, and the text for search', async () => {
    const record = await t.store.createRecord(ws.id, {
      object_type_slug: 'companies', data: { name: 'Acme', domain: 'acme.example', employee_count: 3, description: '', tags: ['a', 'b', 'a'] },
      uniques: [{ field: 'domain', value: 'acme.example' }], refs: [], created_by: null, assignee_id: null,
    });
    expect(await counts(record.id)).toEqual({ values: 5, text: 1, claims: 1 });
  });

  it('writes a bulk batch the same value rows as its records written one by one, many rows a statement', async () => {
    // 41 companies of 5 or 6 value rows (225 in all): three statements of 64 rows, then 33 one at a time.
    const data = (i: number) => ({ name: `Co ${i}`, domain: `co${i}.example`, employee_count: i * 1.5, tags: ['x', `t${i % 3}`], description: i % 2 ? 'odd' : '' });
    const companies = (await t.store.getObjectType(ws.id, 'companies'))!;
    const input = (i: number) => ({ object_type_slug: 'companies', data: data(i), uniques: uniqueClaims(companies, data(i)), refs: [], created_by: null, assignee_id: null });
    const other = await t.workspace();
    const single: string[] = [];
    for (let i = 0; i < 41; i++) single.push((await t.store.createRecord(other.id, input(i))).id);
    await t.store.createRecords(ws.id, Array.from({ length: 41 }, (_, i) => input(i)));
    const bulk = (t.raw().prepare('SELECT id FROM records WHERE workspace_id = ? ORDER BY pk').all(ws.id) as Array<{ id: string }>).map((r) => r.id);
    const valuesOf = (id: string) => t.raw().prepare(
      'SELECT v.field, v.v_text, v.v_num FROM record_values v JOIN records r ON r.pk = v.record_pk WHERE r.id = ? ORDER BY v.field, v.v_text, v.v_num',
    ).all(id);
    expect(bulk).toHaveLength(41);
    for (let i = 0; i < 41; i++) {
      expect(valuesOf(bulk[i]!), `record ${i}`).toEqual(valuesOf(single[i]!));
      expect(valuesOf(bulk[i]!)).toHaveLength(i % 2 ? 6 : 5);
    }
  });

  // A statement that writes many rows and can end in ABORT (an immediate foreign key, a NOT NULL
  // or key conflict without OR FAIL) runs in a statement journal, which copies every page it
  // touches before changing it: a seventh to a fifth of what the value statements cost.
  it('writes many value rows a statement, for records and entries, with nothing in it that could abort the statement', async () => {
    const prepared = vi.spyOn(Connection.prototype, 'stmt');
    let texts: string[];
    try {
      const input = (i: number) => ({ object_type_slug: 'companies', data: { name: `Co ${i}`, employee_count: i, tags: ['x', 'y'] }, uniques: [], refs: [], created_by: null, assignee_id: null });
      await t.store.createRecords(ws.id, Array.from({ length: 40 }, (_, i) => input(i)));
      const list = await t.store.createList(ws.id, {
        object_type_slug: 'companies', name: 'L', created_by: null, fields: [{ slug: 'tags', name: 'Tags', type: 'multi_select' }],
      }, []);
      const ids = (t.raw().prepare('SELECT id FROM records WHERE workspace_id = ?').all(ws.id) as Array<{ id: string }>).map((r) => r.id);
      await t.store.addListEntries(ws.id, list.id, ids.map((id) => ({ record_id: id, data: { tags: ['x', 'y'] } })), null, []);
    } finally {
      texts = prepared.mock.calls.map(([sql]) => sql);
      prepared.mockRestore();
    }
    for (const table of ['record_values', 'entry_values']) {
      const many = [...new Set(texts)].filter((sql) => new RegExp(`INTO ${table} .*\\), \\(`, 's').test(sql));
      expect(many, table).toHaveLength(1);
      const program = t.raw().prepare(`EXPLAIN ${many[0]}`).all(...Array(many[0]!.split('?').length - 1).fill(1)) as Array<{ opcode: string; p1: number; p2: number }>;
      expect(program.filter((op) => op.opcode === 'IdxInsert').length, table).toBeGreaterThan(0);
      // OE_Abort is 2; an FkCounter with p1 0 counts an immediate foreign key.
      const aborting = program.filter((op) => (/^Halt/.test(op.opcode) && op.p2 === 2) || (op.opcode === 'FkCounter' && op.p1 === 0));
      expect(aborting, table).toEqual([]);
    }
  });

  it('drops the derived rows of a deleted record and rebuilds them on restore', async () => {
    const record = await t.store.createRecord(ws.id, {
      object_type_slug: 'companies', data: { name: 'Acme', domain: 'acme.example' },
      uniques: [{ field: 'domain', value: 'acme.example' }], refs: [], created_by: null, assignee_id: null,
    });
    await t.store.softDeleteRecord(ws.id, record.id);
    expect(await counts(record.id)).toEqual({ values: 0, text: 0, claims: 0 });
    await t.store.restoreRecord(ws.id, record.id, [{ field: 'domain', value: 'acme.example' }]);
    expect(await counts(record.id)).toEqual({ values: 2, text: 1, claims: 1 });
  });

  it('keeps one value row per scalar of an entry, replaces them on update and drops them on removal', async () => {
    const list = await t.store.createList(ws.id, {
      object_type_slug: 'deals', name: 'L', created_by: null,
      fields: [{ slug: 'stage', name: 'Stage', type: 'status', config: { options: ['a', 'b'] } }, { slug: 'tags', name: 'Tags', type: 'multi_select' }],
    }, []);
    const record = await deal('D');
    const [entry] = await t.store.addListEntries(ws.id, list.id, [{ record_id: record.id, data: { stage: 'a', tags: ['x', 'y', 'x'] } }], null, []);
    const values = () => count('SELECT COUNT(*) AS n FROM entry_values WHERE entry_pk = (SELECT pk FROM list_entries WHERE id = ?)', entry!.id);
    expect(values()).toBe(3);
    await t.store.updateListEntry(ws.id, entry!.id, { stage: 'b' }, []);
    expect(values()).toBe(1);
    await t.store.removeListEntry(ws.id, entry!.id, []);
    expect(count('SELECT COUNT(*) AS n FROM entry_values')).toBe(0);
  });

  it('writes a bulk batch of entries the same value rows as entries added one by one, and answers them as stored', async () => {
    // 30 entries of 3 or 4 value rows (110 in all): one statement of 64 rows, then 46 one at a time.
    const fields: NewField[] = [
      { slug: 'stage', name: 'Stage', type: 'status', config: { options: ['a', 'b'] } }, { slug: 'tags', name: 'Tags', type: 'multi_select' },
    ];
    const list = (name: string) => t.store.createList(ws.id, { object_type_slug: 'deals', name, created_by: null, fields }, []);
    const [bulkList, singleList] = [await list('Bulk'), await list('Single')];
    await t.store.createRecords(ws.id, Array.from({ length: 30 }, (_, i) => ({
      object_type_slug: 'deals', data: { name: `D${i}` }, uniques: [], refs: [], created_by: null, assignee_id: null,
    })));
    const records = t.raw().prepare('SELECT id FROM records WHERE workspace_id = ? ORDER BY pk').all(ws.id) as Array<{ id: string }>;
    const data = (i: number) => ({ stage: i % 2 ? 'a' : 'b', tags: ['x', `t${i % 3}`, ...(i % 3 ? ['y'] : [])] });
    const bulk = await t.store.addListEntries(ws.id, bulkList.id, records.map((r, i) => ({ record_id: r.id, data: data(i) })), 'usr_1', []);
    const single = [];
    for (let i = 0; i < 30; i++) single.push(...await t.store.addListEntries(ws.id, singleList.id, [{ record_id: records[i]!.id, data: data(i) }], null, []));
    const valuesOf = (id: string) => t.raw().prepare(
      'SELECT v.field, v.seq, v.v_text, v.v_num FROM entry_values v JOIN list_entries e ON e.pk = v.entry_pk WHERE e.id = ? ORDER BY v.field, v.seq',
    ).all(id);
    expect(count('SELECT COUNT(*) AS n FROM entry_values v JOIN list_entries e ON e.pk = v.entry_pk WHERE e.list_id = ?', bulkList.id)).toBe(110);
    for (let i = 0; i < 30; i++) {
      expect(valuesOf(bulk[i]!.id), `entry ${i}`).toEqual(valuesOf(single[i]!.id));
      expect(bulk[i], `entry ${i}`).toEqual(await t.store.getListEntry(ws.id, bulk[i]!.id));
    }
    expect(bulk[0]).toMatchObject({ list_id: bulkList.id, record_id: records[0]!.id, data: data(0), created_by: 'usr_1' });
  });

  it('writes one event_records row per record an event names, once each', async () => {
    const [a, b] = [await deal('A'), await deal('B')];
    await t.store.createNote(ws.id, { kind: 'note', title: 'N', body: '', format: 'plain', record_ids: [a.id, b.id], created_by: null }, [{
      actor_id: null, key_id: null, via: null, tool: null, action: 'create', resource_type: 'note', resource_id: 'n', record_ids: [a.id, b.id, a.id], diff: null,
    }]);
    expect(count('SELECT COUNT(*) AS n FROM event_records WHERE workspace_id = ?', ws.id)).toBe(2);
    expect(count('SELECT COUNT(*) AS n FROM note_records')).toBe(2);
  });
});

describe('sqlite ids', () => {
  it('keeps the id a create input carries, so the domain can name it before the write', async () => {
    const t = await tempStore();
    try {
      const ws = await t.workspace();
      const input = { id: 'rec_01ARZ3NDEKTSV4RRFFQ69G5FAV', object_type_slug: 'companies', data: { name: 'Pre' }, uniques: [], refs: [], created_by: null, assignee_id: null };
      expect((await t.store.createRecord(ws.id, input)).id).toBe(input.id);
      const type = await t.store.createObjectType(ws.id, { id: 'obj_01ARZ3NDEKTSV4RRFFQ69G5FAV', slug: 'pets', name: 'Pets', fields: [] } as Parameters<typeof t.store.createObjectType>[1]);
      expect(type.id).toBe('obj_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    } finally {
      await t.cleanup();
    }
  });
});
