import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.ts';
import { addUser, createKey, createWorkspace, revokeKey } from '../../src/domain/services/settings.ts';
import { createSqliteStore } from '../../src/store/sqlite/index.ts';
import { exportToFile, importFromFile } from '../../src/store/transfer.ts';
import type { RecordQuery, Store } from '../../src/domain/store/port.ts';
import { authenticate } from '../../gateway/auth/principal.ts';
import { invokeTool } from '../../gateway/tools/invoke.ts';

const dir = mkdtempSync(join(tmpdir(), 'crm-transfer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function open(name: string): Promise<Store> {
  const store = createSqliteStore({ path: join(dir, `${name}.sqlite`) });
  await store.init();
  return store;
}

/** A workspace with every kind of row, deleted and revoked ones included, made through the tools. */
async function populate(store: Store): Promise<{ workspaceId: string; key: string }> {
  const ws = await createWorkspace(store, { name: 'Transfer', plan: 'pro', trialDays: null });
  const owner = await addUser(store, { workspace_id: ws.id, email: 'owner@transfer.test', name: 'Owner', role: 'owner' });
  await addUser(store, { workspace_id: ws.id, email: 'member@transfer.test', role: 'member' });
  const { key } = await createKey(store, { workspace_id: ws.id, user_id: owner.id, name: 'main', scopes: [], prefix: 'crm' });
  const old = await createKey(store, { workspace_id: ws.id, user_id: owner.id, name: 'old', scopes: ['records'], prefix: 'crm' });
  await revokeKey(store, old.key_id);
  const principal = await authenticate(store, `Bearer ${key}`, 'crm');
  const call = (tool: string, params: unknown) => invokeTool(store, principal, 'cli', tool, params) as Promise<any>;

  await call('objects.create', { slug: 'projects', name: 'Projects', fields: [{ slug: 'name', name: 'Name', type: 'text', required: true }, { slug: 'tags', name: 'Tags', type: 'multi_select', options: ['a', 'b'] }] });
  await call('objects.update_field', { slug: 'projects', field_slug: 'tags', archived: true });
  await call('objects.create', { slug: 'scratch', name: 'Scratch', fields: [{ slug: 'name', name: 'Name', type: 'text' }] });
  await call('objects.delete', { slug: 'scratch' });
  const acme = await call('records.create', { object_type_slug: 'companies', data: { name: 'Acme', domain: 'acme.com', industry: 'software', employee_count: 12 } });
  const ada = await call('records.create', { object_type_slug: 'contacts', data: { name: 'Ada', email: 'ada@acme.com', company: acme.record_id } });
  const deal = await call('records.create', { object_type_slug: 'deals', data: { name: 'Big', amount: 5000.5, stage: 'proposal', company: acme.record_id, contacts: [ada.record_id], close_date: '2026-12-01' } });
  const gone = await call('records.create', { object_type_slug: 'companies', data: { name: 'Gone', domain: 'gone.io' } });
  await call('records.delete', { record_id: gone.record_id });
  const list = await call('lists.create', { object_type_slug: 'deals', name: 'Pipeline', fields: [{ slug: 'stage', name: 'Stage', type: 'status', options: ['lead', 'won'] }] });
  await call('lists.bulk_add_entry', { list_id: list.list_id, entries: [{ record_id: deal.record_id, data: { stage: 'lead' } }] });
  const view = await call('views.create', { name: 'Big deals', object_type_slug: 'deals', filters: { amount: { gte: 1000 } }, sorts: [{ field: 'amount', ascending: false }] });
  await call('views.create', { name: 'Tmp', object_type_slug: 'deals' }).then((v) => call('views.delete', { view_id: v.view_id }));
  const note = await call('notes.create', { title: 'Call', body: '# notes', format: 'markdown', kind: 'call', record_ids: [ada.record_id, deal.record_id] });
  await call('notes.delete', { note_id: note.note_id });
  await call('tasks.create', { title: 'Follow up', due_at: '2026-12-02', record_ids: [deal.record_id] });
  await call('reports.create', { name: 'By stage', config: { object_type: 'deals', metric: 'sum', metric_field: 'amount', group_by: 'stage', chart_type: 'bar', filters: [{ field: 'amount', operator: 'gt', value: 0 }] } });
  await call('reports.create', { name: 'Tmp', config: { object_type: 'deals', metric: 'count', chart_type: 'number' } }).then((r) => call('reports.delete', { report_id: r.report_id }));
  const grace = await call('records.create', { object_type_slug: 'contacts', data: { name: 'Grace' } });
  await call('graph.link', { from_record_id: grace.record_id, to_record_id: acme.record_id, type: 'invested_in', properties: { round: 'seed' } });
  await call('graph.link', { from_record_id: grace.record_id, to_record_id: ada.record_id, type: 'knows' })
    .then((l) => call('graph.unlink', { link_id: l.link_id }));
  await call('contacts.classify', {});
  expect(view.view_id).toBeTruthy();
  return { workspaceId: ws.id, key };
}

describe('crm export / crm import', () => {
  it('round-trips a workspace losslessly: store A → file → store B → file gives the same file', async () => {
    const a = await open('a');
    const { workspaceId, key } = await populate(a);
    const fileA = join(dir, 'a.jsonl');
    const exported = await exportToFile(a, workspaceId, fileA);
    expect(exported).toBeGreaterThan(20);

    const b = await open('b');
    expect((await importFromFile(b, fileA)).rows).toBe(exported);
    const fileB = join(dir, 'b.jsonl');
    await exportToFile(b, workspaceId, fileB);
    expect(readFileSync(fileB, 'utf8')).toBe(readFileSync(fileA, 'utf8'));

    const lines = readFileSync(fileA, 'utf8').trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toEqual({ end: 'crm-export', rows: exported });
    const kinds = new Set(lines.slice(1, -1).map((l) => JSON.parse(l).kind));
    expect([...kinds].sort()).toEqual([
      'api_key', 'classification', 'entry', 'event', 'link', 'list', 'note', 'object_type', 'record', 'relation', 'report', 'task', 'user', 'view',
      'workspace',
    ]);

    // The imported store serves the workspace: keys work, search and filters use rebuilt indexes, unique claims hold.
    const principal = await authenticate(b, `Bearer ${key}`, 'crm');
    const call = (tool: string, params: unknown) => invokeTool(b, principal, 'cli', tool, params) as Promise<any>;
    expect((await call('records.search', { query: 'acme' })).total).toBeGreaterThan(0);
    const [report] = (await call('reports.list', {})).items;
    expect((await call('reports.run', { report_id: report.report_id })).rows).toEqual([{ group: 'proposal', value: 5000.5, count: 1 }]);
    // Links and classifications came along: the investor is found by category through her link.
    const acme = (await call('records.search', { query: 'acme', object_type_slug: 'companies' })).items[0].record_id;
    const investors = await call('graph.query', { record_id: acme, categories: 'investor' });
    expect(investors.nodes.map((n: { display_name: string; category: string | null }) => [n.display_name, n.category])).toEqual([['Acme', null], ['Grace', 'investor']]);
    expect(investors.edges).toEqual([{ source: expect.any(String), target: acme, type: 'invested_in', origin: 'link' }]);
    expect((await call('records.list', { object_type_slug: 'deals', filters: { amount: { gte: 5000 } } })).total).toBe(1);
    await expect(call('records.create', { object_type_slug: 'companies', data: { name: 'Dup', domain: 'acme.com' } })).rejects.toMatchObject({ code: 'conflict' });
    expect((await call('records.create', { object_type_slug: 'companies', data: { name: 'Gone again', domain: 'gone.io' } })).data.domain).toBe('gone.io');
    await a.close();
    await b.close();
  });

  it('refuses to import a workspace that already exists, and writes nothing', async () => {
    const c = await open('c');
    const { workspaceId } = await populate(c);
    const file = join(dir, 'c.jsonl');
    await exportToFile(c, workspaceId, file);
    const before = (await c.listEvents(workspaceId, { offset: 0, limit: 1 })).total;
    await expect(importFromFile(c, file)).rejects.toMatchObject({ code: 'conflict' });
    expect((await c.listEvents(workspaceId, { offset: 0, limit: 1 })).total).toBe(before);
    await c.close();
  });

  it('rejects a file that is not JSON lines, naming the line, and writes nothing', async () => {
    const d = await open('d');
    const file = join(dir, 'd.jsonl');
    writeFileSync(file, '{"format":"crm-export","version":1,"workspace_id":"ws_x"}\n\nnot json\n');
    await expect(importFromFile(d, file)).rejects.toMatchObject({ code: 'validation_error', details: { param: 'file', line: 3 } });
    writeFileSync(file, '{"kind":"workspace"}\n');
    await expect(importFromFile(d, file)).rejects.toMatchObject({ code: 'validation_error', details: { param: 'file', line: 1 } });
    expect(await d.listWorkspaces()).toEqual([]);
    await d.close();
  });

  it('rejects a row that is not its kind\'s shape, naming the row (line = row + 1), and writes nothing', async () => {
    const e = await open('e');
    const { workspaceId } = await populate(e);
    const good = join(dir, 'e.jsonl');
    await exportToFile(e, workspaceId, good);
    await e.close();
    const lines = readFileSync(good, 'utf8').trim().split('\n');
    const line = lines.findIndex((l) => l.includes('"kind":"record"')) + 1;
    const record = JSON.parse(lines[line - 1]!);
    record.row.deleted_at = 5;
    lines[line - 1] = JSON.stringify(record);
    const bad = join(dir, 'e-bad.jsonl');
    writeFileSync(bad, `${lines.join('\n')}\n`);

    const f = await open('f');
    await expect(importFromFile(f, bad)).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringContaining(`dump row ${line - 1} (record ${record.row.id}): row.deleted_at must be an ISO-8601 timestamp, not 5`),
      details: expect.objectContaining({ row: line - 1, kind: 'record', field: 'row.deleted_at' }),
    });
    expect(await f.listWorkspaces()).toEqual([]);
    // Every line but the header and the trailer is a row.
    expect((await importFromFile(f, good)).rows).toBe(lines.length - 2);
    await f.close();
  });

  it('refuses an export cut short or with rows after its end, and writes nothing', async () => {
    const m = await open('m');
    const { workspaceId } = await populate(m);
    const whole = join(dir, 'm.jsonl');
    const rows = await exportToFile(m, workspaceId, whole);
    await m.close();
    const lines = readFileSync(whole, 'utf8').trim().split('\n');
    const n = await open('n');
    const variant = async (name: string, text: string) => {
      const file = join(dir, `m-${name}.jsonl`);
      writeFileSync(file, text);
      return importFromFile(n, file);
    };
    // Cut at a line boundary, as a killed export leaves it: every line is whole JSON.
    await expect(variant('cut', `${lines.slice(0, 40).join('\n')}\n`)).rejects.toMatchObject({
      code: 'validation_error', message: expect.stringContaining('cut short'), details: { param: 'file', rule: 'incomplete' },
    });
    const short = [...lines.slice(0, 30), JSON.stringify({ end: 'crm-export', rows })];
    await expect(variant('short', `${short.join('\n')}\n`)).rejects.toMatchObject({ code: 'validation_error', details: { param: 'file', line: 31, rule: 'incomplete' } });
    await expect(variant('after', `${[...lines, lines[1]].join('\n')}\n`)).rejects.toMatchObject({ code: 'validation_error', details: { param: 'file', line: lines.length + 1 } });
    expect(await n.listWorkspaces()).toEqual([]);
    // An export of the first version has no trailer and is still read.
    const v1 = [lines[0]!.replace('"version":2', '"version":1'), ...lines.slice(1, -1)];
    expect((await variant('v1', `${v1.join('\n')}\n`)).rows).toBe(rows);
    await n.close();
  });

  it('replaces the file a symlink points to, keeps a replaced file\'s permissions, makes a new one private, and writes a FIFO in place', async () => {
    const p = await open('p');
    const { workspaceId } = await populate(p);
    mkdirSync(join(dir, 'real'), { recursive: true });
    const real = join(dir, 'real', 'backup.jsonl');
    writeFileSync(real, 'old\n', { mode: 0o640 });
    chmodSync(real, 0o640);
    const link = join(dir, 'latest.jsonl');
    symlinkSync(real, link);
    const rows = await exportToFile(p, workspaceId, link);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, 'utf8').trim().split('\n').at(-1)!)).toEqual({ end: 'crm-export', rows });
    expect(statSync(real).mode & 0o777).toBe(0o640);
    const fresh = join(dir, 'fresh.jsonl');
    await exportToFile(p, workspaceId, fresh);
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    const fifo = join(dir, 'export.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = new Promise<string>((resolve, reject) => execFile('cat', [fifo], (err, out) => (err ? reject(err) : resolve(out))));
    await exportToFile(p, workspaceId, fifo);
    expect(JSON.parse((await reader).trim().split('\n').at(-1)!)).toEqual({ end: 'crm-export', rows });
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    await p.close();
  });

  it('leaves the file at --out as it was when an export fails', async () => {
    const o = await open('o');
    const file = join(dir, 'o.jsonl');
    writeFileSync(file, 'an earlier backup\n');
    await expect(exportToFile(o, 'ws_01J9ZK3M4N5P6Q7R8S9T0V1W2X', file)).rejects.toMatchObject({ code: 'not_found', details: { resource: 'workspace' } });
    expect(readFileSync(file, 'utf8')).toBe('an earlier backup\n');
    expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([]);
    await o.close();
  });

  it('streams a large workspace through a file and back, byte for byte', async () => {
    const g = await open('g');
    const ws = await createWorkspace(g, { name: 'Large', plan: 'pro', trialDays: null });
    const companies = Array.from({ length: 10_000 }, (_, i) => ({
      id: newId('record'), object_type_slug: 'companies', data: { name: `Company ${i}`, domain: `c${i}.example`, employee_count: i },
      uniques: [{ field: 'domain', value: `c${i}.example` }], refs: [], created_by: null, assignee_id: null,
    }));
    const contacts = companies.map((company, i) => ({
      object_type_slug: 'contacts', data: { name: `Person ${i}`, email: `p${i}@c${i}.example`, company: company.id },
      uniques: [{ field: 'email', value: `p${i}@c${i}.example` }], refs: [{ field: 'company', to_id: company.id }], created_by: null, assignee_id: null,
    }));
    await g.createRecords(ws.id, [...companies, ...contacts]);
    const fileG = join(dir, 'g.jsonl');
    const exported = await exportToFile(g, ws.id, fileG);
    expect(exported).toBeGreaterThan(30_000);

    const h = await open('h');
    expect((await importFromFile(h, fileG)).rows).toBe(exported);
    const fileH = join(dir, 'h.jsonl');
    await exportToFile(h, ws.id, fileH);
    expect(readFileSync(fileH, 'utf8')).toBe(readFileSync(fileG, 'utf8'));
    const query: RecordQuery = { object_type_slug: 'companies', sort: { field: 'created_at', ascending: true, system: true, valueKind: 'text' }, offset: 0, limit: 1 };
    expect((await h.listRecords(ws.id, query)).total).toBe(10_000);
    expect((await h.searchRecords(ws.id, { text: 'person 9999', offset: 0, limit: 5 })).total).toBe(1);
    expect((await h.getRelations(ws.id, companies[42]!.id)).map((r) => r.from_object)).toEqual(['contacts']);
    await expect(h.createRecord(ws.id, { ...companies[7]!, id: undefined })).rejects.toMatchObject({ code: 'conflict' });
    await g.close();
    await h.close();
  }, 60_000);

  it('refuses a missing export file with validation_error naming the file', async () => {
    const d = await open('d');
    await expect(importFromFile(d, join(dir, 'nope.jsonl'))).rejects.toMatchObject({ code: 'validation_error', details: { param: 'file' } });
    await d.close();
  });
});
