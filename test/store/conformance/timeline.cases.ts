import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import { contact, expectCrmError, freshWorkspace, newRecord, type Harness } from './harness.ts';
import { actions, deals, ev, EVENT_ZERO, pipeline, timeline } from './work.ts';

export function timelineCases(h: Harness): void {
  describe('timeline events', () => {
    it('writes the events a change carries, with an id, the time and the workspace, as given', async () => {
      const ws = await freshWorkspace(h);
      const id = newId('record');
      const event = {
        ...ev('create', 'record', id, [id], { name: { after: 'Acme' } }),
        actor_id: 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', key_id: 'key_01ARZ3NDEKTSV4RRFFQ69G5FAV', via: 'mcp' as const, tool: 'records.create',
      };
      const before = new Date().toISOString();
      await h.store.createRecord(ws.id, newRecord('companies', { name: 'Acme' }, { id }), [event]);
      const [written, ...rest] = await timeline(h, ws.id);
      expect(rest).toEqual([]);
      expect(written).toEqual({ id: expect.stringMatching(/^evt_/), workspace_id: ws.id, at: expect.any(String), ...event });
      expect(written!.at >= before && written!.at <= new Date().toISOString()).toBe(true);
    });

    it('writes no event when a change carries none', async () => {
      const ws = await freshWorkspace(h);
      const record = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Quiet' }));
      await h.store.updateRecord(ws.id, record.id, { data: { name: 'Still quiet' }, uniques: [], refs: [] }, []);
      expect(await h.store.listEvents(ws.id, { offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
    });

    it('writes the events of every record and object type change', async () => {
      const ws = await freshWorkspace(h);
      const record = await h.store.createRecord(ws.id, newRecord('companies', { name: 'A' }), [ev('create', 'record', 'r')]);
      await h.store.updateRecord(ws.id, record.id, { data: { name: 'B' }, uniques: [], refs: [] }, [ev('update', 'record', record.id, [record.id])]);
      await h.store.softDeleteRecord(ws.id, record.id, [ev('delete', 'record', record.id, [record.id])]);
      await h.store.restoreRecord(ws.id, record.id, [], [ev('restore', 'record', record.id, [record.id])]);
      await h.store.createRecords(ws.id, [newRecord('companies', { name: 'C' })], [ev('create', 'record', 'bulk')]);
      await h.store.createObjectType(ws.id, { slug: 'pets', name: 'Pets', fields: [] }, [ev('create', 'object_type', 'pets')]);
      await h.store.updateObjectType(ws.id, 'pets', { name: 'Animals' }, [ev('update', 'object_type', 'pets')]);
      await h.store.addField(ws.id, 'pets', { slug: 'age', name: 'Age', type: 'number' }, [ev('create', 'field', 'pets')]);
      await h.store.updateField(ws.id, 'pets', 'age', { archived: true }, [ev('update', 'field', 'pets')]);
      await h.store.deleteObjectType(ws.id, 'pets', [ev('delete', 'object_type', 'pets')]);
      expect(actions(await timeline(h, ws.id))).toEqual([
        'delete object_type', 'update field', 'create field', 'update object_type', 'create object_type',
        'create record', 'restore record', 'delete record', 'update record', 'create record',
      ]);
    });

    it('writes the events of every list, entry, view, note and task change', async () => {
      const ws = await freshWorkspace(h);
      const [deal] = await deals(h, ws.id, 'Deal');
      const list = await h.store.createList(ws.id, { object_type_slug: 'deals', name: 'L', fields: [], created_by: null }, [ev('create', 'list', 'l')]);
      await h.store.updateList(ws.id, list.id, { name: 'M' }, [ev('update', 'list', list.id)]);
      const [entry] = await h.store.addListEntries(ws.id, list.id, [{ record_id: deal!.id, data: {} }], null, [ev('add', 'entry', 'e', [deal!.id])]);
      await h.store.updateListEntry(ws.id, entry!.id, {}, [ev('update', 'entry', entry!.id, [deal!.id])]);
      await h.store.removeListEntry(ws.id, entry!.id, [ev('remove', 'entry', entry!.id, [deal!.id])]);
      await h.store.deleteList(ws.id, list.id, [ev('delete', 'list', list.id)]);
      const view = await h.store.createView(ws.id, { name: 'V', object_type_slug: 'deals', created_by: null }, [ev('create', 'view', 'v')]);
      await h.store.updateView(ws.id, view.id, { name: 'W' }, [ev('update', 'view', view.id)]);
      await h.store.deleteView(ws.id, view.id, [ev('delete', 'view', view.id)]);
      const note = await h.store.createNote(ws.id, { kind: 'note', title: 'N', body: '', format: 'plain', record_ids: [], created_by: null }, [ev('create', 'note', 'n')]);
      await h.store.updateNote(ws.id, note.id, { title: 'O' }, [ev('update', 'note', note.id)]);
      await h.store.deleteNote(ws.id, note.id, [ev('delete', 'note', note.id)]);
      const task = await h.store.createTask(ws.id, { title: 'T', body: '', status: 'open', due_at: null, assignee_id: null, record_ids: [], created_by: null }, [ev('create', 'task', 't')]);
      await h.store.updateTask(ws.id, task.id, { status: 'done' }, [ev('update', 'task', task.id)]);
      await h.store.deleteTask(ws.id, task.id, [ev('delete', 'task', task.id)]);
      expect(actions(await timeline(h, ws.id))).toEqual([
        'delete task', 'update task', 'create task', 'delete note', 'update note', 'create note', 'delete view', 'update view', 'create view',
        'delete list', 'remove entry', 'update entry', 'add entry', 'update list', 'create list',
      ]);
    });

    it('writes no event when a change fails', async () => {
      const ws = await freshWorkspace(h);
      await h.store.createRecord(ws.id, contact('Ada', 'ada@example.com'));
      const list = await pipeline(h, ws.id);
      const [deal] = await deals(h, ws.id, 'Deal');
      await h.store.addListEntries(ws.id, list.id, [{ record_id: deal!.id, data: {} }], null, []);
      const unknownRecord = 'rec_00000000000000000000000000';
      await expectCrmError(h.store.createRecord(ws.id, contact('Copy', 'ada@example.com'), [ev('create', 'record', 'x')]), 'conflict');
      await expectCrmError(h.store.createRecords(ws.id, [contact('Copy', 'ada@example.com')], [ev('create', 'record', 'x')]), 'conflict');
      await expectCrmError(h.store.updateRecord(ws.id, unknownRecord, { data: {}, uniques: [], refs: [] }, [ev('update', 'record', 'x')]), 'not_found');
      await expectCrmError(h.store.createObjectType(ws.id, { slug: 'deals', name: 'Again', fields: [] }, [ev('create', 'object_type', 'x')]), 'conflict');
      await expectCrmError(h.store.addListEntries(ws.id, list.id, [{ record_id: deal!.id, data: {} }], null, [ev('add', 'entry', 'x', [deal!.id])]), 'conflict');
      await expectCrmError(h.store.createNote(ws.id, { kind: 'note', title: 'N', body: '', format: 'plain', record_ids: [unknownRecord], created_by: null }, [ev('create', 'note', 'x')]), 'not_found');
      await expectCrmError(h.store.updateTask(ws.id, 'tsk_00000000000000000000000000', { title: 'x' }, [ev('update', 'task', 'x')]), 'not_found');
      await expectCrmError(h.store.createView(ws.id, { name: 'V', object_type_slug: 'projects', created_by: null }, [ev('create', 'view', 'x')]), 'not_found');
      expect(await h.store.listEvents(ws.id, { offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
    });

    it('orders events newest first, also when one change writes several within one millisecond', async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      const records = await deals(h, ws.id, ...Array.from({ length: 12 }, (_, i) => `Deal ${i}`));
      const events = records.map((r, i) => ev('add', 'entry', `entry ${i}`, [r.id]));
      await h.store.addListEntries(ws.id, list.id, records.map((r) => ({ record_id: r.id, data: {} })), null, events);
      const read = await timeline(h, ws.id);
      expect(read.map((e) => e.resource_id)).toEqual(events.map((e) => e.resource_id).reverse());
      expect(read.map((e) => e.id)).toEqual(read.map((e) => e.id).sort().reverse());
    });

    it('orders events newest first across many quick changes', async () => {
      const ws = await freshWorkspace(h);
      const labels = Array.from({ length: 25 }, (_, i) => `change ${i}`);
      for (const label of labels) await h.store.createRecord(ws.id, newRecord('companies', { name: label }), [ev('create', 'record', label)]);
      expect((await timeline(h, ws.id)).map((e) => e.resource_id)).toEqual([...labels].reverse());
    });

    it('reads the timeline of one record: its own events and those of notes, tasks and entries naming it', async () => {
      const ws = await freshWorkspace(h);
      const [deal, other] = await deals(h, ws.id, 'Deal', 'Other');
      const list = await pipeline(h, ws.id);
      await h.store.updateRecord(ws.id, deal!.id, { data: { name: 'Deal 2' }, uniques: [], refs: [] }, [ev('update', 'record', deal!.id, [deal!.id])]);
      await h.store.updateRecord(ws.id, other!.id, { data: { name: 'Other 2' }, uniques: [], refs: [] }, [ev('update', 'record', other!.id, [other!.id])]);
      const note = await h.store.createNote(ws.id, { kind: 'call', title: 'Call', body: '', format: 'plain', record_ids: [deal!.id, other!.id], created_by: null },
        [ev('create', 'note', 'n', [deal!.id, other!.id])]);
      await h.store.createTask(ws.id, { title: 'T', body: '', status: 'open', due_at: null, assignee_id: null, record_ids: [deal!.id], created_by: null },
        [ev('create', 'task', 't', [deal!.id])]);
      await h.store.addListEntries(ws.id, list.id, [{ record_id: deal!.id, data: {} }], null, [ev('add', 'entry', 'e', [deal!.id])]);
      await h.store.deleteNote(ws.id, note.id, [ev('delete', 'note', note.id, [deal!.id, other!.id])]);
      expect(actions(await timeline(h, ws.id, deal!.id))).toEqual(['delete note', 'add entry', 'create task', 'create note', 'update record']);
      expect(actions(await timeline(h, ws.id, other!.id))).toEqual(['delete note', 'create note', 'update record']);
      expect((await h.store.listEvents(ws.id, { record_id: deal!.id, offset: 1, limit: 2 })).total).toBe(5);
      expect(await timeline(h, ws.id, 'rec_00000000000000000000000000')).toEqual([]);
    });

    it('keeps a soft-deleted record’s history readable', async () => {
      const ws = await freshWorkspace(h);
      const [deal] = await deals(h, ws.id, 'Deal');
      await h.store.softDeleteRecord(ws.id, deal!.id, [ev('delete', 'record', deal!.id, [deal!.id])]);
      expect(actions(await timeline(h, ws.id, deal!.id))).toEqual(['delete record']);
    });

    it('pages the timeline with a total', async () => {
      const ws = await freshWorkspace(h);
      for (const label of ['a', 'b', 'c', 'd', 'e']) await h.store.createView(ws.id, { name: label, object_type_slug: 'deals', created_by: null }, [ev('create', 'view', label)]);
      const page = await h.store.listEvents(ws.id, { offset: 1, limit: 2 });
      expect({ ids: page.items.map((e) => e.resource_id), total: page.total }).toEqual({ ids: ['d', 'c'], total: 5 });
    });

    it('returns only the events after a since cursor, counted the same way, workspace-wide and per record', async () => {
      const ws = await freshWorkspace(h);
      const [deal] = await deals(h, ws.id, 'Deal');
      const write = (label: string) =>
        h.store.updateRecord(ws.id, deal!.id, { data: { name: label }, uniques: [], refs: [] }, [ev('update', 'record', label, [deal!.id])]);
      await write('one');
      await write('two');
      const [cursor] = await timeline(h, ws.id);
      expect(cursor!.resource_id).toBe('two');
      expect(await h.store.listEvents(ws.id, { since: cursor!.id, offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
      await write('three');
      await write('four');
      const feed = await h.store.listEvents(ws.id, { since: cursor!.id, offset: 0, limit: 10 });
      expect({ ids: feed.items.map((e) => e.resource_id), total: feed.total }).toEqual({ ids: ['four', 'three'], total: 2 });
      const perRecord = await h.store.listEvents(ws.id, { record_id: deal!.id, since: cursor!.id, offset: 1, limit: 10 });
      expect({ ids: perRecord.items.map((e) => e.resource_id), total: perRecord.total }).toEqual({ ids: ['three'], total: 2 });
      expect((await h.store.listEvents(ws.id, { since: EVENT_ZERO, offset: 0, limit: 10 })).total).toBe(4);
    });

    it('pages older events with a before cursor, with no repeats while new events arrive, counted the same way', async () => {
      const ws = await freshWorkspace(h);
      const [deal, other] = await deals(h, ws.id, 'Deal', 'Other');
      const write = (record: { id: string }, label: string) =>
        h.store.updateRecord(ws.id, record.id, { data: { name: label }, uniques: [], refs: [] }, [ev('update', 'record', label, [record.id])]);
      for (const label of ['a', 'b', 'c', 'd', 'e']) await write(deal!, label);
      await write(other!, 'x');
      const first = await h.store.listEvents(ws.id, { offset: 0, limit: 2 });
      expect(first.items.map((e) => e.resource_id)).toEqual(['x', 'e']);
      await write(deal!, 'f');
      const next = await h.store.listEvents(ws.id, { before: first.items.at(-1)!.id, offset: 0, limit: 2 });
      expect({ ids: next.items.map((e) => e.resource_id), total: next.total }).toEqual({ ids: ['d', 'c'], total: 4 });
      const skipped = await h.store.listEvents(ws.id, { before: first.items.at(-1)!.id, offset: 2, limit: 2 });
      expect({ ids: skipped.items.map((e) => e.resource_id), total: skipped.total }).toEqual({ ids: ['b', 'a'], total: 4 });
      const ids = (await timeline(h, ws.id)).map((e) => e.id);
      const between = await h.store.listEvents(ws.id, { since: ids[5]!, before: ids[1]!, offset: 0, limit: 10 });
      expect({ ids: between.items.map((e) => e.resource_id), total: between.total }).toEqual({ ids: ['e', 'd', 'c'], total: 3 });
      const perRecord = await h.store.listEvents(ws.id, { record_id: deal!.id, before: ids[2]!, offset: 0, limit: 10 });
      expect({ ids: perRecord.items.map((e) => e.resource_id), total: perRecord.total }).toEqual({ ids: ['d', 'c', 'b', 'a'], total: 4 });
      const named = await h.store.listEvents(ws.id, { record_id: 'rec_00000000000000000000000000', before: ids[0]!, offset: 0, limit: 10 });
      expect(named).toEqual({ items: [], total: 0 });
      expect(await h.store.listEvents(ws.id, { before: EVENT_ZERO, offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
      expect((await h.store.listEvents(ws.id, { offset: 0, limit: 1 })).total).toBe(7);
    });
  });
}
