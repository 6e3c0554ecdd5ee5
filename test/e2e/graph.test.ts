import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, startHarness, STYLES, type Harness, type Style } from './harness.ts';

/** The relationship graph tools (graph.query, graph.path, graph.link, graph.unlink, contacts.classify) over all three call styles. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe.each(STYLES)('the relationship graph over %s', (style: Style) => {
  const call = (tool: string, params: unknown, key: string = h.ws.owner.key) => callTool(h, style, key, tool, params);
  const ok = async (tool: string, params: unknown, key?: string) => {
    const out = await call(tool, params, key);
    if (!out.ok) throw new Error(`${tool} failed: ${out.status} ${out.code} ${out.message}`);
    return out.result;
  };
  const create = async (slug: string, data: Record<string, unknown>, key?: string) =>
    (await ok('records.create', { object_type_slug: slug, data }, key)).record_id as string;

  /** A company with two people, a won deal naming one of them, and a person outside linked to one inside. */
  async function smallGraph() {
    const acme = await create('companies', { name: `Acme ${style}` });
    const ann = await create('contacts', { name: `Ann ${style}`, company: acme });
    const ben = await create('contacts', { name: `Ben ${style}`, company: acme });
    const deal = await create('deals', { name: `Deal ${style}`, company: acme, stage: 'won', contacts: [ann] });
    const dan = await create('contacts', { name: `Dan ${style}` });
    const link = await ok('graph.link', { from_record_id: dan, to_record_id: ann, type: 'introduced_by', properties: { at: 'conference' } });
    return { acme, ann, ben, deal, dan, link };
  }

  it('links two records, returns the existing link when linked again, and puts it on both timelines once', async () => {
    const { ann, dan, link } = await smallGraph();
    expect(link).toEqual({
      link_id: link.id, id: link.id, from_record_id: dan, to_record_id: ann, type: 'introduced_by', properties: { at: 'conference' },
      created_at: expect.any(String),
    });
    expect(link.link_id).toMatch(/^rel_/);
    const again = await call('graph.link', { from_record_id: dan, to_record_id: ann, type: 'introduced_by' });
    expect(again).toMatchObject({ ok: true, status: 200, result: link });
    for (const id of [ann, dan]) {
      const events = (await ok('timeline.list', { record_id: id })).items.filter((e: { resource_type: string }) => e.resource_type === 'link');
      expect(events.map((e: { action: string; resource_id: string }) => [e.action, e.resource_id])).toEqual([['create', link.link_id]]);
    }
    const relations = (await ok('records.get', { record_id: ann })).relations ?? [];
    expect(JSON.stringify(relations)).not.toContain('"source":"field","type":"introduced_by"');
  });

  it('refuses a self-link, a bad type and unknown parameters with 400 naming the parameter', async () => {
    const ann = await create('contacts', { name: `Solo ${style}` });
    expect(await call('graph.link', { from_record_id: ann, to_record_id: ann, type: 'knows' })).toMatchObject({ ok: false, status: 400, details: { param: 'to_record_id' } });
    const other = await create('contacts', { name: `Other ${style}` });
    expect(await call('graph.link', { from_record_id: ann, to_record_id: other, type: 'Knows Well' })).toMatchObject({ ok: false, status: 400, details: { param: 'type' } });
    expect(await call('graph.link', { from_record_id: ann, to_record_id: other, type: 'knows', weight: 3 })).toMatchObject({ ok: false, status: 400 });
  });

  it('unlinks by id and by (from, to, type), and refuses to unlink a field relation', async () => {
    const { acme, ann, dan, link } = await smallGraph();
    expect(await ok('graph.unlink', { link_id: link.link_id })).toEqual({ link_id: link.link_id, removed: true });
    expect(await call('graph.unlink', { link_id: link.link_id })).toMatchObject({ ok: false, status: 404, code: 'not_found' });
    const second = await ok('graph.link', { from_record_id: dan, to_record_id: ann, type: 'knows' });
    expect(await ok('graph.unlink', { from_record_id: dan, to_record_id: ann, type: 'knows' })).toEqual({ link_id: second.link_id, removed: true });
    // Malformed ends and a record unlinked from itself are refused as graph.link refuses them, naming the end.
    expect(await call('graph.unlink', { from_record_id: 'garbage', to_record_id: ann, type: 'knows' }))
      .toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'from_record_id', rule: 'format' } });
    expect(await call('graph.unlink', { from_record_id: dan, to_record_id: 'junk', type: 'knows' }))
      .toMatchObject({ ok: false, status: 400, details: { param: 'to_record_id', rule: 'format' } });
    expect(await call('graph.unlink', { from_record_id: dan, to_record_id: dan, type: 'knows' }))
      .toMatchObject({ ok: false, status: 400, details: { param: 'to_record_id', rule: 'self_link' } });
    const field = await call('graph.unlink', { from_record_id: ann, to_record_id: acme, type: 'company' });
    expect(field).toMatchObject({ ok: false, status: 400, code: 'validation_error' });
    expect(field.ok || field.message).toContain('records.update');
    const history = (await ok('timeline.list', { record_id: ann })).items.map((e: { action: string; resource_type: string }) => `${e.action} ${e.resource_type}`);
    expect(history.slice(0, 4)).toEqual(['delete link', 'create link', 'delete link', 'create link']);
  });

  it('walks through a company to find its people, root first, nearest first, with via and edges between returned nodes', async () => {
    const { acme, ann, ben, deal, dan } = await smallGraph();
    const out = await ok('graph.query', { record_id: dan, types: 'contacts', depth: 3 });
    expect(out.nodes.map((n: { record_id: string }) => n.record_id)).toEqual([dan, ann, ...[ben].sort()]);
    expect(out.nodes[0]).toEqual({ record_id: dan, object_type_slug: 'contacts', display_name: `Dan ${style}`, depth: 0, via: null, category: null, strength: null });
    expect(out.nodes[1]).toMatchObject({ record_id: ann, depth: 1, via: dan });
    expect(out.nodes[2]).toMatchObject({ record_id: ben, depth: 3, via: acme });
    expect(out.edges).toEqual([{ source: dan, target: ann, type: 'introduced_by', origin: 'link' }]);
    expect(out.truncated).toBe(false);
    const all = await ok('graph.query', { record_id: ann });
    expect(all.nodes.map((n: { record_id: string }) => n.record_id).slice(0, 1)).toEqual([ann]);
    expect(new Set(all.nodes.map((n: { record_id: string }) => n.record_id))).toEqual(new Set([ann, acme, deal, dan, ben]));
    expect(all.edges).toContainEqual({ source: ann, target: acme, type: 'company', origin: 'field' });
    expect(all.edges).toContainEqual({ source: deal, target: ann, type: 'contacts', origin: 'field' });
    const cut = await ok('graph.query', { record_id: ann, limit: 2 });
    expect(cut.nodes).toHaveLength(2);
    expect(cut.truncated).toBe(true);
    // Only commas and blanks filter nothing, as an empty list does: never a filter matching nothing.
    for (const blank of [{ types: ',' }, { types: ' , ' }, { categories: ',' }, { types: '', categories: ' ,, ' }]) {
      expect(await ok('graph.query', { record_id: ann, ...blank }), JSON.stringify(blank)).toEqual(all);
    }
  });

  it('neither returns nor walks through a soft-deleted record', async () => {
    const { acme, ann, ben } = await smallGraph();
    await ok('records.delete', { record_id: acme });
    const ids = (await ok('graph.query', { record_id: ann, depth: 4 })).nodes.map((n: { record_id: string }) => n.record_id);
    expect(ids).not.toContain(acme);
    expect(ids).not.toContain(ben);
  });

  it('finds the shortest path, and none within a too small max_depth', async () => {
    const { acme, ben, dan, ann } = await smallGraph();
    const { paths } = await ok('graph.path', { from_record_id: dan, to_record_id: ben });
    expect(paths).toHaveLength(1);
    expect(paths[0].nodes.map((n: { record_id: string }) => n.record_id)).toEqual([dan, ann, acme, ben]);
    expect(paths[0]).toMatchObject({ length: 3, score: 0 });
    expect(paths[0].edges).toHaveLength(3);
    expect(await ok('graph.path', { from_record_id: dan, to_record_id: ben, max_depth: 2 })).toEqual({ paths: [], truncated: false });
  });

  it('enforces the limits with 400 naming the parameter', async () => {
    const { ann, ben } = await smallGraph();
    for (const [tool, params, param] of [
      ['graph.query', { record_id: ann, depth: 5 }, 'depth'],
      ['graph.query', { record_id: ann, limit: 1001 }, 'limit'],
      ['graph.query', { record_id: ann, depth: 0 }, 'depth'],
      ['graph.path', { from_record_id: ann, to_record_id: ben, max_depth: 7 }, 'max_depth'],
      ['graph.path', { from_record_id: ann, to_record_id: ben, limit: 11 }, 'limit'],
      ['graph.query', { record_id: ann, types: 'contacts,compnies' }, 'types'],
      ['graph.query', { record_id: ann, categories: 'investors' }, 'categories'],
    ] as const) {
      const out = await call(tool, params);
      expect(out, `${tool} ${param}`).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param } });
    }
  });

  it('classifies contacts with reasons and counts, persists them, and graph.query filters on the category', async () => {
    const { acme, ann, ben, dan } = await smallGraph();
    await ok('notes.create', { title: 'Kickoff', record_ids: [ann] });
    const out = await ok('contacts.classify', { record_ids: [ann, ben, dan] });
    expect(out.items.map((i: { record_id: string }) => i.record_id)).toEqual([ann, ben, dan]);
    expect(out.items[0]).toMatchObject({ record_id: ann, display_name: `Ann ${style}`, category: 'customer' });
    expect(out.items[0].reasons).toEqual(expect.arrayContaining([
      { signal: 'deals_won', value: 1, contribution: 20, detail: null }, expect.objectContaining({ signal: 'notes', value: 1, contribution: 8 }),
    ]));
    expect(out.counts.by_category).toMatchObject({ customer: 2, other: 1 });
    expect(Object.values(out.counts.by_strength).reduce((a: number, b) => a + (b as number), 0)).toBe(3);
    expect(Date.parse(out.classified_at)).not.toBeNaN();
    const customers = await ok('graph.query', { record_id: acme, categories: 'customer' });
    expect(customers.nodes.map((n: { record_id: string }) => n.record_id)).toEqual([acme, ann, ben].slice(0, 1).concat([ann, ben].sort()));
    expect(customers.nodes[1]).toMatchObject({ category: 'customer', strength: expect.any(String) });
    const dry = await ok('contacts.classify', { record_ids: [dan], persist: false });
    expect(dry.items[0].category).toBe('other');
  });

  it("counts an email to a contact's record, a meeting it attends and a message about it among its reasons", async () => {
    const { ben } = await smallGraph();
    const signals = async () => {
      const [item] = (await ok('contacts.classify', { record_ids: [ben], persist: false })).items;
      return { score: item.score as number, reasons: item.reasons as { signal: string; value: number; contribution: number }[] };
    };
    const before = await signals();
    expect(before.reasons.map((r) => r.signal)).not.toContain('emails');
    await ok('email.send', { to: 'ben@example.com', subject: `Proposal ${style}`, body: 'Attached.', record_ids: [ben] });
    const day = 86_400_000;
    const starts = new Date(Date.now() - 2 * day);
    await ok('meetings.create', {
      title: 'Review', starts_at: starts.toISOString(), ends_at: new Date(starts.getTime() + 3_600_000).toISOString(), attendees: [{ record_id: ben }, { email: 'guest@example.com' }],
    });
    await ok('messages.send', { channel: 'internal', body: 'Ben is keen', record_ids: [ben] });
    const after = await signals();
    expect(after.reasons).toEqual(expect.arrayContaining([
      expect.objectContaining({ signal: 'emails', value: 1, contribution: 6 }),
      expect.objectContaining({ signal: 'meetings', value: 1, contribution: 10 }),
      expect.objectContaining({ signal: 'messages', value: 1, contribution: 4 }),
    ]));
    expect(after.score).toBe(Math.min(100, before.score + 20));
  });

  it('refuses a non-contact naming it, and more than 100 ids', async () => {
    const { acme, ann } = await smallGraph();
    expect(await call('contacts.classify', { record_ids: [ann, acme] })).toMatchObject({ ok: false, status: 400, details: { param: 'record_ids[1]' } });
    const many = Array.from({ length: 101 }, () => ann);
    expect(await call('contacts.classify', { record_ids: many })).toMatchObject({ ok: false, status: 400, details: { param: 'record_ids' } });
  });

  it("answers 404 with nothing of it for another workspace's record, on every graph tool", async () => {
    const secret = `Secret ${style} ${Date.now()}`;
    const foreign = (await ok('records.create', { object_type_slug: 'contacts', data: { name: secret } }, h.other.owner.key)).record_id;
    const mine = await create('contacts', { name: `Mine ${style}` });
    for (const [tool, params] of [
      ['graph.query', { record_id: foreign }],
      ['graph.path', { from_record_id: mine, to_record_id: foreign }],
      ['graph.link', { from_record_id: mine, to_record_id: foreign, type: 'knows' }],
      ['contacts.classify', { record_ids: [foreign] }],
    ] as const) {
      const out = await call(tool, params);
      expect(out, tool).toMatchObject({ ok: false, status: 404, code: 'not_found' });
      expect(JSON.stringify(out)).not.toContain(secret);
    }
  });

  it('needs the graph scope: a records-only key gets 403, a graph key may classify', async () => {
    const ann = await create('contacts', { name: `Scoped ${style}` });
    expect(await call('graph.query', { record_id: ann }, h.ws.recordsOnly)).toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
    expect(await call('contacts.classify', { record_ids: [ann] }, h.ws.recordsOnly)).toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
    const graphKey = await h.keyFor(h.ws, h.ws.owner.user_id, ['graph']);
    expect((await ok('contacts.classify', { record_ids: [ann] }, graphKey)).items[0].record_id).toBe(ann);
  });

  it('lets a member link and unlink only records assigned to them', async () => {
    const mk = h.ws.member.key;
    const own1 = await create('contacts', { name: `M1 ${style}` }, mk);
    const own2 = await create('contacts', { name: `M2 ${style}` }, mk);
    const owners = await create('contacts', { name: `O ${style}` });
    const link = await ok('graph.link', { from_record_id: own1, to_record_id: own2, type: 'knows' }, mk);
    expect(await call('graph.link', { from_record_id: own1, to_record_id: owners, type: 'knows' }, mk)).toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
    const theirs = await ok('graph.link', { from_record_id: owners, to_record_id: own1, type: 'knows' });
    expect(await call('graph.unlink', { link_id: theirs.link_id }, mk)).toMatchObject({ ok: false, status: 403 });
    expect(await call('graph.unlink', { link_id: link.link_id }, h.ws.member2.key)).toMatchObject({ ok: false, status: 403 });
    expect(await ok('graph.unlink', { link_id: link.link_id }, mk)).toEqual({ link_id: link.link_id, removed: true });
    expect((await ok('graph.query', { record_id: own1 }, mk)).nodes.length).toBeGreaterThan(1);
  });

  it('lets a member save classifications only of contacts assigned to them, and classify any without saving', async () => {
    const mk = h.ws.member.key;
    const own = await create('contacts', { name: `Mine ${style}` }, mk);
    const owners = await create('contacts', { name: `Theirs ${style}` });
    const refused = await call('contacts.classify', { record_ids: [own, owners] }, mk);
    expect(refused).toMatchObject({ ok: false, status: 403, code: 'permission_denied', details: { param: 'record_ids[1]', record_id: owners } });
    expect((await ok('timeline.list', { record_id: owners })).items.filter((e: { action: string }) => e.action === 'classify')).toEqual([]);
    expect(await call('contacts.classify', {}, mk)).toMatchObject({ ok: false, status: 403, code: 'permission_denied', details: { param: 'record_ids' } });
    expect((await ok('contacts.classify', { record_ids: [owners], persist: false }, mk)).items[0].record_id).toBe(owners);
    expect((await ok('contacts.classify', { record_ids: [own] }, mk)).items[0].record_id).toBe(own);
    expect((await ok('timeline.list', { record_id: own })).items.map((e: { action: string }) => e.action)).toContain('classify');
  });
});

describe('the graph in GraphQL', () => {
  it('resolves neighbors on records, graph and path', async () => {
    const key = h.ws.owner.key;
    const gql = async (query: string, variables: Record<string, unknown> = {}) => {
      const res = await fetch(`${h.url}/graphql`, {
        method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }),
      });
      return res.json() as Promise<any>;
    };
    const company = (await callTool(h, 'rest', key, 'records.create', { object_type_slug: 'companies', data: { name: 'GQL Co' } })) as any;
    const person = (await callTool(h, 'rest', key, 'records.create', { object_type_slug: 'contacts', data: { name: 'GQL Person', company: company.result.record_id } })) as any;
    const out = await gql(`query($id: String!) { record(record_id: $id) { record_id neighbors(depth: 1) { record_id depth via } }
      graph(record_id: $id) { nodes { record_id } edges { type origin } truncated } }`, { id: person.result.record_id });
    expect(out.errors).toBeUndefined();
    expect(out.data.record.neighbors).toEqual([{ record_id: company.result.record_id, depth: 1, via: person.result.record_id }]);
    expect(out.data.graph.edges).toEqual([{ type: 'company', origin: 'field' }]);
  });
});

describe('contacts.classify over a whole workspace', () => {
  it('lets other calls run between its pages when it only reads (persist: false)', async () => {
    const ws = await h.newWorkspace();
    const contacts = Array.from({ length: 3_000 }, (_, i) => ({
      object_type_slug: 'contacts', data: { name: `Person ${i}` }, uniques: [], refs: [], created_by: ws.owner.user_id, assignee_id: ws.owner.user_id,
    }));
    await h.server.store.createRecords(ws.id, contacts);
    const order: string[] = [];
    const classify = callTool(h, 'rest', ws.member.key, 'contacts.classify', { persist: false }).then((out) => {
      order.push('classify');
      return out;
    });
    // Sent once the classification has begun: without a turn between its pages it would wait for all six.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const read = await callTool(h, 'rest', ws.member.key, 'objects.list', {});
    order.push('objects.list');
    expect(read.ok).toBe(true);
    const done = await classify;
    expect(done).toMatchObject({ ok: true, result: { counts: { by_category: expect.any(Object) } } });
    expect(order).toEqual(['objects.list', 'classify']);
  });
});

describe('graph.path between two large components', () => {
  it('lets other calls run while it searches both ends for a path that does not exist', async () => {
    const ws = await h.newWorkspace();
    const base = { uniques: [], created_by: ws.owner.user_id, assignee_id: ws.owner.user_id };
    const hubs = [];
    for (const name of ['Hub one', 'Hub two']) {
      const hub = await callTool(h, 'rest', ws.owner.key, 'records.create', { object_type_slug: 'companies', data: { name } });
      if (!hub.ok) throw new Error(hub.message);
      hubs.push(hub.result.record_id as string);
    }
    for (const hub of hubs) {
      await h.server.store.createRecords(ws.id, Array.from({ length: 2_500 }, (_, i) => ({
        ...base, object_type_slug: 'contacts', data: { name: `Person ${i}`, company: hub }, refs: [{ field: 'company', to_id: hub }],
      })));
    }
    const ends = await Promise.all(hubs.map(async (hub) => {
      const page = await callTool(h, 'rest', ws.owner.key, 'records.list', { object_type_slug: 'contacts', filters: { company: hub }, page_size: 1 });
      if (!page.ok) throw new Error(page.message);
      return page.result.items[0].record_id as string;
    }));
    const order: string[] = [];
    const path = callTool(h, 'rest', ws.owner.key, 'graph.path', { from_record_id: ends[0], to_record_id: ends[1], max_depth: 6 }).then((out) => {
      order.push('graph.path');
      return out;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await callTool(h, 'rest', ws.owner.key, 'objects.list', {})).ok).toBe(true);
    order.push('objects.list');
    expect(await path).toMatchObject({ ok: true, result: { paths: [], truncated: false } });
    expect(order).toEqual(['objects.list', 'graph.path']);
  });
});
