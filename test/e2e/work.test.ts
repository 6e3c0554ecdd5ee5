import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, startHarness, STYLES, type Harness, type Style } from './harness.ts';

/**
 * The work surface over all three call styles with the same expectations: lists and
 * entries, views, notes, tasks and the timeline.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe.each(STYLES)('lists, views, notes, tasks and the timeline over %s', (style: Style) => {
  const call = (tool: string, params: unknown, key: string = h.ws.owner.key) => callTool(h, style, key, tool, params);
  const ok = async (tool: string, params: unknown, key?: string) => {
    const out = await call(tool, params, key);
    if (!out.ok) throw new Error(`${tool} failed: ${out.status} ${out.code} ${out.message}`);
    return out.result;
  };
  const deal = async (name: string, key?: string) =>
    (await ok('records.create', { object_type_slug: 'deals', data: { name: `${name} ${style}`, amount: 1000 } }, key)).record_id as string;
  const pipeline = async () => ok('lists.create', {
    object_type_slug: 'deals', name: `Pipeline ${style}`,
    fields: [{ slug: 'stage', name: 'Stage', type: 'status', options: ['lead', 'qualified', 'proposal', 'won'] }, { slug: 'score', name: 'Score', type: 'number' }],
  });

  it('creates, reads, renames, lists and deletes a list', async () => {
    const list = await pipeline();
    expect(list).toMatchObject({ name: `Pipeline ${style}`, object_type_slug: 'deals', list_id: list.id });
    expect(list.fields.map((f: { slug: string }) => f.slug)).toEqual(['stage', 'score']);
    expect((await ok('lists.get', { list_id: list.list_id })).name).toBe(`Pipeline ${style}`);
    expect((await ok('lists.update', { list_id: list.list_id, name: `Renamed ${style}` })).name).toBe(`Renamed ${style}`);
    expect((await ok('lists.list', { object_type_slug: 'deals' })).items.map((l: { list_id: string }) => l.list_id)).toContain(list.list_id);
    await ok('lists.delete', { list_id: list.list_id });
    expect(await call('lists.get', { list_id: list.list_id })).toMatchObject({ ok: false, status: 404, code: 'not_found' });
    expect((await ok('lists.list', {})).items.map((l: { list_id: string }) => l.list_id)).not.toContain(list.list_id);
  });

  it('adds entries in bulk, lists them filtered with display names, updates and removes one', async () => {
    const list = await pipeline();
    const ids = [await deal('Alpha'), await deal('Beta'), await deal('Gamma')];
    const added = await ok('lists.bulk_add_entry', {
      list_id: list.list_id,
      entries: [{ record_id: ids[0], data: { stage: 'lead', score: 3 } }, { record_id: ids[1], data: { stage: 'qualified', score: 9 } }, { record_id: ids[2] }],
    });
    expect(added.added).toBe(3);
    const qualified = await ok('lists.entries', { list_id: list.list_id, filters: { stage: { in: ['qualified', 'proposal'] } } });
    expect(qualified.total).toBe(1);
    expect(qualified.items[0]).toMatchObject({ record_id: ids[1], data: { stage: 'qualified', score: 9 }, record: { display_name: `Beta ${style}`, object_type_slug: 'deals' } });
    const sorted = await ok('lists.entries', { list_id: list.list_id, sort_field: 'score', ascending: false });
    expect(sorted.items.map((e: { record_id: string }) => e.record_id)).toEqual([ids[1], ids[0], ids[2]]);

    const entry = qualified.items[0];
    const moved = await ok('lists.update_entry', { entry_id: entry.entry_id, data: { stage: 'proposal' } });
    expect(moved.data).toEqual({ stage: 'proposal', score: 9 });
    const badStage = await call('lists.update_entry', { entry_id: entry.entry_id, data: { stage: 'proposl' } });
    expect(badStage).toMatchObject({ ok: false, status: 400, details: { param: 'data.stage', suggestion: 'proposal' } });
    await ok('lists.remove_entry', { entry_id: entry.entry_id });
    expect((await ok('lists.entries', { list_id: list.list_id })).total).toBe(2);
    const history = await ok('timeline.list', { record_id: ids[1] });
    expect(history.items.map((e: { action: string; resource_type: string }) => `${e.action} ${e.resource_type}`).slice(0, 3))
      .toEqual(['remove entry', 'update entry', 'add entry']);
  });

  it("takes a deleted record's hidden entry off a list, and refuses to edit it until the record is restored", async () => {
    const list = await pipeline();
    const [kept, gone] = [await deal('Kept'), await deal('Gone')];
    await ok('lists.bulk_add_entry', { list_id: list.list_id, entries: [{ record_id: kept }, { record_id: gone, data: { score: 1 } }] });
    const goneEntry = (await ok('lists.entries', { list_id: list.list_id })).items.find((e: { record_id: string }) => e.record_id === gone);
    await ok('records.delete', { record_id: gone });
    expect((await ok('lists.entries', { list_id: list.list_id })).total).toBe(1);
    const edit = await call('lists.update_entry', { entry_id: goneEntry.entry_id, data: { score: 2 } });
    expect(edit).toMatchObject({ ok: false, status: 404, code: 'not_found', details: { param: 'entry_id', resource: 'record', id: gone } });
    expect(edit.ok ? '' : edit.message).toMatch(/is deleted/);
    expect(await ok('lists.remove_entry', { entry_id: goneEntry.entry_id })).toMatchObject({
      entry_id: goneEntry.entry_id, record_id: gone, record: { record_id: gone, object_type_slug: 'deals', display_name: `Gone ${style}` },
    });
    await ok('records.restore', { record_id: gone });
    expect((await ok('lists.entries', { list_id: list.list_id })).items.map((e: { record_id: string }) => e.record_id)).toEqual([kept]);
  });

  it('lists the entries of one batch in the order they were given, though they share a timestamp', async () => {
    const list = await pipeline();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await deal(`Order ${i}`));
    const given = [...ids].reverse();
    await ok('lists.bulk_add_entry', { list_id: list.list_id, entries: given.map((record_id) => ({ record_id })) });
    const listed = await ok('lists.entries', { list_id: list.list_id, page_size: 100 });
    expect(listed.items.map((e: { record_id: string }) => e.record_id)).toEqual(given);
    expect((await ok('lists.entries', { list_id: list.list_id, page_size: 100, ascending: false })).items.map((e: { record_id: string }) => e.record_id))
      .toEqual(ids);
  });

  it('refuses a 101-entry batch naming the limit, and writes nothing', async () => {
    const list = await pipeline();
    const id = await deal('Batch');
    const entries = Array.from({ length: 101 }, () => ({ record_id: id }));
    const out = await call('lists.bulk_add_entry', { list_id: list.list_id, entries });
    expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'entries' } });
    expect(out.ok || out.message).toContain('100');
    expect((await ok('lists.entries', { list_id: list.list_id })).total).toBe(0);
  });

  it('refuses a batch with one bad entry, names it, and writes nothing', async () => {
    const list = await pipeline();
    const good = [await deal('Good 1'), await deal('Good 2')];
    const out = await call('lists.bulk_add_entry', {
      list_id: list.list_id,
      entries: [{ record_id: good[0], data: { stage: 'lead' } }, { record_id: good[1], data: { stage: 'wonn' } }],
    });
    expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'entries[1].data.stage' } });
    expect(!out.ok && out.details.failures).toEqual([expect.objectContaining({ index: 1, param: 'entries[1].data.stage' })]);
    expect((await ok('lists.entries', { list_id: list.list_id })).total).toBe(0);
  });

  it('names every failing entry of a refused batch, those already in the list too', async () => {
    const list = await pipeline();
    const [inList, fresh] = [await deal('In list'), await deal('Fresh')];
    await ok('lists.bulk_add_entry', { list_id: list.list_id, entries: [{ record_id: inList }] });
    const out = await call('lists.bulk_add_entry', {
      list_id: list.list_id, entries: [{ record_id: inList }, { record_id: fresh, data: { stage: 'wonn' } }, { record_id: fresh }],
    });
    expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'entries[1].data.stage' } });
    expect(!out.ok && out.details.failures.map((f: { index: number; code: string }) => [f.index, f.code])).toEqual([[0, 'conflict'], [1, 'validation_error'], [2, 'conflict']]);
  });

  it('counts names and titles in characters, as the published schemas do: 100 emoji are 100, not 200', async () => {
    expect((await ok('lists.create', { object_type_slug: 'deals', name: '😀'.repeat(100) })).name).toBe('😀'.repeat(100));
    expect(await call('lists.create', { object_type_slug: 'deals', name: '😀'.repeat(101) })).toMatchObject({ ok: false, status: 400, details: { param: 'name' } });
    expect((await ok('notes.create', { title: '😀'.repeat(150) })).title).toBe('😀'.repeat(150));
    expect((await ok('tasks.create', { title: '😀'.repeat(150) })).title).toBe('😀'.repeat(150));
  });

  it('refuses a unique entry field, which nothing would enforce', async () => {
    const out = await call('lists.create', { object_type_slug: 'deals', name: `Unique ${style}`, fields: [{ slug: 'code', name: 'Code', type: 'text', unique: true }] });
    expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'fields[0].unique' } });
    const copied = await ok('lists.create', { object_type_slug: 'deals', name: `Copied ${style}`, fields: [{ slug: 'code', name: 'Code', type: 'text', unique: false }] });
    expect(copied.fields[0]).toMatchObject({ slug: 'code', unique: false });
  });

  it('refuses adding a record already in the list with conflict', async () => {
    const list = await pipeline();
    const id = await deal('Twice');
    await ok('lists.bulk_add_entry', { list_id: list.list_id, entries: [{ record_id: id }] });
    const again = await call('lists.bulk_add_entry', { list_id: list.list_id, entries: [{ record_id: id }] });
    expect(again).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'entries[0].record_id' } });
  });

  it('saves, reads, updates, lists and deletes views, checked against the fields', async () => {
    const view = await ok('views.create', {
      name: `Big deals ${style}`, object_type_slug: 'deals', filters: { amount: { gte: 50000 } }, sorts: [{ field: 'amount', ascending: false }], visible_fields: ['name', 'amount'],
    });
    expect(view).toMatchObject({ view_id: view.id, filters: { amount: { gte: 50000 } }, sorts: [{ field: 'amount', ascending: false }], visible_fields: ['name', 'amount'] });
    expect((await ok('views.get', { view_id: view.view_id })).name).toBe(`Big deals ${style}`);
    const cleared = await ok('views.update', { view_id: view.view_id, filters: null });
    expect(cleared.filters).toBeNull();
    // A view's filters, null included, are what records.list takes: null is no filter.
    const all = await ok('records.list', { object_type_slug: 'deals', page_size: 1 });
    expect((await ok('records.list', { object_type_slug: 'deals', filters: cleared.filters, page_size: 1 })).total).toBe(all.total);
    expect((await ok('views.list', { object_type_slug: 'deals' })).items.map((v: { view_id: string }) => v.view_id)).toContain(view.view_id);
    expect(await call('views.list', { object_type_slug: 'deal' })).toMatchObject({ ok: false, status: 404, details: { param: 'object_type_slug', suggestion: 'deals' } });
    expect(await call('views.list', { list_id: 'lst_00000000000000000000000000' })).toMatchObject({ ok: false, status: 404, details: { param: 'list_id' } });
    await ok('views.delete', { view_id: view.view_id });
    expect(await call('views.get', { view_id: view.view_id })).toMatchObject({ ok: false, status: 404 });

    const misspelt = await call('views.create', { name: 'Bad', object_type_slug: 'deals', filters: { amout: { gte: 1 } } });
    expect(misspelt).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { suggestion: 'amount' } });
    const badVisible = await call('views.create', { name: 'Bad', object_type_slug: 'deals', visible_fields: ['nmae'] });
    expect(badVisible).toMatchObject({ ok: false, status: 400, details: { param: 'visible_fields[0]', suggestion: 'name' } });
    const list = await pipeline();
    const listView = await ok('views.create', { name: 'Qualified', list_id: list.list_id, filters: { stage: 'qualified' } });
    expect(listView).toMatchObject({ list_id: list.list_id, object_type_slug: 'deals' });
    const unfiltered = await ok('views.create', { name: 'Every entry', list_id: list.list_id });
    expect(unfiltered.filters).toBeNull();
    await ok('lists.bulk_add_entry', { list_id: list.list_id, entries: [{ record_id: await deal('In view') }] });
    expect((await ok('lists.entries', { list_id: list.list_id, filters: unfiltered.filters })).total).toBe(1);
  });

  it('writes notes on records, lists and edits them; a deleted note leaves lists but stays on the timeline', async () => {
    const id = await deal('Noted');
    const note = await ok('notes.create', { kind: 'call', title: 'Intro call', body: '**Budget** approved', format: 'markdown', record_ids: [id] });
    expect(note).toMatchObject({ note_id: note.id, kind: 'call', record_ids: [id], records: [{ record_id: id, display_name: `Noted ${style}` }] });
    expect((await ok('notes.get', { note_id: note.note_id })).body).toBe('**Budget** approved');
    expect((await ok('notes.update', { note_id: note.note_id, title: 'Intro call (done)' })).title).toBe('Intro call (done)');
    expect((await ok('notes.list', { record_id: id })).items.map((n: { note_id: string }) => n.note_id)).toEqual([note.note_id]);

    await ok('notes.delete', { note_id: note.note_id });
    expect((await ok('notes.list', { record_id: id })).total).toBe(0);
    expect(await call('notes.get', { note_id: note.note_id })).toMatchObject({ ok: false, status: 404 });
    const history = await ok('timeline.list', { record_id: id });
    const noteEvents = history.items.filter((e: { resource_id: string }) => e.resource_id === note.note_id);
    expect(noteEvents.map((e: { action: string }) => e.action)).toEqual(['delete', 'update', 'create']);
    expect(noteEvents[0]).toMatchObject({ resource_type: 'note', via: style, tool: 'notes.delete', actor_id: h.ws.owner.user_id });
    const missing = await call('notes.create', { title: 'x', record_ids: ['rec_01M80M9R1HS9S9FP9P9YQ048KD'] });
    expect(missing).toMatchObject({ ok: false, status: 400, details: { param: 'record_ids[0]' } });
  });

  it('creates tasks with full details, filters them, completes and deletes them', async () => {
    const id = await deal('Tasked');
    const task = await ok('tasks.create', { title: 'Send proposal', due_at: '2020-01-01', record_ids: [id], assignee_id: h.ws.admin.user_id });
    expect(task).toMatchObject({
      task_id: task.id, status: 'open', due_at: '2020-01-01T23:59:59.999Z', overdue: true,
      assignee: { user_id: h.ws.admin.user_id, email: 'admin@e2e.test' }, records: [{ record_id: id, display_name: `Tasked ${style}` }],
    });
    expect((await ok('tasks.get', { task_id: task.task_id })).overdue).toBe(true);
    const mine = await ok('tasks.list', { assignee_id: h.ws.admin.user_id, status: ['open'], due_before: '2020-06-01', record_id: id });
    expect(mine.items.map((t: { task_id: string }) => t.task_id)).toEqual([task.task_id]);
    expect((await ok('tasks.list', { record_id: id, due_after: '2021-01-01' })).total).toBe(0);
    const done = await ok('tasks.update', { task_id: task.task_id, status: 'done' });
    expect(done).toMatchObject({ status: 'done', overdue: false, completed_at: expect.any(String) });
    await ok('tasks.delete', { task_id: task.task_id });
    expect((await ok('tasks.list', { record_id: id })).total).toBe(0);
  });

  it('refuses a lone surrogate in a note body or title instead of storing replacement characters', async () => {
    const id = await deal('Surrogate');
    for (const params of [{ title: 's', body: 'x\ud800y', record_ids: [id] }, { title: 'end\udc00', record_ids: [id] }]) {
      const out = await call('notes.create', params);
      expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { rule: 'unicode' } });
    }
    expect((await ok('notes.list', { record_id: id })).total).toBe(0);
    const paired = await ok('notes.create', { title: 'pair', body: 'x\ud83d\ude00y', record_ids: [id] });
    expect(paired.body).toBe('x😀y');
  });

  it('refuses due dates and bounds that are not real days instead of rolling them over, and writes nothing', async () => {
    const id = await deal('Leap');
    for (const [params, param] of [
      [{ title: 'Leap', due_at: '2026-02-29', record_ids: [id] }, 'due_at'],
      [{ title: 'Leap', due_at: '2026-04-31T12:00:00Z', record_ids: [id] }, 'due_at'],
      // Blank is no date, here as in tasks.update (null is how to give none).
      [{ title: 'Leap', due_at: '', record_ids: [id] }, 'due_at'],
    ] as const) {
      const out = await call('tasks.create', params);
      expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param } });
    }
    const task = await ok('tasks.create', { title: 'Undated', due_at: null });
    expect(task.due_at).toBeNull();
    expect(await call('tasks.update', { task_id: task.task_id, due_at: '' })).toMatchObject({ ok: false, status: 400, details: { param: 'due_at' } });
    await ok('tasks.delete', { task_id: task.task_id });
    expect((await ok('tasks.list', { record_id: id })).total).toBe(0);
    expect(await call('tasks.list', { due_before: '2026-11-31' })).toMatchObject({ ok: false, code: 'validation_error', details: { param: 'due_before' } });
  });

  it("refuses a member's task on someone else's record with 403, and allows it on their own", async () => {
    const others = await deal('Not yours');
    const denied = await call('tasks.create', { title: 'Sneaky', record_ids: [others] }, h.ws.member.key);
    expect(denied).toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
    const handOff = await call('tasks.create', { title: 'For admin', assignee_id: h.ws.admin.user_id }, h.ws.member.key);
    expect(handOff).toMatchObject({ ok: false, status: 403 });
    const mine = await deal('Mine', h.ws.member.key);
    const task = await ok('tasks.create', { title: 'Follow up', record_ids: [mine] }, h.ws.member.key);
    expect(task.assignee_id).toBe(h.ws.member.user_id);
    expect(await call('notes.create', { title: 'Sneaky note', record_ids: [others] }, h.ws.member.key)).toMatchObject({ ok: false, status: 403 });
    expect(await call('lists.create', { object_type_slug: 'deals', name: 'Member list' }, h.ws.member.key)).toMatchObject({ ok: false, status: 403 });
  });

  it("keeps a member off notes and tasks on someone else's record, also while that record is deleted", async () => {
    const member = h.ws.member.key;
    const mine = await deal('Member owns', member);
    const others = await deal('Owner owns');
    const note = await ok('notes.create', { title: 'Shared', body: 'owner text', record_ids: [mine, others] });
    const task = await ok('tasks.create', { title: 'Call back', assignee_id: h.ws.member.user_id, record_ids: [others] });
    const refusedOn = { ok: false, status: 403, code: 'permission_denied', details: { record_id: others } };
    expect(await call('tasks.update', { task_id: task.task_id, status: 'done' }, member)).toMatchObject(refusedOn);
    expect(await call('tasks.delete', { task_id: task.task_id }, member)).toMatchObject(refusedOn);
    await ok('records.delete', { record_id: others });
    expect(await call('notes.update', { note_id: note.note_id, body: 'member text' }, member)).toMatchObject(refusedOn);
    expect(await call('notes.delete', { note_id: note.note_id }, member)).toMatchObject(refusedOn);
    expect(await call('tasks.update', { task_id: task.task_id, status: 'done' }, member)).toMatchObject(refusedOn);
    expect(await call('tasks.delete', { task_id: task.task_id }, member)).toMatchObject(refusedOn);
    await ok('records.restore', { record_id: others });
    expect(await ok('notes.get', { note_id: note.note_id })).toMatchObject({ body: 'owner text', deleted_at: null });
    expect(await ok('tasks.get', { task_id: task.task_id })).toMatchObject({ status: 'open', deleted_at: null });
    // On the member's own records, deleted or not, the member may.
    const own = await ok('notes.create', { title: 'Own', record_ids: [mine] }, member);
    await ok('records.delete', { record_id: mine }, member);
    expect(await ok('notes.update', { note_id: own.note_id, body: 'still mine' }, member)).toMatchObject({ body: 'still mine' });
  });

  it("takes back a note's or task's record_ids as read while one of them is in the trash, and refuses a trashed record it did not hold", async () => {
    const [gone, kept, other] = [await deal('Trashed link'), await deal('Live link'), await deal('Trashed other')];
    const note = await ok('notes.create', { title: 'Call notes', record_ids: [gone, kept] });
    const task = await ok('tasks.create', { title: 'Follow up', record_ids: [gone, kept] });
    await ok('records.delete', { record_id: gone });
    await ok('records.delete', { record_id: other });
    const read = await ok('notes.get', { note_id: note.note_id });
    expect(read.record_ids).toEqual([gone, kept]);
    expect(await ok('notes.update', { note_id: note.note_id, title: 'Call notes v2', record_ids: read.record_ids })).toMatchObject({ title: 'Call notes v2', record_ids: [gone, kept] });
    expect(await ok('tasks.update', { task_id: task.task_id, status: 'done', record_ids: [gone, kept] })).toMatchObject({ status: 'done', record_ids: [gone, kept] });
    const refused = { ok: false, status: 400, code: 'validation_error', details: { param: 'record_ids[2]', rule: 'reference_not_found' } };
    expect(await call('notes.update', { note_id: note.note_id, record_ids: [gone, kept, other] })).toMatchObject(refused);
    expect(await call('tasks.update', { task_id: task.task_id, record_ids: [gone, kept, other] })).toMatchObject(refused);
    // Restored, the record still has them.
    await ok('records.restore', { record_id: gone });
    expect((await ok('notes.list', { record_id: gone })).items.map((n: { note_id: string }) => n.note_id)).toEqual([note.note_id]);
    expect((await ok('tasks.list', { record_id: gone })).items.map((t: { task_id: string }) => t.task_id)).toEqual([task.task_id]);
  });

  it('refuses a malformed record or assignee id in a listing filter, naming it, rather than answering an empty page', async () => {
    for (const [tool, params, param] of [
      ['notes.list', { record_id: 'garbage' }, 'record_id'],
      ['tasks.list', { record_id: 'rec_short' }, 'record_id'],
      ['tasks.list', { assignee_id: 'garbage' }, 'assignee_id'],
      ['tasks.list', { assignee_id: 'rec_01J9ZK3M4N5P6Q7R8S9T0V1W2X' }, 'assignee_id'],
      ['timeline.list', { record_id: 'usr_01J9ZK3M4N5P6Q7R8S9T0V1W2X' }, 'record_id'],
    ] as const) {
      expect(await call(tool, params), `${tool} ${JSON.stringify(params)}`).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param, rule: 'format' } });
    }
    // Well-formed ids of nothing are still an empty page.
    expect(await ok('notes.list', { record_id: 'rec_01J9ZK3M4N5P6Q7R8S9T0V1W2X' })).toMatchObject({ items: [], total: 0 });
    expect(await ok('tasks.list', { assignee_id: h.ws.member.user_id, record_id: 'rec_01J9ZK3M4N5P6Q7R8S9T0V1W2X' })).toMatchObject({ items: [], total: 0 });
  });

  it('records every mutation on the timeline with provenance and a diff, and serves a change feed with since', async () => {
    await deal('Before the feed');
    const start = await ok('timeline.list', { page_size: 1 });
    const id = await deal('Feed');
    await ok('records.update', { record_id: id, data: { amount: 2500 } });
    const feed = await ok('timeline.list', { since: start.latest });
    expect(feed.items.map((e: { action: string; resource_id: string }) => [e.action, e.resource_id])).toEqual([['update', id], ['create', id]]);
    expect(feed.items[0]).toMatchObject({ resource_type: 'record', via: style, tool: 'records.update', key_id: expect.stringMatching(/^key_/), diff: { amount: { before: 1000, after: 2500 } } });
    expect((await ok('timeline.list', { since: feed.latest })).total).toBe(0);
    // A feed of more than a page: its head is on page 1; a later page has no head to give.
    await ok('records.update', { record_id: id, data: { amount: 3000 } });
    const one = await ok('timeline.list', { since: start.latest, page_size: 2 });
    const two = await ok('timeline.list', { since: start.latest, page_size: 2, page: 2 });
    expect([one.total, one.latest, two.items.length, two.latest]).toEqual([3, one.items[0].event_id, 1, null]);
    expect((await ok('timeline.list', { since: one.latest })).total).toBe(0);
    expect((await ok('timeline.list', { record_id: id, page_size: 1, page: 2 })).latest).toBeNull();
    expect(await call('timeline.list', { since: 'yesterday' })).toMatchObject({ ok: false, status: 400, details: { param: 'since' } });
  });

  it('pages the timeline back with before, unshifted by events written meanwhile', async () => {
    const id = await deal('Paged');
    for (const amount of [1, 2, 3]) await ok('records.update', { record_id: id, data: { amount } });
    const first = await ok('timeline.list', { record_id: id, page_size: 2 });
    const pageOne = first.items.map((e: { event_id: string }) => e.event_id);
    await ok('records.update', { record_id: id, data: { amount: 4 } });
    const next = await ok('timeline.list', { record_id: id, before: pageOne.at(-1), page_size: 2 });
    expect(next.items.map((e: { action: string; diff: unknown }) => [e.action, e.diff])).toEqual([
      ['update', { amount: { before: 1000, after: 1 } }], ['create', expect.anything()],
    ]);
    expect(next.total).toBe(2);
    expect(next.latest).toBeNull();
    expect(next.items.map((e: { event_id: string }) => e.event_id)).not.toContain(pageOne[0]);
    expect(await call('timeline.list', { before: 'rec_00000000000000000000000000' })).toMatchObject({ ok: false, status: 400, details: { param: 'before' } });
  });

  it("keeps another workspace's lists, notes and tasks out of reach", async () => {
    const list = await ok('lists.create', { object_type_slug: 'deals', name: 'Secret list' }, h.other.owner.key);
    const note = await ok('notes.create', { title: 'Secret note' }, h.other.owner.key);
    const task = await ok('tasks.create', { title: 'Secret task' }, h.other.owner.key);
    expect(await call('lists.get', { list_id: list.list_id })).toMatchObject({ ok: false, status: 404 });
    expect(await call('notes.get', { note_id: note.note_id })).toMatchObject({ ok: false, status: 404 });
    expect(await call('tasks.get', { task_id: task.task_id })).toMatchObject({ ok: false, status: 404 });
    expect(JSON.stringify(await ok('timeline.list', { page_size: 100 }))).not.toContain('Secret');
  });
});
