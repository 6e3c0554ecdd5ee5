import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, rpc, startHarness, STYLES, type Harness, type Style } from './harness.ts';

/**
 * Email, messages, meetings, integrations, billing and support over all three call styles, on a
 * server with no SMTP relay and no secrets key: nothing outbound is possible, and every answer
 * says so instead of pretending.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const COMMS_TOOLS = [
  'email.send', 'email.list', 'messages.send', 'messages.list', 'meetings.create', 'meetings.list',
  'integrations.list', 'integrations.connect', 'integrations.disconnect', 'billing.get', 'support.create_ticket',
];

describe('tools/list', () => {
  it('lists the eleven communication tools for an unscoped key, each with title, description, schemas and annotations', async () => {
    const tools: any[] = [];
    let cursor: string | undefined;
    do {
      const res = await rpc(h, h.ws.owner.key, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: cursor ? { cursor } : {} });
      tools.push(...res.body.result.tools);
      cursor = res.body.result.nextCursor;
    } while (cursor);
    for (const name of COMMS_TOOLS) {
      const tool = tools.find((t) => t.name === name);
      expect(tool, name).toBeDefined();
      expect(tool.title.length, name).toBeGreaterThan(3);
      expect(tool.description.length, name).toBeGreaterThan(20);
      expect(tool.inputSchema.type, name).toBe('object');
      expect(tool.outputSchema.type, name).toBe('object');
      expect(typeof tool.annotations.readOnlyHint, name).toBe('boolean');
    }
  });
});

describe.each(STYLES)('communications over %s', (style: Style) => {
  const call = (tool: string, params: unknown, key: string = h.ws.owner.key) => callTool(h, style, key, tool, params);
  const ok = async (tool: string, params: unknown, key?: string) => {
    const out = await call(tool, params, key);
    if (!out.ok) throw new Error(`${tool} failed: ${out.status} ${out.code} ${out.message}`);
    return out.result;
  };
  const contact = async (name: string) =>
    (await ok('records.create', { object_type_slug: 'contacts', data: { name: `${name} ${style}`, email: `${name.toLowerCase()}.${style}@example.com` } })).record_id as string;

  it('keeps an email as stored with the reason when no SMTP relay or integration exists, and puts it on the record\'s timeline', async () => {
    const ana = await contact('Ana');
    const email = await ok('email.send', { to: 'ana@example.com', cc: ['boss@example.com'], subject: `Hello ${style}`, body: 'Hi *Ana*', body_format: 'markdown', record_ids: [ana] });
    expect(email).toMatchObject({ email_id: email.id, status: 'stored', to: ['ana@example.com'], cc: ['boss@example.com'], subject: `Hello ${style}`, record_ids: [ana] });
    expect(email.reason).toMatch(/SMTP_URL/);
    expect(email.message_id).toMatch(/^<[^@\s]+@[^>\s]+>$/);
    const listed = await ok('email.list', { record_id: ana });
    expect(listed.items.map((e: { email_id: string }) => e.email_id)).toEqual([email.email_id]);
    expect((await ok('email.list', { status: 'sent', record_id: ana })).total).toBe(0);
    const timeline = await ok('timeline.list', { record_id: ana });
    expect(timeline.items[0]).toMatchObject({ resource_type: 'email', action: 'create', resource_id: email.email_id });
  });

  it('names the bad address and refuses more than 50 recipients', async () => {
    const bad = await call('email.send', { to: ['ok@example.com', 'not-an-address'], subject: 'x', body: 'y' });
    expect(bad).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'to[1]' } });
    const many = Array.from({ length: 30 }, (_, i) => `p${i}@example.com`);
    const tooMany = await call('email.send', { to: many, cc: many, subject: 'x', body: 'y' });
    expect(tooMany).toMatchObject({ ok: false, status: 400, details: { param: 'to' } });
    expect(tooMany.ok || tooMany.message).toContain('50');
  });

  it('reads an empty cc or bcc as none, while to still needs an address', async () => {
    const sent = await ok('email.send', { to: 'ana@example.com', cc: [], bcc: [], subject: `Empty copies ${style}`, body: 'b' });
    expect(sent).toMatchObject({ to: ['ana@example.com'], cc: [], bcc: [] });
    expect(await call('email.send', { to: [], cc: ['boss@example.com'], subject: 'x', body: 'y' }))
      .toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'to' } });
  });

  it('delivers internal messages at once, keeps sms as stored, and threads replies', async () => {
    const rec = await contact('Bo');
    const first = await ok('messages.send', { channel: 'internal', body: 'Bo signed', record_ids: [rec] });
    expect(first).toMatchObject({ channel: 'internal', status: 'delivered', thread_id: first.message_id });
    const reply = await ok('messages.send', { channel: 'internal', body: 'Great', thread_id: first.thread_id });
    expect(reply.thread_id).toBe(first.thread_id);
    const sms = await ok('messages.send', { channel: 'sms', to: '+15551234567', body: 'Hi' });
    expect(sms.status).toBe('stored');
    expect(sms.reason).toMatch(/sms provider/);
    expect((await ok('messages.list', { thread_id: first.thread_id })).items.map((m: { body: string }) => m.body)).toEqual(['Great', 'Bo signed']);
    expect((await ok('messages.list', { record_id: rec })).total).toBe(1);
    expect(await call('messages.send', { channel: 'sms', body: 'no to' })).toMatchObject({ ok: false, status: 400, details: { param: 'to' } });
    expect(await call('messages.send', { channel: 'fax', body: 'x' })).toMatchObject({ ok: false, status: 400, details: { param: 'channel' } });
    // An sms goes to a phone number, and a thread keeps to its channel.
    expect(await call('messages.send', { channel: 'sms', to: 'hello', body: 'x' })).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'to', rule: 'format' } });
    expect((await ok('messages.send', { channel: 'sms', to: ' +1 555 123 4567 ', body: 'x' })).to).toBe('+1 555 123 4567');
    expect(await call('messages.send', { channel: 'sms', to: '+15551234567', body: 'x', thread_id: first.thread_id }))
      .toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'thread_id', rule: 'channel_mismatch', expected: 'internal' } });
    expect((await ok('messages.send', { channel: 'sms', to: '+15551234567', body: 'again', thread_id: sms.thread_id })).thread_id).toBe(sms.thread_id);
    expect((await ok('messages.send', { channel: 'chat', to: '@bo', body: 'hi' })).to).toBe('@bo');
  });

  it('creates meetings in a time zone, on the attendees\' timelines, and lists them by start', async () => {
    const cy = await contact('Cy');
    const later = await ok('meetings.create', {
      title: `Demo ${style}`, starts_at: '2027-07-01T10:00', ends_at: '2027-07-01T10:30', time_zone: 'Europe/Berlin',
      attendees: [{ record_id: cy }, { email: 'guest@example.com' }], location: 'Zoom',
    });
    expect(later).toMatchObject({ starts_at: '2027-07-01T08:00:00.000Z', ends_at: '2027-07-01T08:30:00.000Z', time_zone: 'Europe/Berlin', record_ids: [cy] });
    expect(later.attendees).toEqual([{ record_id: cy, email: null }, { record_id: null, email: 'guest@example.com' }]);
    const earlier = await ok('meetings.create', { title: 'Kickoff', starts_at: '2027-06-01T09:00:00Z', ends_at: '2027-06-01T10:00:00+00:00', record_ids: [cy] });
    expect((await ok('meetings.list', { record_id: cy })).items.map((m: { meeting_id: string }) => m.meeting_id)).toEqual([earlier.meeting_id, later.meeting_id]);
    expect((await ok('meetings.list', { record_id: cy, from: '2027-06-15T00:00:00Z' })).total).toBe(1);
    // A date is the whole day: from its first instant, to its last.
    expect((await ok('meetings.list', { record_id: cy, from: '2027-07-01', to: '2027-07-01' })).items.map((m: { meeting_id: string }) => m.meeting_id)).toEqual([later.meeting_id]);
    expect((await ok('meetings.list', { record_id: cy, to: '2027-06-01' })).items.map((m: { meeting_id: string }) => m.meeting_id)).toEqual([earlier.meeting_id]);
    expect((await ok('timeline.list', { record_id: cy })).items[0]).toMatchObject({ resource_type: 'meeting', action: 'create' });
    // Named twice, a person attends once, at the first place.
    const twice = await ok('meetings.create', {
      title: `Twice ${style}`, starts_at: '2027-08-01T10:00:00Z', ends_at: '2027-08-01T10:30:00Z',
      attendees: [{ email: 'Guest@Example.com' }, { record_id: cy }, { email: 'guest@example.com' }, { record_id: cy }],
    });
    expect(twice.attendees).toEqual([{ record_id: null, email: 'Guest@example.com' }, { record_id: cy, email: null }]);
    expect(twice.record_ids).toEqual([cy]);
  });

  it('refuses meetings that end before they start, unknown zones and local times without a zone, naming the parameter', async () => {
    const base = { title: 'Bad', starts_at: '2027-01-01T10:00:00Z', ends_at: '2027-01-01T09:00:00Z' };
    expect(await call('meetings.create', base)).toMatchObject({ ok: false, status: 400, details: { param: 'ends_at' } });
    expect(await call('meetings.create', { ...base, ends_at: '2027-01-01T11:00', time_zone: 'Mars/Olympus' })).toMatchObject({ ok: false, status: 400, details: { param: 'time_zone' } });
    expect(await call('meetings.create', { ...base, starts_at: '2027-01-01T08:00' })).toMatchObject({ ok: false, status: 400, details: { param: 'starts_at' } });
    const unknown = { ...base, ends_at: '2027-01-01T11:00:00Z', attendees: [{ email: 'a@example.com' }, { record_id: 'rec_00000000000000000000000000' }] };
    expect(await call('meetings.create', unknown)).toMatchObject({ ok: false, status: 400, details: { param: 'attendees[1].record_id' } });
    expect(await call('meetings.create', { ...base, ends_at: '2027-01-01T11:00:00Z', attendees: [{ email: 'nope' }] })).toMatchObject({ ok: false, status: 400, details: { param: 'attendees[0].email' } });
  });

  it('lists the providers and refuses to store a secret without SECRETS_KEY', async () => {
    const list = await ok('integrations.list', {});
    expect(list.providers.map((p: { provider: string }) => p.provider)).toEqual(['webhook', 'smtp']);
    const out = await call('integrations.connect', { provider: 'smtp', config: { url: 'smtp://u:p@mail.example.com:587', from: 'me@example.com' } });
    expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'config' } });
    expect(out.ok || out.message).toMatch(/SECRETS_KEY/);
    expect(await call('integrations.connect', { provider: 'ftp', config: {} })).toMatchObject({ ok: false, status: 400, details: { param: 'provider' } });
    expect(await call('integrations.disconnect', { integration_id: 'int_nope' })).toMatchObject({ ok: false, status: 404 });
  });

  it('reports billing with calls counted by style, and opens support tickets', async () => {
    const ws = await h.newWorkspace();
    const before = await ok('billing.get', {}, ws.owner.key);
    const after = await ok('billing.get', {}, ws.owner.key);
    expect(after).toMatchObject({ plan: 'pro', status: 'active', trial_ends_at: null });
    expect(after.usage.calls_by_style[style]).toBe(before.usage.calls_by_style[style] + 1);
    expect(after.usage.period_start).toMatch(/^\d{4}-\d{2}-01T00:00:00.000Z$/);
    expect(after.usage.records).toBe(0);
    const ticket = await ok('support.create_ticket', { subject: 'Help', body: 'Import fails', priority: 'high' });
    expect(ticket).toMatchObject({ ticket_id: ticket.id, status: 'open', priority: 'high', email_id: null });
    expect(await call('support.create_ticket', { subject: 'x', body: 'y', priority: 'asap' })).toMatchObject({ ok: false, status: 400, details: { param: 'priority' } });
  });

  it('answers billing.get for an expired trial while other tools need a subscription', async () => {
    const ws = await h.newWorkspace({ trialDays: -1, plan: null });
    const billing = await ok('billing.get', {}, ws.owner.key);
    expect(billing).toMatchObject({ plan: 'trial', status: 'expired' });
    expect(Date.parse(billing.trial_ends_at)).toBeLessThan(Date.now());
    expect(await call('email.list', {}, ws.owner.key)).toMatchObject({ ok: false, status: 403, code: 'subscription_required' });
  });

  it('keeps scopes and workspaces apart', async () => {
    expect(await call('email.send', { to: 'a@example.com', subject: 's', body: 'b' }, h.ws.recordsOnly)).toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
    const mine = await ok('email.send', { to: 'a@example.com', subject: `Private ${style}`, body: 'b' });
    const theirs = await ok('email.list', {}, h.other.owner.key);
    expect(theirs.items.map((e: { email_id: string }) => e.email_id)).not.toContain(mine.email_id);
    const otherRecord = (await ok('records.create', { object_type_slug: 'contacts', data: { name: 'Theirs' } }, h.other.owner.key)).record_id;
    expect(await call('email.send', { to: 'a@example.com', subject: 's', body: 'b', record_ids: [otherRecord] })).toMatchObject({ ok: false, status: 400, details: { param: 'record_ids[0]' } });
    expect(await call('integrations.connect', { provider: 'webhook', config: {} }, h.ws.member.key)).toMatchObject({ ok: false, status: 403 });
    const ownersRecord = (await ok('records.create', { object_type_slug: 'contacts', data: { name: `Owned ${style}` } })).record_id;
    expect(await call('meetings.create', { title: 'm', starts_at: '2027-01-01T10:00:00Z', ends_at: '2027-01-01T11:00:00Z', record_ids: [ownersRecord] }, h.ws.member.key))
      .toMatchObject({ ok: false, status: 403, code: 'permission_denied', details: { param: 'record_ids' } });
    const attending = { title: 'm', starts_at: '2027-01-01T10:00:00Z', ends_at: '2027-01-01T11:00:00Z', attendees: [{ email: 'a@example.com' }, { record_id: ownersRecord }] };
    expect(await call('meetings.create', attending, h.ws.member.key))
      .toMatchObject({ ok: false, status: 403, code: 'permission_denied', details: { param: 'attendees[1].record_id', record_id: ownersRecord } });
    expect((await ok('meetings.create', attending)).record_ids).toEqual([ownersRecord]);
    expect((await ok('messages.send', { channel: 'internal', body: 'free-standing' }, h.ws.member.key)).status).toBe('delivered');
  });
});

describe('the same operations in GraphQL', () => {
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(`${h.url}/graphql`, {
      method: 'POST', headers: { Authorization: `Bearer ${h.ws.owner.key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }),
    });
    return res.json() as Promise<{ data?: any; errors?: any[] }>;
  };

  it('sends a message, lists it, and counts the GraphQL calls in billing', async () => {
    const sent = await gql('mutation($b: String!) { sendMessage(channel: internal, body: $b) { message_id status } }', { b: 'via graphql' });
    expect(sent.data.sendMessage.status).toBe('delivered');
    const read = await gql('{ messages(thread_id: "' + sent.data.sendMessage.message_id + '") { total items { body } } billing { usage { calls_by_style { graphql } } } }');
    expect(read.data.messages).toEqual({ total: 1, items: [{ body: 'via graphql' }] });
    expect(read.data.billing.usage.calls_by_style.graphql).toBeGreaterThanOrEqual(2);
  });

  it('carries the error code of a refused meeting in extensions', async () => {
    const out = await gql('mutation { createMeeting(title: "x", starts_at: "2027-01-01T10:00:00Z", ends_at: "2027-01-01T09:00:00Z") { meeting_id } }');
    expect(out.errors?.[0]).toMatchObject({ extensions: { code: 'validation_error', details: { param: 'ends_at' } } });
  });
});
