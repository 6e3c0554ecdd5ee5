import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CrmError } from '../../../src/domain/errors.ts';
import { addUser, createKey, createWorkspace } from '../../../src/domain/services/settings.ts';
import type { DumpRow } from '../../../src/domain/store/port-dump.ts';
import type { Store } from '../../../src/domain/store/port.ts';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';
import { canonicalJson } from '../../../src/store/transfer.ts';
import { authenticate } from '../../../gateway/auth/principal.ts';
import { invokeTool } from '../../../gateway/tools/invoke.ts';
import { tempStore, type TempStore } from './temp-store.ts';

const open: TempStore[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.cleanup()));
});

async function temp(): Promise<TempStore> {
  const t = await tempStore();
  open.push(t);
  return t;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

async function collect(rows: AsyncIterable<DumpRow>): Promise<DumpRow[]> {
  const out: DumpRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

const text = (rows: DumpRow[]) => rows.map(canonicalJson).join('\n');
/** Every row but a relation's has an id. */
const idOf = (row: DumpRow): string | undefined => ('id' in row.row ? row.row.id : undefined);

async function toolsOn(store: Store) {
  const ws = await createWorkspace(store, { name: 'Dump', plan: null, trialDays: 14 });
  const owner = await addUser(store, { workspace_id: ws.id, email: 'owner@dump.test', role: 'owner' });
  const { key } = await createKey(store, { workspace_id: ws.id, user_id: owner.id, name: 'main', scopes: [], prefix: 'crm' });
  const principal = await authenticate(store, `Bearer ${key}`, 'crm');
  return { ws, call: (tool: string, params: unknown) => invokeTool(store, principal, 'cli', tool, params) as Promise<any> };
}

/**
 * The derived rows of a workspace, keyed by public ids (pks differ between stores). Claims are
 * those of live object types: a deleted type's claims are never read again, and a load does not
 * rebuild them.
 */
function derived(db: Database.Database, workspaceId: string) {
  const all = (sql: string) => db.prepare(sql).all(workspaceId);
  return {
    recordTypes: all(`SELECT r.id, t.id AS type_id FROM records r JOIN object_types t ON t.pk = r.object_type_pk
                      WHERE r.workspace_id = ? ORDER BY r.id`),
    values: all(`SELECT r.id, t.id AS type_id, v.field, v.v_text, v.v_num FROM record_values v
                 JOIN records r ON r.pk = v.record_pk JOIN object_types t ON t.pk = v.object_type_pk
                 WHERE r.workspace_id = ? ORDER BY 1, 2, 3, 4, 5`),
    searchable: all('SELECT r.id FROM records_fts f JOIN records r ON r.pk = f.rowid WHERE r.workspace_id = ? ORDER BY 1'),
    searchDocs: all(`SELECT s.id, t.id AS type_id, hex(s.sz) AS sz FROM search_docs s JOIN object_types t ON t.pk = s.object_type_pk
                     WHERE t.workspace_id = ? ORDER BY 1`),
    claims: all(`SELECT t.id AS type_id, u.field, u.value, r.id FROM record_uniques u
                 JOIN records r ON r.pk = u.record_pk JOIN object_types t ON t.pk = u.object_type_pk
                 WHERE t.workspace_id = ? AND t.deleted_at IS NULL ORDER BY 1, 2, 3`),
    relations: all('SELECT * FROM relations WHERE workspace_id = ? ORDER BY from_id, source, type, to_id'),
    classifications: all('SELECT * FROM contact_classifications WHERE workspace_id = ? ORDER BY record_id'),
    entryValues: all(`SELECT e.id, l.id AS list_id, v.field, v.v_text, v.v_num FROM entry_values v
                      JOIN list_entries e ON e.pk = v.entry_pk JOIN lists l ON l.pk = v.list_pk
                      WHERE e.workspace_id = ? ORDER BY 1, 2, 3, 4, 5`),
    noteLinks: all('SELECT l.* FROM note_records l JOIN notes n ON n.id = l.note_id WHERE n.workspace_id = ? ORDER BY 1, 3'),
    taskLinks: all('SELECT l.* FROM task_records l JOIN tasks t ON t.id = l.task_id WHERE t.workspace_id = ? ORDER BY 1, 3'),
    eventRecords: all('SELECT * FROM event_records WHERE workspace_id = ? ORDER BY record_id, event_id'),
  };
}

describe('sqlite dumpWorkspace / loadDump', () => {
  it('rebuilds every derived row a normal write makes, and keeps records with the type they belonged to', async () => {
    const a = await temp();
    const { ws, call } = await toolsOn(a.store);
    await call('objects.create', {
      slug: 'projects', name: 'Projects',
      fields: [{ slug: 'name', name: 'Name', type: 'text', required: true }, { slug: 'code', name: 'Code', type: 'text', unique: true }, { slug: 'score', name: 'Score', type: 'rating' }],
    });
    // A slug reused after a delete: each record stays with its own type.
    await call('objects.create', { slug: 'scratch', name: 'Scratch', fields: [{ slug: 'name', name: 'Name', type: 'text' }, { slug: 'tag', name: 'Tag', type: 'text', unique: true }] });
    await tick();
    const oldScratch = await call('records.create', { object_type_slug: 'scratch', data: { name: 'old one', tag: 'x' } });
    await call('records.delete', { record_id: oldScratch.record_id });
    await tick();
    await call('objects.delete', { slug: 'scratch' });
    await tick();
    await call('objects.create', { slug: 'scratch', name: 'Scratch 2', fields: [{ slug: 'name', name: 'Name', type: 'text' }, { slug: 'tag', name: 'Tag', type: 'text', unique: true }] });
    await tick();
    const newScratch = await call('records.create', { object_type_slug: 'scratch', data: { name: 'new one', tag: 'x' } });

    const acme = await call('records.create', { object_type_slug: 'companies', data: { name: 'Acme Ltd', domain: 'https://acme.com/', employee_count: 40 } });
    const ada = await call('records.create', { object_type_slug: 'contacts', data: { name: 'Ada Lovelace', email: 'ada@acme.com', company: acme.record_id } });
    const bob = await call('records.create', { object_type_slug: 'contacts', data: { name: 'Bob', email: 'bob@acme.com', company: acme.record_id } });
    const deal = await call('records.create', { object_type_slug: 'deals', data: { name: 'Big', amount: 10, stage: 'won', contacts: [ada.record_id, bob.record_id] } });
    await call('records.create', { object_type_slug: 'projects', data: { name: 'Apollo', code: 'AP-1', score: 4 } });
    const list = await call('lists.create', { object_type_slug: 'contacts', name: 'Hot', fields: [{ slug: 'stage', name: 'Stage', type: 'status', options: ['new', 'met'] }, { slug: 'rank', name: 'Rank', type: 'number' }] });
    await call('lists.bulk_add_entry', { list_id: list.list_id, entries: [{ record_id: ada.record_id, data: { stage: 'met', rank: 2 } }, { record_id: bob.record_id, data: { stage: 'new' } }] });
    await call('notes.create', { title: 'Met', body: 'coffee', record_ids: [bob.record_id, ada.record_id] });
    await call('tasks.create', { title: 'Call', status: 'done', record_ids: [deal.record_id, bob.record_id] });
    // Bob goes (claims released, value rows dropped; his entry, links and edges stay), Ada goes and comes back.
    await call('records.delete', { record_id: bob.record_id });
    await call('records.delete', { record_id: ada.record_id });
    await call('records.restore', { record_id: ada.record_id });
    await call('views.create', { name: 'Hot view', object_type_slug: 'contacts', list_id: list.list_id, visible_fields: ['stage'] });
    // A link beside a field edge with the same ends and type: it is dumped as a link row, the field edge as a relation.
    await call('graph.link', { from_record_id: ada.record_id, to_record_id: acme.record_id, type: 'company', properties: { note: 'twin' } });
    await call('contacts.classify', {});

    const b = await temp();
    const dumped = await collect(a.store.dumpWorkspace(ws.id));
    expect(await b.store.loadDump(dumped)).toEqual({ rows: dumped.length });
    expect(text(await collect(b.store.dumpWorkspace(ws.id)))).toBe(text(dumped));
    // The source's last single writes may have left their search rows behind: a search writes them.
    await a.searched(ws.id);
    expect(derived(b.raw(), ws.id)).toEqual(derived(a.raw(), ws.id));

    const relations = dumped.filter((row) => row.kind === 'relation').map((row) => `${row.row.from_id} ${row.row.to_id} ${row.row.type} ${row.row.source}`);
    expect(relations).toEqual([...relations].sort());
    expect((await b.store.listRecords(ws.id, { object_type_slug: 'scratch', sort: { field: 'created_at', ascending: true, system: true, valueKind: 'text' }, offset: 0, limit: 10 })).items.map((r) => r.id))
      .toEqual([newScratch.record_id]);
    expect((await b.store.getRecord(ws.id, oldScratch.record_id, { includeDeleted: true }))?.data).toEqual({ name: 'old one', tag: 'x' });
    expect((await b.store.searchRecords(ws.id, { text: 'lovelace', offset: 0, limit: 5 })).items.map((r) => r.id)).toEqual([ada.record_id]);
    expect((await b.store.searchRecords(ws.id, { text: 'bob', offset: 0, limit: 5 })).total).toBe(0);
  });

  it('loads a dump whose unique field holds duplicates from before it was made unique; the earliest record keeps the claim', async () => {
    const a = await temp();
    const { ws, call } = await toolsOn(a.store);
    await call('objects.add_field', { slug: 'companies', field: { slug: 'code', name: 'Code', type: 'text' } });
    const first = await call('records.create', { object_type_slug: 'companies', data: { name: 'One', code: 'C' } });
    await call('records.create', { object_type_slug: 'companies', data: { name: 'Two', code: 'C' } });
    // objects.update_field now refuses to make a field unique over duplicates; a store written
    // before that (which turned the flag on without claims) holds them, so set the flag as it did.
    expect(await call('objects.update_field', { slug: 'companies', field_slug: 'code', unique: true }).catch((e: Error) => e.message))
      .toMatch(/cannot be unique while records/);
    a.raw().prepare(`UPDATE fields SET is_unique = 1 WHERE slug = 'code'`).run();

    const b = await temp();
    const dumped = await collect(a.store.dumpWorkspace(ws.id));
    await b.store.loadDump(dumped);
    expect(text(await collect(b.store.dumpWorkspace(ws.id)))).toBe(text(dumped));
    expect(b.raw().prepare(`SELECT r.id FROM record_uniques u JOIN records r ON r.pk = u.record_pk WHERE u.field = 'code'`).all())
      .toEqual([{ id: [first.record_id, idOf(dumped.find((row) => row.kind === 'record' && row.row.data['name'] === 'Two')!)!].sort()[0] }]);
  });

  it('loads a workspace whose plan was stored as "none" with no plan, so its lapsed trial stays lapsed', async () => {
    const a = await temp();
    const { ws } = await toolsOn(a.store);
    a.raw().prepare(`UPDATE workspaces SET plan = 'None', trial_ends_at = '2020-01-01T00:00:00.000Z' WHERE id = ?`).run(ws.id);
    const dumped = await collect(a.store.dumpWorkspace(ws.id));
    expect(dumped[0]).toMatchObject({ kind: 'workspace', row: { plan: 'None' } });
    const b = await temp();
    await b.store.loadDump(dumped);
    expect(await b.store.getWorkspace(ws.id)).toMatchObject({ plan: null, trial_ends_at: '2020-01-01T00:00:00.000Z' });
  });

  it('dumps from a snapshot: a write made while a dump is read is not in it, and stopping early releases the snapshot', async () => {
    const a = await temp();
    const { ws, call } = await toolsOn(a.store);
    await call('records.create', { object_type_slug: 'companies', data: { name: 'Before' } });
    const rows = a.store.dumpWorkspace(ws.id)[Symbol.asyncIterator]();
    expect((await rows.next()).value).toMatchObject({ kind: 'workspace' });
    const during = await call('records.create', { object_type_slug: 'companies', data: { name: 'During' } });
    const rest: DumpRow[] = [];
    for (let next = await rows.next(); !next.done; next = await rows.next()) rest.push(next.value);
    expect(rest.some((row) => idOf(row) === during.record_id)).toBe(false);
    expect(rest.filter((row) => row.kind === 'record')).toHaveLength(1);

    const early = a.store.dumpWorkspace(ws.id)[Symbol.asyncIterator]();
    await early.next();
    await early.return!(undefined);
    await call('records.create', { object_type_slug: 'companies', data: { name: 'After' } });
    expect((await collect(a.store.dumpWorkspace(ws.id))).filter((row) => row.kind === 'record')).toHaveLength(3);
  });

  it('round-trips between in-memory stores too', async () => {
    const a = createSqliteStore({ path: ':memory:' });
    const b = createSqliteStore({ path: ':memory:' });
    await Promise.all([a.init(), b.init()]);
    try {
      const { ws, call } = await toolsOn(a);
      await call('records.create', { object_type_slug: 'companies', data: { name: 'Mem', domain: 'mem.io' } });
      const dumped = await collect(a.dumpWorkspace(ws.id));
      await b.loadDump(a.dumpWorkspace(ws.id));
      expect(text(await collect(b.dumpWorkspace(ws.id)))).toBe(text(dumped));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('names the row of a reference the dump does not hold, and writes nothing', async () => {
    const a = await temp();
    const { ws, call } = await toolsOn(a.store);
    const acme = await call('records.create', { object_type_slug: 'companies', data: { name: 'Acme' } });
    await call('records.create', { object_type_slug: 'contacts', data: { name: 'Ada', company: acme.record_id } });
    // Ada's data no longer names Acme either (that is refused at her own row: the next test), so
    // the relation row is the first to name the missing record.
    const dumped = (await collect(a.store.dumpWorkspace(ws.id))).filter((row) => idOf(row) !== acme.record_id)
      .map((row) => (row.kind === 'record' && row.row.data['company'] === acme.record_id ? { ...row, row: { ...row.row, data: { name: 'Ada' } } } : row));
    const position = dumped.findIndex((row) => row.kind === 'relation') + 1;
    const b = await temp();
    await expect(b.store.loadDump(dumped)).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining(`dump row ${position} (relation): row.to_id names the record "${acme.record_id}", which is not in the dump`),
      details: expect.objectContaining({ row: position, kind: 'relation' }),
    });
    expect(await b.store.listWorkspaces()).toEqual([]);
    expect(b.raw().prepare('SELECT COUNT(*) AS n FROM records').get()).toEqual({ n: 0 });
  });

  it('refuses a record whose data refers to a record the dump does not hold, and loads one that refers to a later record', async () => {
    const a = await temp();
    const { ws, call } = await toolsOn(a.store);
    const acme = await call('records.create', { object_type_slug: 'companies', data: { name: 'Acme' } });
    const ada = await call('records.create', { object_type_slug: 'contacts', data: { name: 'Ada', company: acme.record_id } });
    const deal = await call('records.create', { object_type_slug: 'deals', data: { name: 'Big', contacts: [ada.record_id] } });
    // Ada refers to a company made after her: her row comes before its row in the dump.
    const later = await call('records.create', { object_type_slug: 'companies', data: { name: 'Later' } });
    await call('records.update', { record_id: ada.record_id, data: { company: later.record_id } });
    const dumped = await collect(a.store.dumpWorkspace(ws.id));
    const positionOf = (id: string) => dumped.findIndex((r) => r.kind === 'record' && r.row.id === id) + 1;
    expect(positionOf(ada.record_id)).toBeLessThan(positionOf(later.record_id));
    const b = await temp();
    const nowhere = 'rec_00000000000000000000000000';
    const broken = (id: string, change: (data: any) => void) => {
      const rows = structuredClone(dumped) as any[];
      change(rows.find((r) => r.kind === 'record' && r.row.id === id).row.data);
      return b.store.loadDump(rows).then(() => null, (e: unknown) => e);
    };
    expect(((await broken(ada.record_id, (data) => { data.company = nowhere; })) as CrmError).toJSON()).toEqual({
      code: 'validation_error',
      message: `dump row ${positionOf(ada.record_id)} (record ${ada.record_id}): row.data.company names the record "${nowhere}", which is not in the dump`,
      details: { param: 'row.data.company', row: positionOf(ada.record_id), kind: 'record', id: nowhere, field: 'row.data.company', resource: 'record' },
    });
    expect(((await broken(deal.record_id, (data) => { data.contacts = [ada.record_id, nowhere]; })) as CrmError).toJSON()).toMatchObject({
      message: expect.stringContaining(`dump row ${positionOf(deal.record_id)} (record ${deal.record_id}): row.data.contacts[1] names the record`),
    });
    expect(await b.store.listWorkspaces()).toEqual([]);
    expect(await b.store.loadDump(dumped)).toEqual({ rows: dumped.length });
    expect((await b.store.getRecord(ws.id, ada.record_id))?.data).toMatchObject({ company: later.record_id });
  });

  it('checks the shape and order of rows before writing anything', async () => {
    const a = await temp();
    const { ws } = await toolsOn(a.store);
    const dumped = await collect(a.store.dumpWorkspace(ws.id));
    const b = await temp();
    const broken = (change: (rows: any[]) => void) => {
      const rows = structuredClone(dumped) as any[];
      change(rows);
      return b.store.loadDump(rows);
    };
    await expect(broken((rows) => { rows[1].row.role = 'boss'; })).rejects.toMatchObject({
      code: 'validation_error', details: expect.objectContaining({ row: 2, kind: 'user', field: 'row.role' }),
    });
    await expect(broken((rows) => { delete rows[3].row.fields[0].archived; })).rejects.toMatchObject({
      code: 'validation_error', details: expect.objectContaining({ row: 4, field: 'row.fields[0].archived' }),
    });
    await expect(broken((rows) => { rows[2].row.extra = 1; })).rejects.toMatchObject({ details: expect.objectContaining({ row: 3, field: 'row.extra' }) });
    await expect(broken((rows) => { rows[2].row.workspace_id = 'ws_other'; })).rejects.toMatchObject({ details: expect.objectContaining({ row: 3, field: 'row.workspace_id' }) });
    await expect(broken((rows) => rows.reverse())).rejects.toMatchObject({ message: expect.stringContaining('first row of a dump must be the workspace') });
    await expect(broken((rows) => rows.splice(1, 0, rows.pop()))).rejects.toMatchObject({
      message: expect.stringContaining('user rows must come before object_type rows'), details: expect.objectContaining({ row: 3 }),
    });
    await expect(b.store.loadDump([])).rejects.toMatchObject({ code: 'validation_error' });
    expect(await b.store.listWorkspaces()).toEqual([]);
    expect(await b.store.loadDump(dumped)).toEqual({ rows: dumped.length });
  });

  it('checks record and entry data for the JSON type and stored form of their fields, keeping what earlier rules let in', async () => {
    const a = await temp();
    const { ws, call } = await toolsOn(a.store);
    await call('objects.add_field', { slug: 'companies', field: { slug: 'tier', name: 'Tier', type: 'select', options: ['gold', 'silver'] } });
    await call('objects.add_field', { slug: 'companies', field: { slug: 'tags', name: 'Tags', type: 'multi_select', options: ['a', 'b'] } });
    await call('objects.add_field', { slug: 'companies', field: { slug: 'stars', name: 'Stars', type: 'rating', max: 5 } });
    await call('objects.add_field', { slug: 'companies', field: { slug: 'founded', name: 'Founded', type: 'date' } });
    await call('objects.add_field', { slug: 'companies', field: { slug: 'seen', name: 'Seen', type: 'timestamp' } });
    const acme = await call('records.create', {
      object_type_slug: 'companies',
      data: { name: 'Acme', domain: 'acme.com', tier: 'silver', tags: ['a', 'b'], stars: 5, employee_count: 12, founded: '2020-01-31', seen: '2026-01-31T09:30:00Z' },
    });
    // Held values the fields no longer take: a retired option, a rating over the lowered max, an archived field's.
    await call('objects.update_field', { slug: 'companies', field_slug: 'tier', options: ['gold'] });
    await call('objects.update_field', { slug: 'companies', field_slug: 'stars', max: 3 });
    await call('objects.update_field', { slug: 'companies', field_slug: 'tags', archived: true });
    const list = await call('lists.create', { object_type_slug: 'companies', name: 'Targets', fields: [{ slug: 'rank', name: 'Rank', type: 'number' }] });
    await call('lists.bulk_add_entry', { list_id: list.list_id, entries: [{ record_id: acme.record_id, data: { rank: 1 } }] });
    const dumped = await collect(a.store.dumpWorkspace(ws.id));
    const b = await temp();
    const edited = (change: (data: Record<string, unknown>, row: any) => void, kind: 'record' | 'entry' = 'record') => {
      const rows = structuredClone(dumped) as any[];
      const at = rows.findIndex((r) => r.kind === kind && (kind === 'entry' || r.row.id === acme.record_id));
      change(rows[at].row.data, rows[at].row);
      return { rows, position: at + 1 };
    };
    const refused = async ({ rows, position }: { rows: any[]; position: number }, field: string, message: RegExp) => {
      const error = await b.store.loadDump(rows).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(CrmError);
      expect((error as CrmError).toJSON()).toMatchObject({
        code: 'validation_error', message: expect.stringMatching(message), details: expect.objectContaining({ row: position, param: field, field }),
      });
    };

    await refused(edited((data) => { data['employee_count'] = '12'; }), 'row.data.employee_count',
      new RegExp(`^dump row \\d+ \\(record ${acme.record_id}\\): row\\.data\\.employee_count must be a number \\(a number field\\), got string "12"$`));
    await refused(edited((data) => { data['tiers'] = 'gold'; }), 'row.data.tiers', /row\.data\.tiers is not a field of companies; did you mean "tier"\?/);
    await refused(edited((data) => { data['tier'] = 7; }), 'row.data.tier', /row\.data\.tier must be a non-empty string \(a select field\)/);
    await refused(edited((data) => { data['tags'] = 'a'; }), 'row.data.tags', /row\.data\.tags must be a non-empty array of distinct values, each a non-empty string/);
    await refused(edited((data) => { data['tags'] = ['a', 'a']; }), 'row.data.tags', /row\.data\.tags must be a non-empty array of distinct values/);
    await refused(edited((data) => { data['stars'] = 2.5; }), 'row.data.stars', /row\.data\.stars must be a whole number/);
    await refused(edited((data) => { data['founded'] = '2020-1-31'; }), 'row.data.founded', /row\.data\.founded must be a date as YYYY-MM-DD/);
    // Timestamps are ordered as text: one not in the form writes store would sort out of place.
    await refused(edited((data) => { data['seen'] = '2026-01-31T10:30:00+01:00'; }), 'row.data.seen', /row\.data\.seen must be a UTC timestamp as stored/);
    await refused(edited((data) => { data['domain'] = null; }), 'row.data.domain', /row\.data\.domain is null, no value/);
    await refused(edited((data) => { data['rank'] = 'first'; }, 'entry'), 'row.data.rank', /row\.data\.rank must be a number/);
    await refused(edited((data) => { data['name'] = 'x'; }, 'entry'), 'row.data.name', /row\.data\.name is not a field of the list "Targets"/);
    // A deleted record is checked too: records.restore indexes its data again.
    await refused(edited((data, row) => { row.deleted_at = row.updated_at; data['tier'] = 7; }), 'row.data.tier', /row\.data\.tier must be a non-empty string/);
    expect(await b.store.listWorkspaces()).toEqual([]);

    // What earlier write rules let in loads as it is: an option dropped before options were kept
    // as retired (or past the 500 kept), a number past today's bound, an email as it was typed.
    const legacy = edited((data) => Object.assign(data, { tier: 'bronze', employee_count: 1e16, stars: 9, domain: 'ACME.com' })).rows;
    expect(await b.store.loadDump(legacy)).toEqual({ rows: dumped.length });
    expect((await b.store.getRecord(ws.id, acme.record_id))?.data).toMatchObject({ tier: 'bronze', employee_count: 1e16, stars: 9, domain: 'ACME.com', tags: ['a', 'b'] });
    expect(text(await collect(b.store.dumpWorkspace(ws.id)))).toBe(text(legacy));
  });

  it('checks the config of stored field definitions for the types its readers rely on, not today\'s rules for new fields', async () => {
    const a = await temp();
    const { ws, call } = await toolsOn(a.store);
    await call('objects.add_field', { slug: 'companies', field: { slug: 'tier', name: 'Tier', type: 'select', options: ['gold', 'silver'] } });
    await call('objects.update_field', { slug: 'companies', field_slug: 'tier', options: ['gold'] });
    await call('lists.create', { object_type_slug: 'companies', name: 'Targets', fields: [{ slug: 'stars', name: 'Stars', type: 'rating' }] });
    const dumped = await collect(a.store.dumpWorkspace(ws.id));
    expect(dumped.find((r) => r.kind === 'object_type' && r.row.slug === 'companies')!.row).toMatchObject({
      fields: expect.arrayContaining([expect.objectContaining({ slug: 'tier', config: { options: ['gold'], retired_options: ['silver'] } })]),
    });
    const b = await temp();
    const edited = (kind: 'object_type' | 'list', slug: string, change: (field: any) => void) => {
      const rows = structuredClone(dumped) as any[];
      const at = rows.findIndex((r) => r.kind === kind && r.row.fields.some((f: any) => f.slug === slug));
      const index = rows[at].row.fields.findIndex((f: any) => f.slug === slug);
      change(rows[at].row.fields[index]);
      return { rows, at, index };
    };
    const refused = async (kind: 'object_type' | 'list', slug: string, change: (field: any) => void, message: RegExp) => {
      const { rows, at, index } = edited(kind, slug, change);
      const error = await b.store.loadDump(rows).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(CrmError);
      const prefix = `row\\.fields\\[${index}\\]\\.config\\.`;
      expect((error as CrmError).toJSON()).toMatchObject({
        code: 'validation_error', message: expect.stringMatching(new RegExp(`^dump row ${at + 1} \\(${kind} \\w+\\): ${prefix}${message.source}`)),
        details: expect.objectContaining({ row: at + 1, field: expect.stringMatching(new RegExp(`^${prefix}`)) }),
      });
    };

    await refused('object_type', 'tier', (f) => { f.config.options = 'gold'; }, /options must be an array of option strings/);
    await refused('object_type', 'tier', (f) => { f.config.options = ['gold', 3]; }, /options\[1\] must be a non-empty string/);
    await refused('object_type', 'tier', (f) => { f.config.retired_options = 'silver'; }, /retired_options must be an array of option strings/);
    await refused('object_type', 'company', (f) => { f.config.many = 'no'; }, /many must be true or false/);
    await refused('object_type', 'company', (f) => { f.config.target = 5; }, /target must be the slug of an object type/);
    await refused('object_type', 'amount', (f) => { f.config.currency_code = 840; }, /currency_code must be a currency code/);
    await refused('list', 'stars', (f) => { f.config.max = 0; }, /max must be a whole number from 1/);
    expect(await b.store.listWorkspaces()).toEqual([]);

    // Definitions made under earlier rules load: an option longer than today's 200 characters,
    // unique on a select, a config key of another type.
    const { rows } = edited('object_type', 'tier', (f) => Object.assign(f, { unique: true, config: { ...f.config, options: ['gold', 'g'.repeat(300)], max: 3 } }));
    expect(await b.store.loadDump(rows)).toEqual({ rows: dumped.length });
  });

  it('reports an unknown workspace as not_found', async () => {
    const a = await temp();
    await expect(collect(a.store.dumpWorkspace('ws_missing'))).rejects.toMatchObject({ code: 'not_found' });
  });
});
