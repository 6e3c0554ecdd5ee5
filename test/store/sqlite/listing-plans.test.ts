import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseFilter, parseSort } from '../../../src/domain/filters.ts';
import { Connection } from '../../../src/store/sqlite/connection.ts';
import { newRecord } from '../conformance/harness.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * How listings and the reads behind them are planned (notes, tasks and messages by record; a
 * batch's existing list entries; pattern filters on text; a list entry count's version key; the
 * search page),
 * explained on the same file: every statement a read runs is captured and its plan checked, so a
 * read that would grow with the whole file rather than with what it asks for fails here. Plans
 * depend on the planner statistics the migrations write, not on how much data there is, so a
 * small workspace shows them.
 */
describe('listing plans', () => {
  let t: TempStore;
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.cleanup();
  });

  /** The plans of the statements `read` runs that mention `table`, each as its detail lines. */
  async function plansOf(table: string, read: () => Promise<unknown>, alias = 't'): Promise<string[][]> {
    const seen: Array<{ sql: string; params: unknown[] }> = [];
    for (const method of ['all', 'get'] as const) {
      const original = Connection.prototype[method];
      vi.spyOn(Connection.prototype, method).mockImplementation(function (this: Connection, sql: string, ...params: never[]) {
        if (sql.includes(`FROM ${table} ${alias}`) || sql.includes(`JOIN ${table} ${alias} `)) seen.push({ sql, params });
        return original.call(this, sql, ...params);
      } as never);
    }
    await read();
    vi.restoreAllMocks();
    const raw = t.raw();
    return seen.map(({ sql, params }) => raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params).map((row) => (row as { detail: string }).detail));
  }

  /** Both statements of a listing by record (page and count) start from the link table's index, never from `listing`'s. */
  function expectFromLinks(plans: string[][], linkIndex: string, listing: RegExp): void {
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan.join('\n')).toContain(linkIndex);
      expect(plan.join('\n')).not.toMatch(listing);
    }
  }

  async function fixture() {
    t = await tempStore();
    const ws = await t.workspace();
    const record = await t.store.createRecord(ws.id, newRecord('companies', { name: 'Acme' }));
    return { ws, record };
  }

  // Not by walking every item of the workspace in page order and testing each against the links
  // (linear in the workspace; migration 19).
  it('reads the notes of a record from its links', async () => {
    const { ws, record } = await fixture();
    await t.store.createNote(ws.id, { kind: 'note', title: 'n', body: '', format: 'plain', record_ids: [record.id], created_by: null }, []);
    const plans = await plansOf('notes', async () => {
      expect((await t.store.listNotes(ws.id, { record_id: record.id, offset: 0, limit: 25 })).total).toBe(1);
    });
    expectFromLinks(plans, 'note_records_by_record', /notes_live_by_workspace/);
  });

  // The search page filters and ranks each hit by its `search_docs` row (type, word count, id) and
  // by whether its words are whole (a second MATCH, when the vocabulary cannot tell); the page's
  // records are read last. All by key, never by scanning a table.
  it('reads each search hit\'s type, length and id by key, and only the page\'s records', async () => {
    const { ws } = await fixture();
    await t.store.createRecord(ws.id, newRecord('companies', { name: 'Acmes' }));
    for (const [text, tiered] of [['acm', false], ['acme', true]] as const) {
      const plans = await plansOf('records_fts', async () => {
        expect((await t.store.searchRecords(ws.id, { text, offset: 0, limit: 25 })).total).toBe(2);
      }, 'f');
      expect(plans).toHaveLength(1);
      const plan = plans[0]!.join('\n');
      expect(plan).toMatch(/SCAN f VIRTUAL TABLE/);
      expect(plan).toMatch(/SEARCH s USING INTEGER PRIMARY KEY/);
      expect(plan).toMatch(/SEARCH r USING INTEGER PRIMARY KEY/);
      // 'acm' is no term, so no hit holds it whole; 'acme' is one and starts 'acmes' too, so only
      // it needs the second MATCH.
      expect(plan.match(/VIRTUAL TABLE/g)).toHaveLength(tiered ? 2 : 1);
      expect(plan).not.toMatch(/SCAN (r|s)\b/);
    }
  });

  it('reads the tasks of a record from its links', async () => {
    const { ws, record } = await fixture();
    await t.store.createTask(ws.id, { title: 't', body: '', status: 'open', due_at: null, assignee_id: null, record_ids: [record.id], created_by: null }, []);
    const plans = await plansOf('tasks', async () => {
      expect((await t.store.listTasks(ws.id, { record_id: record.id, offset: 0, limit: 25 })).total).toBe(1);
    });
    expectFromLinks(plans, 'task_records_by_record', /tasks_live_by_(due|assignee)/);
  });

  it('reads the messages of a record from its links', async () => {
    const { ws, record } = await fixture();
    await t.store.createComm(ws.id, {
      kind: 'message', status: 'stored', tag: 'sms', thread_id: null, at: '2030-01-01T00:00:00.000Z', data: { text: 'hi' },
      record_ids: [record.id], next_attempt_at: null, created_by: null,
    }, []);
    const plans = await plansOf('comms', async () => {
      expect((await t.store.listComms(ws.id, { kind: 'message', record_id: record.id, offset: 0, limit: 25 })).total).toBe(1);
    });
    expectFromLinks(plans, 'comm_records_by_record', /comms_live_by_(kind|status)/);
  });

  // A page walks an index in page order and stops after offset + limit matches, never sorting all
  // of the workspace's or the assignee's tasks (migration 20); the count reads an index alone.
  it('pages tasks, all or by assignee and status, without sorting them', async () => {
    const { ws, record } = await fixture();
    const assignee = 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV';
    for (const [status, due_at] of [['open', null], ['in_progress', '2030-01-02T00:00:00.000Z'], ['done', '2030-01-01T00:00:00.000Z']] as const) {
      await t.store.createTask(ws.id, { title: status, body: '', status, due_at, assignee_id: assignee, record_ids: [record.id], created_by: null }, []);
    }
    const all = await plansOf('tasks', async () => {
      const page = await t.store.listTasks(ws.id, { offset: 0, limit: 25 });
      expect(page.items.map((task) => task.title)).toEqual(['done', 'in_progress', 'open']);
    });
    const mine = await plansOf('tasks', async () => {
      const page = await t.store.listTasks(ws.id, { assignee_id: assignee, status: ['open', 'in_progress'], offset: 0, limit: 25 });
      expect(page.items.map((task) => task.title)).toEqual(['in_progress', 'open']);
      expect(page.total).toBe(2);
    });
    for (const plans of [all, mine]) {
      expect(plans).toHaveLength(2);
      for (const plan of plans) {
        expect(plan.join('\n')).toMatch(/USING (COVERING )?INDEX tasks_live_/);
        expect(plan.join('\n')).not.toContain('TEMP B-TREE');
        expect(plan.join('\n')).not.toMatch(/SCAN t\b/);
      }
    }
  });

  // Not by skip-scanning list_entries__record over every list in the file for each record id,
  // which naming the list by its id (no index leads with list_id) made SQLite do.
  it('finds the entries of a batch in the list by the list and record ids', async () => {
    const { ws, record } = await fixture();
    const other = await t.store.createList(ws.id, { object_type_slug: 'companies', name: 'Other', fields: [], created_by: null }, []);
    const list = await t.store.createList(ws.id, { object_type_slug: 'companies', name: 'Accounts', fields: [], created_by: null }, []);
    await t.store.addListEntries(ws.id, list.id, [{ id: 'ent_plan', record_id: record.id, data: {} }], null, []);
    const plans = await plansOf('list_entries', async () => {
      expect((await t.store.findListEntries(ws.id, list.id, [record.id, 'rec_missing'])).map((e) => e.record_id)).toEqual([record.id]);
      expect(await t.store.findListEntries(ws.id, other.id, [record.id])).toEqual([]);
    }, 'r');
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan.join('\n')).toContain('list_entries__record (list_pk=? AND record_id=?)');
      expect(plan.join('\n')).not.toContain('ANY(list_pk)');
    }
  });

  // Not by reading every value row in the file: LIKE does not tell the planner the value is not
  // null, which the partial text index requires.
  it.each(['contains', 'starts_with', 'ends_with'])('reads a %s filter on a text field from the text value index', async (op) => {
    const { ws } = await fixture();
    for (const name of ['Ada Manager', 'Bo Builder', 'Cy Manager']) await t.store.createRecord(ws.id, newRecord('contacts', { name, job_title: name.split(' ')[1] }));
    const type = (await t.store.getObjectType(ws.id, 'contacts'))!;
    const value = op === 'ends_with' ? 'AGER' : op === 'starts_with' ? 'man' : 'nag';
    const query = { object_type_slug: 'contacts', filter: parseFilter(type, { job_title: { [op]: value } }), sort: parseSort(type, undefined, undefined), offset: 0, limit: 25 };
    const plans = await plansOf('record_values', async () => {
      expect((await t.store.listRecords(ws.id, query)).total).toBe(2);
    }, 'v');
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      const text = plan.join('\n');
      expect(text).toContain('record_values_by_text');
      expect(text).not.toMatch(/^SCAN v( USING (COVERING )?INDEX \w+)?$/m);
    }
  });

  // Not by reading every object type in the file: the join names types by workspace and slug,
  // deleted ones too, which the partial live-slug index cannot serve.
  it('keys a list entry count by its object type without reading every type', async () => {
    const { ws, record } = await fixture();
    const list = await t.store.createList(ws.id, { object_type_slug: 'companies', name: 'Keyed', fields: [], created_by: null }, []);
    await t.store.addListEntries(ws.id, list.id, [{ record_id: record.id, data: {} }], null, []);
    const plans = await plansOf('object_types', async () => {
      expect((await t.store.listEntries(ws.id, list.id, { sort: parseSort((await t.store.getObjectType(ws.id, 'companies'))!, undefined, undefined), offset: 0, limit: 25 })).total).toBe(1);
    });
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) expect(plan.join('\n')).not.toMatch(/^SCAN t$/m);
  });
});
