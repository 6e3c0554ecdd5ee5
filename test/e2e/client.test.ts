import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrmClient, CrmClientError } from 'crm-tool-service/client';
import { STYLES, startHarness, type Harness } from './harness.ts';

/** A well-formed record id that no workspace holds. */
const MISSING = 'rec_01M80M9R1HS9S9FP9P9YQ048KD';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const client = (style: (typeof STYLES)[number], key = h.ws.owner.key) => new CrmClient({ baseUrl: h.url, apiKey: key, style });

async function failure(p: Promise<unknown>): Promise<CrmClientError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(CrmClientError);
  return err as CrmClientError;
}

describe.each(STYLES)('the typed client over %s', (style) => {
  it('creates, reads, updates and lists records and their object types', async () => {
    const crm = client(style);
    const objects = await crm.objects.list();
    expect(objects.items.map((o) => o.slug)).toContain('contacts');
    const rec = await crm.records.create({ object_type_slug: 'contacts', data: { name: `Ada ${style}`, email: `ada-${style}@example.com` } });
    expect((await crm.records.get({ record_id: rec.record_id })).record_id).toBe(rec.record_id);
    const updated = await crm.records.update({ record_id: rec.record_id, data: { name: `Ada L ${style}` } });
    expect(updated.data.name).toBe(`Ada L ${style}`);
    const page = await crm.records.list({ object_type_slug: 'contacts', page_size: 5 });
    expect(page.total).toBeGreaterThan(0);
  });

  it('works lists, views, notes, tasks and the timeline', async () => {
    const crm = client(style);
    const rec = await crm.records.create({ object_type_slug: 'contacts', data: { name: `Grace ${style}` } });
    const list = await crm.lists.create({ object_type_slug: 'contacts', name: `List ${style}` });
    expect((await crm.lists.get({ list_id: list.list_id })).name).toBe(`List ${style}`);
    const view = await crm.views.create({ name: `View ${style}`, object_type_slug: 'contacts' });
    expect((await crm.views.get({ view_id: view.view_id })).name).toBe(`View ${style}`);
    const note = await crm.notes.create({ title: `Note ${style}`, record_ids: [rec.record_id] });
    expect((await crm.notes.list({ record_id: rec.record_id })).items.map((n) => n.note_id)).toContain(note.note_id);
    const task = await crm.tasks.create({ title: `Task ${style}`, record_ids: [rec.record_id] });
    expect((await crm.tasks.get({ task_id: task.task_id })).title).toBe(`Task ${style}`);
    const feed = await crm.timeline.list({ record_id: rec.record_id });
    expect(feed.items.length).toBeGreaterThan(0);
  });

  it('reads reports, analytics, the graph, integrations, comms, billing and support', async () => {
    const crm = client(style);
    const a = await crm.records.create({ object_type_slug: 'contacts', data: { name: `Alan ${style}` } });
    const b = await crm.records.create({ object_type_slug: 'contacts', data: { name: `Joan ${style}` } });
    await crm.graph.link({ from_record_id: a.record_id, to_record_id: b.record_id, type: 'knows' });
    const graph = await crm.graph.query({ record_id: a.record_id });
    expect(graph.nodes.length).toBeGreaterThanOrEqual(2);
    expect(Array.isArray((await crm.reports.list()).items)).toBe(true);
    expect(await crm.analytics.summary()).toBeTypeOf('object');
    expect(Array.isArray((await crm.integrations.list()).items)).toBe(true);
    expect(Array.isArray((await crm.email.list()).items)).toBe(true);
    expect(Array.isArray((await crm.messages.list()).items)).toBe(true);
    expect(Array.isArray((await crm.meetings.list()).items)).toBe(true);
    expect(await crm.billing.get()).toBeTypeOf('object');
    expect(await crm.contacts.classify({ record_ids: [a.record_id] })).toBeTypeOf('object');
    const ticket = await crm.support.create_ticket({ subject: `Help ${style}`, body: 'It works' });
    expect(ticket).toBeTypeOf('object');
  });

  it('throws one error class with code, status, message and details for a bad parameter', async () => {
    const err = await failure(client(style).records.get({ record_id: '' }));
    expect(err.code).toBe('validation_error');
    expect(err.status).toBe(400);
    expect(err.details?.param).toBe('record_id');
    expect(err.message).toMatch(/record_id/);
  });

  it('throws not_found and permission_denied the same way', async () => {
    const missing = await failure(client(style).records.get({ record_id: MISSING }));
    expect([missing.code, missing.status]).toEqual(['not_found', 404]);
    const denied = await failure(client(style, h.ws.recordsOnly).notes.list());
    expect([denied.code, denied.status]).toEqual(['permission_denied', 403]);
  });

  it('throws an unknown tool as tool_not_found (MCP: from the JSON-RPC error it is)', async () => {
    const err = await failure(client(style).call('records.serch' as never, {} as never));
    expect(err.code).toBe('tool_not_found');
    expect(err.details).toMatchObject({ param: 'tool', suggestion: 'records.search' });
    if (style === 'mcp') {
      // MCP answers an unknown tool with JSON-RPC -32602, the service code in its data.
      expect([err.status, err.details?.rpc_code]).toEqual([200, -32602]);
    } else {
      expect(err.status).toBe(404);
    }
    expect(err.message).toMatch(/records\.serch/);
  });

  it('throws unauthorized for an unknown key', async () => {
    const err = await failure(client(style, 'crm_nope').objects.list());
    expect([err.code, err.status]).toEqual(['unauthorized', 401]);
  });
});

describe('the typed client and the bridge shapes', () => {
  it('reads the plain bridge shape too', async () => {
    const plain = await startHarness({ BRIDGE_RESPONSE_SHAPE: 'plain' });
    try {
      const crm = new CrmClient({ baseUrl: plain.url, apiKey: plain.ws.owner.key, style: 'bridge' });
      expect((await crm.objects.list()).items.length).toBeGreaterThan(0);
      const err = await failure(crm.records.get({ record_id: MISSING }));
      expect([err.code, err.status]).toEqual(['not_found', 404]);
    } finally {
      await plain.close();
    }
  });
});
