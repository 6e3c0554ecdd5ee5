import { afterEach, describe, expect, it, vi } from 'vitest';
import { Connection } from '../../../src/store/sqlite/connection.ts';
import { newRecord } from '../conformance/harness.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * The notes, tasks and messages of one record are read from that record's links, not by walking
 * every item of the workspace in page order and testing each (linear in the workspace). The plan
 * depends on the planner statistics of migration 19, not on how much data there is, so a small
 * workspace shows it: every statement a listing by record runs is explained on the same file.
 */
describe('listings by record start from the record', () => {
  let t: TempStore;
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.cleanup();
  });

  /** The plans of the statements `read` runs that mention `table`, each as its detail lines. */
  async function plansOf(table: string, read: () => Promise<unknown>): Promise<string[][]> {
    const seen: Array<{ sql: string; params: unknown[] }> = [];
    for (const method of ['all', 'get'] as const) {
      const original = Connection.prototype[method];
      vi.spyOn(Connection.prototype, method).mockImplementation(function (this: Connection, sql: string, ...params: never[]) {
        if (sql.includes(`FROM ${table} t`)) seen.push({ sql, params });
        return original.call(this, sql, ...params);
      } as never);
    }
    await read();
    vi.restoreAllMocks();
    const raw = t.raw();
    return seen.map(({ sql, params }) => raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params).map((row) => (row as { detail: string }).detail));
  }

  async function fixture() {
    t = await tempStore();
    const ws = await t.workspace();
    const record = await t.store.createRecord(ws.id, newRecord('companies', { name: 'Acme' }));
    return { ws, record };
  }

  it('notes', async () => {
    const { ws, record } = await fixture();
    await t.store.createNote(ws.id, { kind: 'note', title: 'n', body: '', format: 'text', record_ids: [record.id], created_by: null }, []);
    const plans = await plansOf('notes', async () => {
      expect((await t.store.listNotes(ws.id, { record_id: record.id, offset: 0, limit: 25 })).total).toBe(1);
    });
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan.join('\n')).toContain('note_records_by_record');
      expect(plan.join('\n')).not.toContain('notes_live_by_workspace');
    }
  });

  it('tasks', async () => {
    const { ws, record } = await fixture();
    await t.store.createTask(ws.id, { title: 't', body: '', status: 'open', due_at: null, assignee_id: null, record_ids: [record.id], created_by: null }, []);
    const plans = await plansOf('tasks', async () => {
      expect((await t.store.listTasks(ws.id, { record_id: record.id, offset: 0, limit: 25 })).total).toBe(1);
    });
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan.join('\n')).toContain('task_records_by_record');
      expect(plan.join('\n')).not.toMatch(/tasks_live_by_(due|assignee)/);
    }
  });

  it('messages', async () => {
    const { ws, record } = await fixture();
    await t.store.createComm(ws.id, {
      kind: 'message', status: 'stored', tag: 'sms', thread_id: null, at: '2030-01-01T00:00:00.000Z', data: { text: 'hi' },
      record_ids: [record.id], next_attempt_at: null, created_by: null,
    }, []);
    const plans = await plansOf('comms', async () => {
      expect((await t.store.listComms(ws.id, { kind: 'message', record_id: record.id, offset: 0, limit: 25 })).total).toBe(1);
    });
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan.join('\n')).toContain('comm_records_by_record');
      expect(plan.join('\n')).not.toMatch(/comms_live_by_(kind|status)/);
    }
  });
});
