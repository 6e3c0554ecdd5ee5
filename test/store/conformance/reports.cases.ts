import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import type { NewComm, NewReport } from '../../../src/domain/store/port.ts';
import type { AggregateRow } from '../../../src/domain/reports/types.ts';
import { cmp, expectCrmError, freshWorkspace, newRecord, sleep, type Harness } from './harness.ts';
import { ev, pipeline } from './work.ts';

const EPOCH = '1970-01-01T00:00:00.000Z';
const FAR = '2999-01-01T00:00:00.000Z';

const BY_STAGE: NewReport = {
  name: 'Revenue by stage',
  config: {
    object_type: 'deals', metric: 'sum', metric_field: 'amount', group_by: 'stage', time_bucket: null, time_field: null,
    chart_type: 'bar', filters: [{ field: 'amount', operator: 'gt', value: 0 }],
  },
  created_by: null,
};

const byGroup = (rows: AggregateRow[]) => Object.fromEntries(rows.map((r) => [String(r.group), { count: r.count, value: r.value }]));

export function reportCases(h: Harness): void {
  describe('saved reports', () => {
    it('saves a report with its config as given and reads it back', async () => {
      const ws = await freshWorkspace(h);
      const report = await h.store.createReport(ws.id, structuredClone(BY_STAGE), []);
      expect(report).toMatchObject({ workspace_id: ws.id, name: BY_STAGE.name, config: BY_STAGE.config, created_by: null, deleted_at: null });
      expect(report.id).toMatch(/^rpt_/);
      expect(await h.store.getReport(ws.id, report.id)).toEqual(report);
      const id = newId('report');
      expect((await h.store.createReport(ws.id, { ...structuredClone(BY_STAGE), id }, [])).id).toBe(id);
    });

    it('lists live reports oldest first, one page at a time, and soft-deletes once', async () => {
      const ws = await freshWorkspace(h);
      const ids: string[] = [];
      for (const name of ['a', 'b', 'c']) {
        ids.push((await h.store.createReport(ws.id, { ...structuredClone(BY_STAGE), name }, [])).id);
        await sleep(2);
      }
      expect(await h.store.listReports(ws.id, { offset: 1, limit: 1 })).toMatchObject({ total: 3, items: [{ id: ids[1] }] });
      const gone = await h.store.deleteReport(ws.id, ids[0]!, []);
      expect(gone.deleted_at).not.toBeNull();
      expect(await h.store.getReport(ws.id, ids[0]!)).toBeNull();
      expect((await h.store.listReports(ws.id, { offset: 0, limit: 10 })).items.map((r) => r.id)).toEqual(ids.slice(1));
      await expectCrmError(h.store.deleteReport(ws.id, ids[0]!, []), 'not_found');
    });

    it("keeps another workspace's reports out of reach", async () => {
      const ws = await freshWorkspace(h);
      const other = await freshWorkspace(h);
      const report = await h.store.createReport(ws.id, structuredClone(BY_STAGE), []);
      expect(await h.store.getReport(other.id, report.id)).toBeNull();
      expect((await h.store.listReports(other.id, { offset: 0, limit: 10 })).total).toBe(0);
      await expectCrmError(h.store.deleteReport(other.id, report.id, []), 'not_found');
      expect(await h.store.getReport(ws.id, report.id)).not.toBeNull();
    });

    it('writes the events of a report change with the change, and none for a failed one', async () => {
      const ws = await freshWorkspace(h);
      const id = newId('report');
      await h.store.createReport(ws.id, { ...structuredClone(BY_STAGE), id }, [ev('create', 'report', id)]);
      await h.store.deleteReport(ws.id, id, [ev('delete', 'report', id)]);
      await expectCrmError(h.store.deleteReport(ws.id, id, [ev('delete', 'report', id)]), 'not_found');
      const events = (await h.store.listEvents(ws.id, { offset: 0, limit: 10 })).items;
      expect(events.map((e) => `${e.action} ${e.resource_type} ${e.resource_id}`)).toEqual([`delete report ${id}`, `create report ${id}`]);
    });
  });

  describe('aggregation in the store', () => {
    it('groups live records, measures a field and leaves soft-deleted records out', async () => {
      const ws = await freshWorkspace(h);
      const [a] = await Promise.all([
        h.store.createRecord(ws.id, newRecord('deals', { name: 'A', stage: 'won', amount: 10 })),
        h.store.createRecord(ws.id, newRecord('deals', { name: 'B', stage: 'won', amount: 30 })),
        h.store.createRecord(ws.id, newRecord('deals', { name: 'C', stage: 'lead' })),
        h.store.createRecord(ws.id, newRecord('deals', { name: 'D', amount: 5 })),
      ]);
      await h.store.softDeleteRecord(ws.id, a!.id);
      const rows = await h.store.aggregate(ws.id, {
        scope: { object_type_slug: 'deals' }, metric: 'avg', metric_field: 'amount', group_by: { field: 'stage', valueKind: 'text' }, max_rows: 10,
      });
      expect(byGroup(rows)).toEqual({ won: { count: 1, value: 30 }, lead: { count: 1, value: null }, null: { count: 1, value: 5 } });
      const filtered = await h.store.aggregate(ws.id, {
        scope: { object_type_slug: 'deals' }, metric: 'count', filter: cmp('stage', 'ne', 'won'), max_rows: 10,
      });
      expect(filtered).toEqual([{ group: null, bucket: null, value: 2, count: 2 }]);
    });

    it("groups a list's entries by an entry field and measures the entries' records", async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      const recs = [];
      for (const amount of [100, 200, 400]) recs.push(await h.store.createRecord(ws.id, newRecord('deals', { name: `D${amount}`, amount })));
      await h.store.addListEntries(ws.id, list.id, [
        { record_id: recs[0]!.id, data: { stage: 'lead' } }, { record_id: recs[1]!.id, data: { stage: 'lead' } }, { record_id: recs[2]!.id, data: { stage: 'won' } },
      ], null, []);
      await h.store.softDeleteRecord(ws.id, recs[1]!.id);
      const rows = await h.store.aggregate(ws.id, {
        scope: { list_id: list.id }, metric: 'sum', metric_field: 'amount', group_by: { field: 'stage', valueKind: 'text' },
        time: { field: 'created_at', system: true, bucket: 'year' }, max_rows: 10,
      });
      const year = `${new Date().getUTCFullYear()}-01-01`;
      expect(rows.map((r) => ({ ...r })).sort((x, y) => String(x.group).localeCompare(String(y.group)))).toEqual([
        { group: 'lead', bucket: year, value: 100, count: 1 }, { group: 'won', bucket: year, value: 400, count: 1 },
      ]);
    });

    it('answers not_found for an unknown object type or list, and another workspace\'s list', async () => {
      const ws = await freshWorkspace(h);
      const other = await freshWorkspace(h);
      const list = await pipeline(h, other.id);
      await expectCrmError(h.store.aggregate(ws.id, { scope: { object_type_slug: 'projects' }, metric: 'count', max_rows: 10 }), 'not_found');
      await expectCrmError(h.store.aggregate(ws.id, { scope: { list_id: list.id }, metric: 'count', max_rows: 10 }), 'not_found');
    });

    it('counts records per type, open and overdue tasks and recent notes for the summary', async () => {
      const ws = await freshWorkspace(h);
      await h.store.createRecords(ws.id, [newRecord('deals', { name: 'x' }), newRecord('deals', { name: 'y' }), newRecord('companies', { name: 'z' })]);
      const past = new Date(Date.now() - 60_000).toISOString();
      const future = new Date(Date.now() + 60_000).toISOString();
      const counts = await h.store.countRecordsByType(ws.id, { week: past, month: future });
      expect([...counts].sort((a, b) => a.object_type_slug.localeCompare(b.object_type_slug))).toEqual([
        { object_type_slug: 'companies', total: 1, week: 1, month: 0 },
        { object_type_slug: 'contacts', total: 0, week: 0, month: 0 },
        { object_type_slug: 'deals', total: 2, week: 2, month: 0 },
      ]);
      const task = (status: 'open' | 'done', due: string | null) => h.store.createTask(ws.id, {
        title: 't', body: '', status, due_at: due, assignee_id: null, record_ids: [], created_by: null,
      }, []);
      await task('open', past);
      await task('open', future);
      await task('open', null);
      await task('done', past);
      expect(await h.store.countOpenTasks(ws.id, new Date().toISOString())).toEqual({ open: 3, overdue: 1 });
      await h.store.createNote(ws.id, { kind: 'note', title: 'n', body: '', format: 'plain', record_ids: [], created_by: null }, []);
      expect(await h.store.countActivity(ws.id, 'notes', { since: past, until: future })).toBe(1);
      expect(await h.store.countActivity(ws.id, 'notes', { since: future, until: FAR })).toBe(0);
      expect(await h.store.countActivity(ws.id, 'notes', { since: EPOCH, until: past })).toBe(0);
    });

    it('counts live emails, meetings and messages of the workspace by when they happened, both ends of the window included', async () => {
      const ws = await freshWorkspace(h);
      const other = await freshWorkspace(h);
      const day = (d: number) => `2030-01-${String(d).padStart(2, '0')}T00:00:00.000Z`;
      const put = (workspaceId: string, kind: NewComm['kind'], at: string) => h.store.createComm(workspaceId, {
        kind, status: 'stored', tag: kind === 'message' ? 'internal' : null, thread_id: null, at, data: {}, record_ids: [], next_attempt_at: null, created_by: null,
      }, []);
      await put(ws.id, 'email', day(1));
      await put(ws.id, 'email', day(10));
      await put(ws.id, 'email', day(20));
      const gone = await put(ws.id, 'email', day(15));
      await h.store.updateComm(ws.id, 'email', gone.id, { deleted_at: day(16) });
      await put(ws.id, 'meeting', day(10));
      await put(ws.id, 'meeting', day(25));
      await put(ws.id, 'message', day(12));
      await put(ws.id, 'ticket', day(12));
      await put(other.id, 'email', day(12));
      const window = { since: day(10), until: day(20) };
      const counts = async (workspaceId: string) => Object.fromEntries(await Promise.all(
        (['notes', 'emails', 'meetings', 'messages'] as const).map(async (kind) => [kind, await h.store.countActivity(workspaceId, kind, window)]),
      ));
      expect(await counts(ws.id)).toEqual({ notes: 0, emails: 2, meetings: 1, messages: 1 });
      expect(await counts(other.id)).toEqual({ notes: 0, emails: 1, meetings: 0, messages: 0 });
    });
  });
}
