import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, startHarness, STYLES, type Harness, type Style } from './harness.ts';

/**
 * Transport parity: the same cases run over per-tool REST, the bridge and MCP,
 * against a real server on the embedded store, and expect the same outcomes.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe.each(STYLES)('records and objects over %s', (style: Style) => {
  const owner = () => h.ws.owner.key;
  const call = (tool: string, params: unknown, key: string | null = owner()) => callTool(h, style, key, tool, params);
  const ok = async (tool: string, params: unknown, key?: string | null) => {
    const out = await call(tool, params, key);
    if (!out.ok) throw new Error(`${tool} failed: ${out.status} ${out.code} ${out.message}`);
    return out.result;
  };

  it('creates an object type with fields, reads, renames, extends, archives a field and deletes it', async () => {
    const slug = `projects_${style}`;
    const created = await ok('objects.create', {
      slug, name: 'Projects', icon: 'folder',
      fields: [
        { slug: 'name', name: 'Name', type: 'text', required: true },
        { slug: 'budget', name: 'Budget', type: 'currency' },
        { slug: 'phase', name: 'Phase', type: 'status', options: ['plan', 'build', 'ship'] },
      ],
    });
    expect(created).toMatchObject({ slug, name: 'Projects', icon: 'folder', standard: false });
    expect(created.fields.map((f: { slug: string }) => f.slug)).toEqual(['name', 'budget', 'phase']);
    expect(created.fields[2].options).toEqual(['plan', 'build', 'ship']);

    const list = await ok('objects.list', {});
    expect(list.items.map((t: { slug: string }) => t.slug)).toEqual(expect.arrayContaining(['companies', 'contacts', 'deals', slug]));
    expect(list.total).toBe(list.items.length);

    expect((await ok('objects.update', { slug, name: 'Client projects' })).name).toBe('Client projects');
    const extended = await ok('objects.add_field', { slug, field: { slug: 'lead', name: 'Lead', type: 'record_reference', target: 'contacts' } });
    expect(extended.fields.find((f: { slug: string }) => f.slug === 'lead')).toMatchObject({ type: 'record_reference', target: 'contacts', many: false });
    const archived = await ok('objects.update_field', { slug, field_slug: 'budget', archived: true });
    expect(archived.fields.find((f: { slug: string }) => f.slug === 'budget').archived).toBe(true);
    expect((await ok('objects.get', { slug })).name).toBe('Client projects');

    await ok('objects.delete', { slug });
    const gone = await call('objects.get', { slug });
    expect(gone).toMatchObject({ ok: false, status: 404, code: 'not_found' });
  });

  it('creates, gets with relations both ways, lists, searches, updates, deletes and restores records', async () => {
    const acme = await ok('records.create', { object_type_slug: 'companies', data: { name: `Acme ${style}`, domain: `acme-${style}.com`, industry: 'software', employee_count: 120 } });
    expect(acme.record_id).toMatch(/^rec_/);
    expect(acme.id).toBe(acme.record_id);
    expect(acme.data).toEqual({ name: `Acme ${style}`, domain: `acme-${style}.com`, industry: 'software', employee_count: 120 });
    const ada = await ok('records.create', { object_type_slug: 'contacts', data: { name: `Ada ${style}`, email: `ADA@${style}.example.com`, company: acme.record_id } });
    expect(ada.data.email).toBe(`ada@${style}.example.com`);

    const adaFull = await ok('records.get', { record_id: ada.record_id });
    expect(adaFull.relations).toEqual([
      { type: 'company', source: 'field', direction: 'outgoing', record: { record_id: acme.record_id, object_type_slug: 'companies', display_name: `Acme ${style}` } },
    ]);
    const acmeFull = await ok('records.get', { record_id: acme.record_id });
    expect(acmeFull.relations).toEqual([
      { type: 'company', source: 'field', direction: 'incoming', record: { record_id: ada.record_id, object_type_slug: 'contacts', display_name: `Ada ${style}` } },
    ]);

    for (const [i, amount] of [5000, 25000, 12000].entries()) {
      await ok('records.create', { object_type_slug: 'deals', data: { name: `Deal ${style} ${i}`, amount, stage: i === 1 ? 'won' : 'proposal', company: acme.record_id } });
    }
    const page1 = await ok('records.list', {
      object_type_slug: 'deals', filters: { name: { starts_with: `Deal ${style}` }, amount: { gte: 10000 } }, sort_field: 'amount', ascending: false, page_size: 1,
    });
    expect(page1.total).toBe(2);
    expect(page1.page).toBe(1);
    expect(page1.items.map((r: { data: { amount: number } }) => r.data.amount)).toEqual([25000]);
    const page2 = await ok('records.list', {
      object_type_slug: 'deals', filters: { name: { starts_with: `Deal ${style}` }, amount: { gte: 10000 } }, sort_field: 'amount', ascending: false, page: 2, page_size: 1,
    });
    expect(page2).toMatchObject({ total: 2, page: 2 });
    expect(page2.items[0].data.amount).toBe(12000);
    const either = await ok('records.list', {
      object_type_slug: 'deals', filters: { $and: [{ name: { starts_with: `Deal ${style}` } }, { $or: [{ stage: 'won' }, { amount: { lt: 6000 } }] }] }, sort_field: 'amount',
    });
    expect(either.items.map((r: { data: { amount: number } }) => r.data.amount)).toEqual([5000, 25000]);

    const found = await ok('records.search', { query: `acme-${style}` });
    expect(found.items.map((r: { record_id: string }) => r.record_id)).toContain(acme.record_id);
    // A query with no word to search for is refused, not answered with an empty page.
    for (const query of ['   ', '"', '*', '()', ' - ', '😀', '?!']) {
      expect(await call('records.search', { query }), JSON.stringify(query)).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'query', rule: 'required' } });
    }
    expect((await ok('records.search', { query: `"acme-${style}"*` })).items.map((r: { record_id: string }) => r.record_id)).toContain(acme.record_id);

    const updated = await ok('records.update', { record_id: acme.record_id, data: { employee_count: 150, industry: null } });
    expect(updated.data).toEqual({ name: `Acme ${style}`, domain: `acme-${style}.com`, employee_count: 150 });

    await ok('records.delete', { record_id: ada.record_id });
    expect(await call('records.get', { record_id: ada.record_id })).toMatchObject({ ok: false, status: 404, code: 'not_found' });
    const afterDelete = await ok('records.list', { object_type_slug: 'contacts', filters: { name: `Ada ${style}` } });
    expect(afterDelete.total).toBe(0);
    expect((await ok('records.search', { query: `Ada ${style}` })).total).toBe(0);
    expect((await ok('records.get', { record_id: acme.record_id })).relations.filter((r: { direction: string; type: string }) => r.direction === 'incoming' && r.type === 'company')
      .map((r: { record: { object_type_slug: string } }) => r.record.object_type_slug)).not.toContain('contacts');

    const restored = await ok('records.restore', { record_id: ada.record_id });
    expect(restored.deleted_at).toBeNull();
    expect((await ok('records.list', { object_type_slug: 'contacts', filters: { name: `Ada ${style}` } })).total).toBe(1);
  });

  it('names a field setting by the parameter the caller sent, not by where it is stored', async () => {
    const name = { slug: 'name', name: 'Name', type: 'text' };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['objects.create', { slug: `bad_${style}`, name: 'Bad', fields: [name, { slug: 's', name: 'S', type: 'select' }] }, 'fields[1].options'],
      ['objects.create', { slug: `bad_${style}`, name: 'Bad', fields: [{ ...name, type: 'record_reference', target: 'nosuch' }] }, 'fields[0].target'],
      ['objects.add_field', { slug: 'companies', field: { slug: 'tier2', name: 'T', type: 'select' } }, 'field.options'],
      ['lists.create', { object_type_slug: 'deals', name: `Bad ${style}`, fields: [{ slug: 'st', name: 'St', type: 'status' }] }, 'fields[0].options'],
      ['objects.update_field', { slug: 'companies', field_slug: 'name', name: '   ' }, 'name'],
      ['objects.update_field', { slug: 'companies', field_slug: 'name', max: 3 }, 'max'],
      ['objects.update_field', { slug: 'companies', field_slug: 'name', options: ['a'] }, 'options'],
    ];
    for (const [tool, params, param] of cases) {
      const out = await call(tool, params);
      expect(out, `${tool} ${JSON.stringify(params)}`).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param } });
      expect(out.ok ? '' : out.message).not.toContain('config');
    }
  });

  it('keeps an option a field drops findable by filters and views, and refuses to write it', async () => {
    const slug = `tickets_${style}`;
    await ok('objects.create', {
      slug, name: 'Tickets', fields: [
        { slug: 'title', name: 'Title', type: 'text' },
        { slug: 'phase', name: 'Phase', type: 'status', options: ['open', 'pending', 'closed'] },
        { slug: 'labels', name: 'Labels', type: 'multi_select', options: ['bug', 'question'] },
      ],
    });
    const waiting = await ok('records.create', { object_type_slug: slug, data: { title: 'Waiting', phase: 'pending', labels: ['question'] } });
    await ok('records.create', { object_type_slug: slug, data: { title: 'Fresh', phase: 'open', labels: ['bug'] } });
    const view = await ok('views.create', { name: `Pending ${style}`, object_type_slug: slug, filters: { phase: 'pending' } });

    const patched = await ok('objects.update_field', { slug, field_slug: 'phase', options: ['open', 'closed'] });
    expect(patched.fields.find((f: { slug: string }) => f.slug === 'phase')).toMatchObject({ options: ['open', 'closed'], retired_options: ['pending'] });
    await ok('objects.update_field', { slug, field_slug: 'labels', options: ['bug'] });
    const fields = (await ok('objects.get', { slug })).fields;
    expect(fields.map((f: { slug: string; retired_options: unknown }) => [f.slug, f.retired_options]))
      .toEqual([['title', null], ['phase', ['pending']], ['labels', ['question']]]);

    // The record still holds the dropped values, and every filter form reaches it.
    const ids = async (filters: unknown) => (await ok('records.list', { object_type_slug: slug, filters })).items.map((r: { record_id: string }) => r.record_id);
    expect(await ids({ phase: 'pending' })).toEqual([waiting.record_id]);
    expect(await ids({ phase: { in: ['pending', 'closed'] } })).toEqual([waiting.record_id]);
    expect(await ids({ labels: { contains: 'question' } })).toEqual([waiting.record_id]);
    expect(await ids((await ok('views.get', { view_id: view.id })).filters)).toEqual([waiting.record_id]);
    expect(await call('records.list', { object_type_slug: slug, filters: { phase: 'pendng' } }))
      .toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'filters.phase', suggestion: 'pending' } });

    // No record takes a retired option anew; one that holds it may send it back with its other
    // values (read-modify-write), and a patch of another field leaves it alone.
    expect((await ok('records.update', { record_id: waiting.record_id, data: { title: 'Still waiting' } })).data)
      .toEqual({ title: 'Still waiting', phase: 'pending', labels: ['question'] });
    const fresh = (await ok('records.list', { object_type_slug: slug, filters: { title: 'Fresh' } })).items[0];
    const refused = await call('records.update', { record_id: fresh.record_id, data: { phase: 'pending' } });
    expect(refused).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'data.phase', rule: 'enum', retired: true, allowed: ['open', 'closed'] } });
    expect((refused as { message: string }).message).toContain('retired option');
    expect(await call('records.update', { record_id: fresh.record_id, data: { labels: ['bug', 'question'] } }))
      .toMatchObject({ ok: false, status: 400, details: { param: 'data.labels[1]', retired: true } });
    expect(await call('records.create', { object_type_slug: slug, data: { title: 'New', labels: ['question'] } }))
      .toMatchObject({ ok: false, status: 400, details: { param: 'data.labels[0]', retired: true } });
    const roundTrip = await ok('records.update', { record_id: waiting.record_id, data: { ...waiting.data, title: 'Round trip', labels: ['question', 'bug'] } });
    expect(roundTrip.data).toEqual({ title: 'Round trip', phase: 'pending', labels: ['question', 'bug'] });

    // Offered again, an option is writable and no longer listed as retired.
    const restored = await ok('objects.update_field', { slug, field_slug: 'phase', options: ['open', 'pending', 'closed'] });
    expect(restored.fields.find((f: { slug: string }) => f.slug === 'phase').retired_options).toEqual([]);
    expect((await ok('records.update', { record_id: waiting.record_id, data: { phase: 'pending' } })).data.phase).toBe('pending');
  });

  it('takes back a rating a lowered max no longer allows when the record sends it unchanged, and no other', async () => {
    const slug = `reviews_${style}`;
    await ok('objects.create', { slug, name: 'Reviews', fields: [{ slug: 'title', name: 'Title', type: 'text' }, { slug: 'stars', name: 'Stars', type: 'rating', max: 5 }] });
    const five = await ok('records.create', { object_type_slug: slug, data: { title: 'Great', stars: 5 } });
    const two = await ok('records.create', { object_type_slug: slug, data: { title: 'Meh', stars: 2 } });
    await ok('objects.update_field', { slug, field_slug: 'stars', max: 3 });
    const read = await ok('records.get', { record_id: five.record_id });
    expect((await ok('records.update', { record_id: five.record_id, data: { ...read.data, title: 'Still great' } })).data).toEqual({ title: 'Still great', stars: 5 });
    const outOfRange = { ok: false, status: 400, code: 'validation_error', details: { param: 'data.stars' } };
    expect(await call('records.update', { record_id: five.record_id, data: { stars: 4 } })).toMatchObject(outOfRange);
    expect(await call('records.update', { record_id: two.record_id, data: { stars: 5 } })).toMatchObject(outOfRange);
    expect(await call('records.create', { object_type_slug: slug, data: { title: 'New', stars: 5 } })).toMatchObject(outOfRange);
  });

  it('makes a field unique only when no two records share a value, and then claims the values they hold', async () => {
    const slug = `parts_${style}`;
    await ok('objects.create', { slug, name: 'Parts', fields: [{ slug: 'name', name: 'Name', type: 'text' }, { slug: 'sku', name: 'SKU', type: 'text' }] });
    const a = await ok('records.create', { object_type_slug: slug, data: { name: 'A', sku: 'X1' } });
    const b = await ok('records.create', { object_type_slug: slug, data: { name: 'B', sku: 'X1' } });
    const refused = await call('objects.update_field', { slug, field_slug: 'sku', unique: true });
    expect(refused).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'unique', field: 'sku', value: 'X1' } });
    expect((refused as { details: { record_ids: string[] } }).details.record_ids.sort()).toEqual([a.record_id, b.record_id].sort());

    await ok('records.update', { record_id: b.record_id, data: { sku: 'X2' } });
    await ok('objects.update_field', { slug, field_slug: 'sku', unique: true });
    expect(await call('records.create', { object_type_slug: slug, data: { name: 'C', sku: 'X1' } }))
      .toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'data.sku' } });
    // The holder of a value claimed by the change still saves changes to its other fields.
    expect((await ok('records.update', { record_id: a.record_id, data: { name: 'A renamed' } })).data).toEqual({ name: 'A renamed', sku: 'X1' });
  });

  it('keeps a record of a deleted object type deleted when a new type takes its slug', async () => {
    const slug = `ghosts_${style}`;
    const type = { slug, name: 'Ghosts', fields: [{ slug: 'name', name: 'Name', type: 'text' }] };
    await ok('objects.create', type);
    const old = await ok('records.create', { object_type_slug: slug, data: { name: `phantom ${style}` } });
    await ok('records.delete', { record_id: old.record_id });
    await ok('objects.delete', { slug });
    await ok('objects.create', type);
    expect(await call('records.restore', { record_id: old.record_id })).toMatchObject({
      ok: false, status: 404, code: 'not_found', details: { resource: 'object type', id: slug, record_id: old.record_id },
    });
    expect(await call('records.get', { record_id: old.record_id })).toMatchObject({ ok: false, code: 'not_found' });
    expect((await ok('records.list', { object_type_slug: slug })).total).toBe(0);
  });

  it('answers the restore of a record whose object type is gone, with no new one, by the record, not a slug parameter', async () => {
    const slug = `shades_${style}`;
    await ok('objects.create', { slug, name: 'Shades', fields: [{ slug: 'name', name: 'Name', type: 'text' }] });
    const old = await ok('records.create', { object_type_slug: slug, data: { name: `shade ${style}` } });
    await ok('records.delete', { record_id: old.record_id });
    await ok('objects.delete', { slug });
    const out = await call('records.restore', { record_id: old.record_id });
    expect(out).toMatchObject({ ok: false, status: 404, code: 'not_found', details: { resource: 'object type', id: slug, record_id: old.record_id } });
    expect(out.ok || out.details.param).toBeUndefined();
  });

  it('deletes an object type only once its lists and views are gone, and a list only once its views are', async () => {
    const slug = `crates_${style}`;
    await ok('objects.create', { slug, name: 'Crates', fields: [{ slug: 'name', name: 'Name', type: 'text' }] });
    const list = await ok('lists.create', { object_type_slug: slug, name: `Crates ${style}` });
    const listView = await ok('views.create', { name: 'Of the list', list_id: list.list_id });
    const typeView = await ok('views.create', { name: 'Of the type', object_type_slug: slug });
    expect(await call('objects.delete', { slug })).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'slug', lists: 1, views: 2 } });
    expect(await call('lists.delete', { list_id: list.list_id })).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'list_id', views: 1 } });
    await ok('views.delete', { view_id: listView.view_id });
    await ok('lists.delete', { list_id: list.list_id });
    expect(await call('objects.delete', { slug })).toMatchObject({ ok: false, status: 409, details: { lists: 0, views: 1 } });
    await ok('views.delete', { view_id: typeView.view_id });
    await ok('objects.delete', { slug });
    await ok('objects.create', { slug, name: 'New crates', fields: [{ slug: 'name', name: 'Name', type: 'text' }] });
    expect((await ok('lists.list', { object_type_slug: slug })).items).toEqual([]);
    expect((await ok('views.list', { object_type_slug: slug })).items).toEqual([]);
  });

  it('deletes an object type only once no live reference field of another type targets it', async () => {
    const target = `bins_${style}`;
    const source = `shelves_${style}`;
    await ok('objects.create', { slug: target, name: 'Bins', fields: [{ slug: 'name', name: 'Name', type: 'text' }, { slug: 'twin', name: 'Twin', type: 'record_reference', target }] });
    await ok('objects.create', { slug: source, name: 'Shelves', fields: [{ slug: 'name', name: 'Name', type: 'text' }, { slug: 'bin', name: 'Bin', type: 'record_reference', target }] });
    expect(await call('objects.delete', { slug: target })).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'slug', rule: 'in_use', fields: [`${source}.bin`] } });
    // Archived, the field no longer holds the type (its own reference to itself never did).
    await ok('objects.update_field', { slug: source, field_slug: 'bin', archived: true });
    await ok('objects.delete', { slug: target });
    // With its target gone the field cannot come out of the archive: it would reference no type.
    expect(await call('objects.update_field', { slug: source, field_slug: 'bin', archived: false }))
      .toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'archived', rule: 'target_deleted', target } });
    // A type made later under the same slug is another type: the field's values are ids of the deleted one's records.
    await ok('objects.create', { slug: target, name: 'Bins again', fields: [{ slug: 'name', name: 'Name', type: 'text' }] });
    const again = await call('objects.update_field', { slug: source, field_slug: 'bin', archived: false });
    expect(again).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'archived', rule: 'target_deleted', target } });
    expect(again.ok || again.message).toContain('was created after it, so it is another type');
    expect((await ok('objects.get', { slug: source })).fields.find((f: { slug: string }) => f.slug === 'bin').archived).toBe(true);
    // A field whose own target lives comes back, a reference of a type to itself too.
    await ok('objects.update_field', { slug: 'contacts', field_slug: 'company', archived: true });
    await ok('objects.update_field', { slug: 'contacts', field_slug: 'company', archived: false });
    const loop = `loops_${style}`;
    await ok('objects.create', { slug: loop, name: 'Loops', fields: [{ slug: 'name', name: 'Name', type: 'text' }, { slug: 'next', name: 'Next', type: 'record_reference', target: loop }] });
    await ok('objects.update_field', { slug: loop, field_slug: 'next', archived: true });
    await ok('objects.update_field', { slug: loop, field_slug: 'next', archived: false });
  });

  it('names a parameter of its own when objects.update or objects.update_field is given nothing to change', async () => {
    const field = await call('objects.update_field', { slug: 'companies', field_slug: 'name' });
    expect(field).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'name', rule: 'required', allowed: expect.arrayContaining(['name', 'archived']) } });
    expect(field.ok || field.message).toMatch(/^give at least one of name, .* to change$/);
    const type = await call('objects.update', { slug: 'companies' });
    expect(type).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'name', rule: 'required', allowed: ['name', 'icon', 'color', 'description'] } });
  });

  it('archives a field only once no saved view of the type filters, sorts or shows it', async () => {
    const slug = `jars_${style}`;
    await ok('objects.create', { slug, name: 'Jars', fields: [{ slug: 'name', name: 'Name', type: 'text' }, { slug: 'size', name: 'Size', type: 'number' }] });
    const filtering = await ok('views.create', { name: 'Big jars', object_type_slug: slug, filters: { $or: [{ name: 'x' }, { size: { gte: 10 } }] } });
    const sorting = await ok('views.create', { name: 'By size', object_type_slug: slug, sorts: [{ field: 'size', ascending: false }] });
    const showing = await ok('views.create', { name: 'Columns', object_type_slug: slug, visible_fields: ['name', 'size'] });
    await ok('views.create', { name: 'Names', object_type_slug: slug, filters: { name: { is_not_empty: true } }, visible_fields: ['name'] });
    const refused = await call('objects.update_field', { slug, field_slug: 'size', archived: true });
    expect(refused).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'archived', rule: 'in_use', views: [filtering.view_id, sorting.view_id, showing.view_id].sort() } });
    expect(refused.ok || refused.message).toContain('"Big jars"');
    for (const view of [filtering, sorting]) await ok('views.delete', { view_id: view.view_id });
    await ok('views.update', { view_id: showing.view_id, visible_fields: ['name'] });
    expect((await ok('objects.update_field', { slug, field_slug: 'size', archived: true })).fields.find((f: { slug: string }) => f.slug === 'size').archived).toBe(true);
  });

  it('filters a timestamp field by a bare date as that whole day in UTC', async () => {
    const slug = `shifts_${style}`;
    await ok('objects.create', { slug, name: 'Shifts', fields: [{ slug: 'name', name: 'Name', type: 'text' }, { slug: 'at', name: 'At', type: 'timestamp' }] });
    const at = { before: '2026-01-14T23:59:59.999Z', first: '2026-01-15T00:00:00Z', late: '2026-01-15T23:30:00-00:29', after: '2026-01-16T00:00:00Z' };
    for (const [name, when] of Object.entries(at)) await ok('records.create', { object_type_slug: slug, data: { name, at: when } });
    await ok('records.create', { object_type_slug: slug, data: { name: 'none' } });
    const names = async (filters: unknown) => (await ok('records.list', { object_type_slug: slug, filters, sort_field: 'name' })).items.map((r: { data: { name: string } }) => r.data.name);
    expect(await names({ at: '2026-01-15' })).toEqual(['first', 'late']);
    expect(await names({ at: { lte: '2026-01-15' } })).toEqual(['before', 'first', 'late']);
    expect(await names({ at: { gt: '2026-01-15' } })).toEqual(['after']);
    expect(await names({ at: { gte: '2026-01-15' }, name: { ne: 'after' } })).toEqual(['first', 'late']);
    expect(await names({ at: { lt: '2026-01-15' } })).toEqual(['before']);
    expect(await names({ at: { ne: '2026-01-15' } })).toEqual(['after', 'before', 'none']);
    expect(await names({ at: ['2026-01-14', '2026-01-16T00:00:00Z'] })).toEqual(['after', 'before']);
    expect(await names({ at: { not_in: ['2026-01-14', '2026-01-15'] } })).toEqual(['after', 'none']);
    // Days in lists are compiled within the store's limits: fifty in all answer, more are too complex (never a 500).
    const days = (n: number) => Array.from({ length: n }, (_, i) => `2026-0${1 + Math.floor(i / 28)}-${String((i % 28) + 1).padStart(2, '0')}`);
    expect(await names({ $or: [{ at: { in: days(25) } }, { at: { in: days(25).map((d) => d.replace('2026', '2025')) } }] })).toEqual(['after', 'before', 'first', 'late']);
    expect(await names({ $and: [{ at: { not_in: days(25) } }, { at: { not_in: days(25).map((d) => d.replace('2026', '2027')) } }] })).toEqual(['none']);
    expect(await call('records.list', { object_type_slug: slug, filters: { $or: Array.from({ length: 6 }, () => ({ at: days(100) })) } }))
      .toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { rule: 'too_complex' } });
    // A day beside exact instants: the instants stay one test, so six such lists are twelve comparisons, not 600 terms.
    const instants = Array.from({ length: 99 }, (_, i) => new Date(Date.UTC(2026, 2, 1, 0, i)).toISOString());
    expect(await names({ $or: Array.from({ length: 6 }, () => ({ at: { in: ['2026-01-16', ...instants] } })) })).toEqual(['after']);
    expect(await names({ $and: Array.from({ length: 25 }, () => ({ at: { not_in: ['2026-01-16', ...instants] } })) })).toEqual(['before', 'first', 'late', 'none']);
    // created_at too: every record here was made today.
    const today = new Date().toISOString().slice(0, 10);
    expect((await ok('records.list', { object_type_slug: slug, filters: { created_at: { lte: today } } })).total).toBe(5);
  });

  it('archives a field and deletes a type only once no saved report uses them', async () => {
    const slug = `kegs_${style}`;
    await ok('objects.create', { slug, name: 'Kegs', fields: [
      { slug: 'name', name: 'Name', type: 'text' }, { slug: 'litres', name: 'Litres', type: 'number' },
      { slug: 'brew', name: 'Brew', type: 'select', options: ['ale', 'stout'] }, { slug: 'filled', name: 'Filled', type: 'date' },
      { slug: 'note', name: 'Note', type: 'text' },
    ] });
    const config = { object_type: slug, metric: 'count', chart_type: 'table' };
    const summing = await ok('reports.create', { name: 'Volume', config: { ...config, metric: 'sum', metric_field: 'litres' } });
    const grouping = await ok('reports.create', { name: 'By brew', config: { ...config, group_by: 'brew' } });
    const timing = await ok('reports.create', { name: 'By month', config: { ...config, chart_type: 'line', time_bucket: 'month', time_field: 'filled' } });
    const filtering = await ok('reports.create', { name: 'Noted', config: { ...config, filters: [{ field: 'note', operator: 'is_not_empty' }] } });
    for (const [field, report] of [['litres', summing], ['brew', grouping], ['filled', timing], ['note', filtering]] as const) {
      const refused = await call('objects.update_field', { slug, field_slug: field, archived: true });
      expect(refused).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'archived', rule: 'in_use', reports: [report.report_id] } });
      expect(refused.ok || refused.message).toContain(`"${report.name}" (${report.report_id})`);
    }
    // A field no report names is archived as before, and the reports still run by id.
    await ok('objects.add_field', { slug, field: { slug: 'spare', name: 'Spare', type: 'text' } });
    await ok('objects.update_field', { slug, field_slug: 'spare', archived: true });
    expect((await ok('reports.run', { report_id: summing.report_id })).rows).toBeDefined();
    const deleting = await call('objects.delete', { slug });
    expect(deleting).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'slug', rule: 'in_use' } });
    expect(deleting.ok || deleting.details.reports.sort()).toEqual([summing, grouping, timing, filtering].map((r) => r.report_id).sort());
    for (const report of [summing, grouping, timing]) await ok('reports.delete', { report_id: report.report_id });
    await ok('objects.update_field', { slug, field_slug: 'litres', archived: true });
    expect(await call('objects.delete', { slug })).toMatchObject({ ok: false, status: 409, details: { reports: [filtering.report_id] } });
    await ok('reports.delete', { report_id: filtering.report_id });
    await ok('objects.delete', { slug });
  });

  it('refuses to run a report saved for a type since deleted against a new type of its slug, which it no longer holds', async () => {
    const slug = `casks_${style}`;
    const fields = [{ slug: 'name', name: 'Name', type: 'text' }, { slug: 'litres', name: 'Litres', type: 'number' }];
    await ok('objects.create', { slug, name: 'Casks', fields });
    const old = await ok('reports.create', { name: 'Old volume', config: { object_type: slug, metric: 'sum', metric_field: 'litres', chart_type: 'number' } });
    // Left from before deleting a type waited for its reports: the store deletes it under the report.
    await h.server.store.deleteObjectType(h.ws.id, slug);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await ok('objects.create', { slug, name: 'Casks again', fields });
    await ok('records.create', { object_type_slug: slug, data: { name: 'c', litres: 77 } });
    const refused = await call('reports.run', { report_id: old.report_id });
    expect(refused).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'report_id', rule: 'target_deleted', object_type: slug } });
    // Nor does it hold the new type: its fields archive, and it is deleted, as if the report were not there.
    const fresh = await ok('reports.create', { name: 'New volume', config: { object_type: slug, metric: 'sum', metric_field: 'litres', chart_type: 'number' } });
    expect((await ok('reports.run', { report_id: fresh.report_id })).series).toEqual({ value: 77, count: 1 });
    expect(await call('objects.update_field', { slug, field_slug: 'litres', archived: true })).toMatchObject({ ok: false, status: 409, details: { reports: [fresh.report_id] } });
    await ok('reports.delete', { report_id: fresh.report_id });
    await ok('objects.update_field', { slug, field_slug: 'litres', archived: true });
  });

  it("deletes an object type only once no live list's entry field targets it", async () => {
    const target = `trays_${style}`;
    await ok('objects.create', { slug: target, name: 'Trays', fields: [{ slug: 'name', name: 'Name', type: 'text' }] });
    const list = await ok('lists.create', { object_type_slug: 'companies', name: `Tray owners ${style}`, fields: [{ slug: 'tray', name: 'Tray', type: 'record_reference', target }] });
    expect(await call('objects.delete', { slug: target })).toMatchObject({
      ok: false, status: 409, code: 'conflict', message: expect.stringContaining('delete those lists first'),
      details: { param: 'slug', rule: 'in_use', list_fields: [`${list.list_id}.tray`] },
    });
    expect((await ok('lists.get', { list_id: list.list_id })).fields[0]).toMatchObject({ slug: 'tray', target });
    await ok('lists.delete', { list_id: list.list_id });
    await ok('objects.delete', { slug: target });
  });

  it('refuses a reference from a record to itself, as graph.link refuses a self-link', async () => {
    const slug = `nodes_${style}`;
    await ok('objects.create', { slug, name: 'Nodes', fields: [{ slug: 'name', name: 'Name', type: 'text' }, { slug: 'parent', name: 'Parent', type: 'record_reference', target: slug }] });
    const root = await ok('records.create', { object_type_slug: slug, data: { name: 'root' } });
    const leaf = await ok('records.create', { object_type_slug: slug, data: { name: 'leaf', parent: root.record_id } });
    expect(await call('records.update', { record_id: root.record_id, data: { parent: root.record_id } }))
      .toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'data.parent', rule: 'self_link' } });
    expect((await ok('records.update', { record_id: root.record_id, data: { parent: leaf.record_id } })).data.parent).toBe(leaf.record_id);
  });

  it('rejects a unique value that another live record holds with conflict, naming that record', async () => {
    const one = await ok('records.create', { object_type_slug: 'companies', data: { name: 'One', domain: `unique-${style}.io` } });
    const dup = await call('records.create', { object_type_slug: 'companies', data: { name: 'Two', domain: `https://unique-${style}.io/` } });
    expect(dup).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'data.domain', field: 'domain', rule: 'unique', record_id: one.record_id } });
    expect(dup.ok || dup.message).toBe(`Another record already has this domain value (${one.record_id})`);
    const two = await ok('records.create', { object_type_slug: 'companies', data: { name: 'Two' } });
    expect(await call('records.update', { record_id: two.record_id, data: { domain: `unique-${style}.io` } }))
      .toMatchObject({ ok: false, status: 409, details: { field: 'domain', rule: 'unique', record_id: one.record_id } });
  });

  it('finds a url by any spelling its uniqueness takes as the same value, so find-or-create works', async () => {
    const stored = `https://Spelled-${style}.io/`;
    const held = await ok('records.create', { object_type_slug: 'companies', data: { name: `Spelled ${style}`, domain: stored } });
    const ids = (page: { items: Array<{ record_id: string }> }) => page.items.map((r) => r.record_id);
    for (const spelling of [`spelled-${style}.io`, `http://spelled-${style}.io`, `HTTPS://SPELLED-${style}.io`, `spelled-${style}.io/`]) {
      expect(ids(await ok('records.list', { object_type_slug: 'companies', filters: { domain: spelling } })), spelling).toEqual([held.record_id]);
      expect(ids(await ok('records.list', { object_type_slug: 'companies', filters: { domain: [spelling, 'elsewhere.io'] } })), spelling).toEqual([held.record_id]);
      const others = await ok('records.list', { object_type_slug: 'companies', filters: { domain: { ne: spelling, is_not_empty: true }, name: `Spelled ${style}` } });
      expect(others.total, spelling).toBe(0);
      expect(await call('records.create', { object_type_slug: 'companies', data: { name: 'Again', domain: spelling } }), spelling).toMatchObject({ ok: false, status: 409 });
    }
    // A path is part of the url: another page of the site is another value.
    expect((await ok('records.list', { object_type_slug: 'companies', filters: { domain: `spelled-${style}.io/about` } })).total).toBe(0);
  });

  it('answers the first 1,000 relations of a record with the count of them all', async () => {
    const hub = await ok('records.create', { object_type_slug: 'companies', data: { name: `Hub ${style}` } });
    await h.server.store.createRecords(h.ws.id, Array.from({ length: 1_100 }, (_, i) => ({
      object_type_slug: 'contacts', data: { name: `Member ${i} ${style}`, company: hub.record_id }, uniques: [], refs: [{ field: 'company', to_id: hub.record_id }],
      created_by: h.ws.owner.user_id, assignee_id: h.ws.owner.user_id,
    })));
    const got = await ok('records.get', { record_id: hub.record_id });
    expect(got.relations).toHaveLength(1_000);
    expect(got.relations_total).toBe(1_100);
    expect(got.relations[0]).toMatchObject({ type: 'company', direction: 'incoming', record: { object_type_slug: 'contacts' } });
    const few = await ok('records.get', { record_id: (await ok('records.create', { object_type_slug: 'contacts', data: { name: `Alone ${style}` } })).record_id });
    expect([few.relations, few.relations_total]).toEqual([[], 0]);
  });

  it('refuses to restore a record whose unique value another took, naming the record and the field', async () => {
    const domain = `taken-${style}.io`;
    const gone = await ok('records.create', { object_type_slug: 'companies', data: { name: 'Gone', domain } });
    await ok('records.delete', { record_id: gone.record_id });
    const taker = await ok('records.create', { object_type_slug: 'companies', data: { name: 'Taker', domain } });
    const out = await call('records.restore', { record_id: gone.record_id });
    expect(out).toMatchObject({ ok: false, status: 409, code: 'conflict', details: { param: 'record_id', field: 'domain', rule: 'unique', record_id: taker.record_id } });
    expect(out.ok || out.message).toContain(`record ${gone.record_id} cannot be restored: another live record (${taker.record_id}) holds its domain value "${domain}"`);
    await ok('records.update', { record_id: taker.record_id, data: { domain: `moved-${style}.io` } });
    expect((await ok('records.restore', { record_id: gone.record_id })).data.domain).toBe(domain);
  });

  describe('validation errors name the parameter', () => {
    it('rejects an unknown field and suggests the nearest one', async () => {
      const out = await call('records.create', { object_type_slug: 'contacts', data: { name: 'X', emial: 'x@y.com' } });
      expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'data.emial', suggestion: 'email' } });
      expect(out.ok || out.message).toContain('email');
    });
    it('rejects a value of the wrong type', async () => {
      const out = await call('records.create', { object_type_slug: 'companies', data: { name: 'X', employee_count: '12' } });
      expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'data.employee_count' } });
    });
    it('rejects a record without a required field', async () => {
      const out = await call('records.create', { object_type_slug: 'companies', data: { domain: `nameless-${style}.com` } });
      expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'data.name', rule: 'required' } });
    });
    it('rejects a select value that is not an option and suggests one', async () => {
      const out = await call('records.create', { object_type_slug: 'companies', data: { name: 'X', industry: 'sofware' } });
      expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'data.industry', suggestion: 'software' } });
    });
    it('rejects a page_size above 100', async () => {
      const out = await call('records.list', { object_type_slug: 'companies', page_size: 101 });
      expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'page_size' } });
    });
    it('rejects a filter on an unknown field with a suggestion', async () => {
      const out = await call('records.list', { object_type_slug: 'deals', filters: { stag: 'won' } });
      expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { suggestion: 'stage' } });
    });
    it('rejects an unknown parameter and suggests the right one', async () => {
      const out = await call('records.list', { object_type_slug: 'deals', pagesize: 10 });
      expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'pagesize', suggestion: 'page_size' } });
    });
  });

  it('answers an unknown tool with tool_not_found (REST, bridge) or a JSON-RPC error (MCP)', async () => {
    const out = await call('records.frobnicate', {});
    if (style === 'mcp') expect(out).toMatchObject({ ok: false, code: 'jsonrpc', rpc: -32602 });
    else expect(out).toMatchObject({ ok: false, status: 404, code: 'tool_not_found' });
  });

  it('refuses a records-scoped key calling objects.update with permission_denied', async () => {
    const out = await call('objects.update', { slug: 'companies', name: 'Orgs' }, h.ws.recordsOnly);
    expect(out).toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
    expect((await ok('objects.get', { slug: 'companies' })).name).toBe('Companies');
    expect((await call('records.list', { object_type_slug: 'companies' }, h.ws.recordsOnly)).ok).toBe(true);
  });

  it('lets a member write only records assigned to them', async () => {
    const others = await ok('records.create', { object_type_slug: 'companies', data: { name: `Owned by owner ${style}` } });
    const denied = await call('records.update', { record_id: others.record_id, data: { name: 'hijacked' } }, h.ws.member.key);
    expect(denied).toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
    expect((await ok('records.get', { record_id: others.record_id })).data.name).toBe(`Owned by owner ${style}`);
    expect((await call('records.delete', { record_id: others.record_id }, h.ws.member.key))).toMatchObject({ ok: false, status: 403 });

    const mine = await ok('records.create', { object_type_slug: 'companies', data: { name: `Member's ${style}` } }, h.ws.member.key);
    expect(mine.assignee_id).toBe(h.ws.member.user_id);
    expect((await ok('records.update', { record_id: mine.record_id, data: { employee_count: 3 } }, h.ws.member.key)).data.employee_count).toBe(3);
    expect(await call('records.update', { record_id: mine.record_id, data: { name: 'x' } }, h.ws.member2.key)).toMatchObject({ ok: false, status: 403 });
    expect(await call('objects.create', { slug: `m_${style}`, name: 'M', fields: [{ slug: 'name', name: 'Name', type: 'text' }] }, h.ws.member.key))
      .toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
  });

  it('lands every one of many concurrent updates of different fields, records and list entries alike, each with its own diff', async () => {
    const fields = Array.from({ length: 20 }, (_, i) => ({ slug: `f${i}`, name: `F${i}`, type: 'number' }));
    const slug = `gauges_${style}`;
    await ok('objects.create', { slug, name: 'Gauges', fields: [{ slug: 'name', name: 'Name', type: 'text' }, ...fields] });
    const record = await ok('records.create', { object_type_slug: slug, data: { name: 'Dial' } });
    const answers = await Promise.all(fields.map((f, i) => call('records.update', { record_id: record.record_id, data: { [f.slug]: i } })));
    expect(answers.filter((a) => !a.ok)).toEqual([]);
    const expected = Object.fromEntries(fields.map((f, i) => [f.slug, i]));
    expect((await ok('records.get', { record_id: record.record_id })).data).toEqual({ name: 'Dial', ...expected });
    const history = await ok('timeline.list', { record_id: record.record_id, page_size: 100 });
    const diffs = history.items.filter((e: { action: string }) => e.action === 'update').map((e: { diff: Record<string, { after: unknown }> }) => e.diff);
    expect(diffs).toHaveLength(20);
    expect(Object.fromEntries(diffs.flatMap((d: Record<string, { after: unknown }>) => Object.entries(d).map(([k, v]) => [k, v.after])))).toEqual(expected);

    const list = await ok('lists.create', { object_type_slug: slug, name: `Gauges ${style}`, fields });
    const [entry] = (await ok('lists.bulk_add_entry', { list_id: list.list_id, entries: [{ record_id: record.record_id }] })).items;
    const entryAnswers = await Promise.all(fields.map((f, i) => call('lists.update_entry', { entry_id: entry.entry_id, data: { [f.slug]: i } })));
    expect(entryAnswers.filter((a) => !a.ok)).toEqual([]);
    expect((await ok('lists.entries', { list_id: list.list_id })).items[0].data).toEqual(expected);
  });

  it("answers another workspace's record id with not_found and never its data", async () => {
    const secret = await ok('records.create', { object_type_slug: 'companies', data: { name: `Secret ${style}`, description: 'classified' } }, h.other.owner.key);
    for (const tool of ['records.get', 'records.update', 'records.delete', 'records.restore']) {
      const out = await call(tool, { record_id: secret.record_id, ...(tool === 'records.update' ? { data: { name: 'x' } } : {}) });
      expect(out).toMatchObject({ ok: false, status: 404, code: 'not_found' });
      expect(JSON.stringify(out)).not.toContain('classified');
    }
    expect((await ok('records.search', { query: `Secret ${style}` })).total).toBe(0);
    expect((await ok('records.get', { record_id: secret.record_id }, h.other.owner.key)).data.name).toBe(`Secret ${style}`);
  });

  it('refuses every tool with subscription_required once the trial has ended', async () => {
    const lapsed = await h.newWorkspace({ trialDays: 0, plan: null });
    const out = await call('records.list', { object_type_slug: 'companies' }, lapsed.owner.key);
    expect(out).toMatchObject({ ok: false, status: 403, code: 'subscription_required' });
    expect(await call('objects.list', {}, lapsed.owner.key)).toMatchObject({ ok: false, status: 403, code: 'subscription_required' });
  });

  it('answers a missing or revoked key with 401', async () => {
    const none = await call('objects.list', {}, null);
    expect(none).toMatchObject({ ok: false, status: 401 });
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const { revokeKey } = await import('../../src/domain/services/settings.ts');
    const key = await h.keyFor(h.ws, h.ws.owner.user_id);
    expect((await call('objects.list', {}, key)).ok).toBe(true);
    const row = (await h.server.store.listApiKeys(h.ws.id)).find((k) => key.endsWith(k.last_four) && !k.revoked_at)!;
    await revokeKey(h.server.store, row.id);
    expect(await call('objects.list', {}, key)).toMatchObject({ ok: false, status: 401 });
    expect(await call('objects.list', {}, 'crm_live_not-a-real-key-not-a-real-key-not-a-real')).toMatchObject({ ok: false, status: 401 });
  });
});
