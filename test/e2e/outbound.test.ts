import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, startHarness, type Harness } from './harness.ts';
import { encryptSecret } from '../../src/domain/comms/secrets.ts';
import { eventually, startReceiver, startSmtp, type Receiver, type SmtpEndpoint } from './loopback.ts';
import { sendMail, type OutgoingMail } from '../../gateway/comms/mail.ts';

/**
 * Outbound traffic over real protocols on loopback: emails reach an smtp-server, a refusing server
 * turns into `failed` with its reply, webhooks reach an HTTP receiver signed with the shared secret,
 * and no secret ever shows in an answer, a log line or a timeline event.
 */
const SECRETS_KEY = 'a1'.repeat(32);
const FAST = { COMMS_POLL_MS: '40', COMMS_RETRY_BASE_MS: '20', COMMS_MAX_ATTEMPTS: '3', SECRETS_KEY };
const WEBHOOK_SECRET = 'whsec-very-secret-value-0123456789';
const SMTP_PASSWORD = 'smtp-pass-never-shown-42';

let relay: SmtpEndpoint;
let refusing: SmtpEndpoint;
let picky: SmtpEndpoint;
let senderRefused: SmtpEndpoint;
let contentRefused: SmtpEndpoint;
let strictSender: Harness;
let strictContent: Harness;
let h: Harness;
let partial: Harness;
let plain: Harness;
/** No relay, and integrations may reach this machine's test servers. */
let own: Harness;
const logs: string[] = [];
const answers: string[] = [];
const realWrite = process.stderr.write.bind(process.stderr);

beforeAll(async () => {
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logs.push(String(chunk));
    return (realWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
  relay = await startSmtp();
  refusing = await startSmtp({ refuse: '451 4.3.0 mailbox busy, try again later', requireAuth: true });
  h = await startHarness({ ...FAST, WEBHOOK_TIMEOUT_MS: '200', SMTP_URL: relay.url, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', SUPPORT_EMAIL: 'help@crm.test', LOG_LEVEL: 'debug' });
  plain = await startHarness({ ...FAST, LOG_LEVEL: 'debug' });
  own = await startHarness({ ...FAST, LOG_LEVEL: 'debug', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  picky = await startSmtp({ refuse: '550 5.1.1 <bad@x.com>: no such mailbox', refuseOnly: ['bad@x.com', 'gone@x.com'] });
  partial = await startHarness({ ...FAST, SMTP_URL: picky.url });
  senderRefused = await startSmtp({ refuseSender: '553 5.7.1 <crm@example.com>: sender address not allowed' });
  strictSender = await startHarness({ ...FAST, SMTP_URL: senderRefused.url });
  contentRefused = await startSmtp({ refuseData: '554 5.6.0 message content rejected' });
  strictContent = await startHarness({ ...FAST, SMTP_URL: contentRefused.url });
});
afterAll(async () => {
  process.stderr.write = realWrite;
  await h?.close();
  await plain?.close();
  await own?.close();
  await partial?.close();
  await relay?.close();
  await refusing?.close();
  await picky?.close();
  await strictSender?.close();
  await strictContent?.close();
  await senderRefused?.close();
  await contentRefused?.close();
});

async function ok(on: Harness, tool: string, params: unknown, key = on.ws.owner.key) {
  const out = await callTool(on, 'rest', key, tool, params);
  answers.push(JSON.stringify(out));
  if (!out.ok) throw new Error(`${tool} failed: ${out.status} ${out.code} ${out.message}`);
  return out.result;
}

const emailIn = (on: Harness, id: string, status: string) => async () => {
  const found = (await ok(on, 'email.list', {})).items.find((e: { email_id: string }) => e.email_id === id);
  return found?.status === status ? found : undefined;
};

describe('email over SMTP', () => {
  it('delivers a markdown email to the SMTP server with its Message-ID, headers, HTML and text parts', async () => {
    const rec = (await ok(h, 'records.create', { object_type_slug: 'contacts', data: { name: 'Ana' } })).record_id;
    const sent = await ok(h, 'email.send', {
      to: ['ana@example.com'], cc: 'cc@example.com', bcc: ['hidden@example.com'], subject: 'Your proposal', body: 'Hello **Ana**, see you soon.',
      body_format: 'markdown', record_ids: [rec],
    });
    expect(sent.status).toBe('queued');
    const done = await eventually(emailIn(h, sent.email_id, 'sent'));
    expect(done.sent_at).not.toBeNull();
    const mail = relay.mails.find((m) => m.raw.includes(sent.message_id))!;
    expect(mail).toBeDefined();
    expect(mail.from).toBe('owner@e2e.test');
    expect(mail.to.sort()).toEqual(['ana@example.com', 'cc@example.com', 'hidden@example.com']);
    expect(mail.raw).toMatch(/^Subject: Your proposal\r?$/m);
    expect(mail.raw).toMatch(new RegExp(`^Message-ID: ${sent.message_id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\r?$`, 'mi'));
    expect(mail.raw).toMatch(/^To: ana@example.com\r?$/m);
    expect(mail.raw).not.toMatch(/^Bcc:/m);
    expect(mail.raw).toContain('multipart/alternative');
    expect(mail.raw).toContain('<strong>Ana</strong>');
    expect(mail.raw).toContain('Hello **Ana**, see you soon.');
    const history = (await ok(h, 'timeline.list', { record_id: rec })).items;
    expect(history.map((e: { action: string; resource_type: string }) => `${e.resource_type}.${e.action}`)).toEqual(['email.update', 'email.create', 'record.create']);
    expect(history[0].diff).toEqual({ status: { before: 'queued', after: 'sent' } });
  });

  it('mails support tickets to SUPPORT_EMAIL through the same outbox', async () => {
    const ticket = await ok(h, 'support.create_ticket', { subject: 'Import fails', body: 'It stops at row 3' });
    expect(ticket).toMatchObject({ status: 'open', priority: 'normal' });
    expect(ticket.email_id).toMatch(/^eml_/);
    await eventually(emailIn(h, ticket.email_id, 'sent'));
    expect(relay.mails.some((m) => m.to.includes('help@crm.test') && m.raw.includes(ticket.ticket_id))).toBe(true);
  });

  it('refuses an smtp integration on a private network or with a URL it cannot read, unless private networks are allowed', async () => {
    const connect = (on: Harness, url: string) => callTool(on, 'rest', on.ws.owner.key, 'integrations.connect', { provider: 'smtp', config: { url, from: 'sales@crm.test' } });
    for (const url of [`smtp://crm:${SMTP_PASSWORD}@127.0.0.1:2525`, 'smtp://[::ffff:10.0.0.1]:25', 'smtps://169.254.169.254']) {
      const out = await connect(plain, url);
      expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'config.url', rule: 'private_network' } });
      expect(JSON.stringify(out)).not.toContain(SMTP_PASSWORD);
    }
    // nodemailer reads a URL's query as transport options: a proxy, or sendmail and a program to run.
    for (const url of ['smtp://h:notaport', 'http://mail.example.com', 'smtp://', `${refusing.url}/?proxy=http://10.0.0.5:3128`,
      `${refusing.url}?sendmail=true&path=/usr/bin/env`, `${refusing.url}/relay`, `${refusing.url}#x`]) {
      expect(await connect(own, url)).toMatchObject({ ok: false, status: 400, details: { param: 'config.url', rule: 'format' } });
    }
  });

  it('fails an email at once, saying why, when its smtp integration cannot be used as stored', async () => {
    const connected = await ok(own, 'integrations.connect', { provider: 'smtp', config: { url: refusing.url, from: 'sales@crm.test' } });
    // A secret that no longer decrypts (SECRETS_KEY changed since it was stored).
    const stored = (await own.server.store.getComm(own.ws.id, 'integration', connected.integration_id))!;
    const otherKey = Buffer.from('b2'.repeat(32), 'hex');
    await own.server.store.updateComm(own.ws.id, 'integration', stored.id, { data: { ...stored.data, secrets: { url: encryptSecret(otherKey, refusing.url, stored.id) } } });
    const sent = await ok(own, 'email.send', { to: 'nobody@example.com', subject: 'Stuck?', body: 'x' });
    const failed = await eventually(emailIn(own, sent.email_id, 'failed'));
    expect(failed.attempts).toBe(1);
    expect(failed.error).toMatch(/^not sent: the smtp integration cannot be used \(.*SECRETS_KEY/);
    // One stored before its URL was checked, with transport options in its query: never used.
    const key = Buffer.from(SECRETS_KEY, 'hex');
    await own.server.store.updateComm(own.ws.id, 'integration', stored.id, {
      data: { ...stored.data, secrets: { url: encryptSecret(key, `${refusing.url}?sendmail=true&path=/usr/bin/env`, stored.id) } },
    });
    const again = await ok(own, 'email.send', { to: 'nobody@example.com', subject: 'Sendmail?', body: 'x' });
    const refused = await eventually(emailIn(own, again.email_id, 'failed'));
    expect([refused.attempts, refused.error]).toEqual([1, expect.stringContaining('no path, query or fragment')]);
    expect(refusing.mails).toEqual([]);
    await ok(own, 'integrations.disconnect', { integration_id: connected.integration_id });
  });

  it('sends through a connected smtp integration, retries a transient refusal and ends failed with the server\'s reply', async () => {
    const connected = await ok(own, 'integrations.connect', { provider: 'smtp', config: { url: `smtp://crm:${SMTP_PASSWORD}@${refusing.url.slice(7)}`, from: 'sales@crm.test' } });
    expect(connected).toMatchObject({ provider: 'smtp', status: 'connected', config: { url: 'set', from: 'sales@crm.test' } });
    const sent = await ok(own, 'email.send', { to: 'nobody@example.com', subject: 'Hi', body: 'x' });
    // The integration's from, which the mail is sent From, not the sending user's address.
    expect(sent).toMatchObject({ status: 'queued', from: 'sales@crm.test' });
    const failed = await eventually(emailIn(own, sent.email_id, 'failed'));
    expect(failed.from).toBe('sales@crm.test');
    // A 4yz reply may pass on another try: all three are made.
    expect(failed.attempts).toBe(3);
    expect(failed.error).toContain('451');
    expect(failed.error).toContain('try again later');
    expect(refusing.auths[0]).toEqual({ username: 'crm', password: SMTP_PASSWORD });
    expect(refusing.mails).toEqual([]);
  });
});

describe('a slow SMTP server', () => {
  const mail: OutgoingMail = { from: 'crm@crm.test', to: ['ana@example.com'], cc: [], bcc: [], subject: 'Hi', body: 'x', body_format: 'text', message_id: '<slow-1@crm.test>' };

  it('ends a send it draws out past the deadline, though it never falls silent for a socket timeout, as a failure to retry', async () => {
    // Each answer comes 400 ms late: MAIL FROM, RCPT TO and DATA take 1.2 s in all, the deadline is 1 s.
    const slow = await startSmtp({ delayMs: 400 });
    try {
      const out = await sendMail(slow.url, mail, undefined, 1000);
      expect(out).toEqual({ ok: false, reply: 'ETIMEDOUT: the SMTP server did not finish the send within 1 s' });
      // Given the time, the same server takes it: only the deadline ended the first send.
      expect(await sendMail(slow.url, mail, undefined, 10_000)).toMatchObject({ ok: true, reply: expect.stringContaining('250') });
    } finally {
      await slow.close();
    }
  });
});

describe('recipients the server refuses', () => {
  it('marks an email sent to the others as sent, naming each refused recipient with the server\'s reply in error and on the timeline', async () => {
    const rec = (await ok(partial, 'records.create', { object_type_slug: 'contacts', data: { name: 'Ana' } })).record_id;
    const sent = await ok(partial, 'email.send', {
      to: ['ana@example.com', 'bad@x.com'], cc: 'gone@x.com', bcc: 'boss@example.com', subject: 'Offer', body: 'Hi', record_ids: [rec],
    });
    const done = await eventually(emailIn(partial, sent.email_id, 'sent'));
    expect(done.attempts).toBe(1);
    expect(done.error).toMatch(/^not delivered to 2 of 4 recipients/);
    expect(done.error).toContain('bad@x.com: 550 5.1.1 <bad@x.com>: no such mailbox');
    expect(done.error).toContain('gone@x.com: 550');
    expect(done.error).not.toContain('ana@example.com');
    const mail = picky.mails.find((m) => m.raw.includes(sent.message_id))!;
    expect(mail.to.sort()).toEqual(['ana@example.com', 'boss@example.com']);
    const [event] = (await ok(partial, 'timeline.list', { record_id: rec })).items;
    expect(event).toMatchObject({ resource_type: 'email', action: 'update', diff: { status: { before: 'queued', after: 'sent' }, error: { before: null, after: done.error } } });
  });

  it('keeps error null on an email every recipient took', async () => {
    const sent = await ok(partial, 'email.send', { to: 'ana@example.com', subject: 'All fine', body: 'Hi' });
    const done = await eventually(emailIn(partial, sent.email_id, 'sent'));
    expect(done.error).toBeNull();
  });

  it('ends failed at once with the server\'s reply when it refuses every recipient permanently', async () => {
    const sent = await ok(partial, 'email.send', { to: ['bad@x.com', 'gone@x.com'], subject: 'Nobody', body: 'Hi' });
    const failed = await eventually(emailIn(partial, sent.email_id, 'failed'));
    expect(failed.error).toContain('550 5.1.1');
    // A 5yz reply is the same on every try (RFC 5321): not retried.
    expect(failed.attempts).toBe(1);
  });

  it('ends failed at once when the server refuses the content permanently at DATA', async () => {
    const sent = await ok(strictContent, 'email.send', { to: 'ana@example.com', subject: 'Content', body: 'Hi' });
    const failed = await eventually(emailIn(strictContent, sent.email_id, 'failed'));
    expect(failed.error).toContain('554 5.6.0');
    expect(failed.attempts).toBe(1);
    expect(contentRefused.mails).toHaveLength(0);
  });

  it('retries a 5yz refusal of the sender (MAIL FROM), which is the relay settings rather than this email', async () => {
    const sent = await ok(strictSender, 'email.send', { to: 'ana@example.com', subject: 'Sender', body: 'Hi' });
    const failed = await eventually(emailIn(strictSender, sent.email_id, 'failed'));
    expect(failed.error).toContain('553 5.7.1');
    // COMMS_MAX_ATTEMPTS is 3: every try was made.
    expect(failed.attempts).toBe(3);
  });
});

describe('markdown bodies', () => {
  /** The longest the event loop went without running a 5 ms timer while `work` ran. */
  async function stallDuring(work: () => Promise<unknown>): Promise<number> {
    let last = performance.now();
    let worst = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    try {
      await work();
    } finally {
      clearInterval(timer);
    }
    return Math.max(worst, performance.now() - last);
  }

  it.each([
    ['a list nested 49,000 deep', '- '.repeat(49_000) + 'x'],
    ['3,000 block quote marks', '>'.repeat(3000)],
    ['emphasis nested 11 deep', '*a '.repeat(11) + 'x' + ' a*'.repeat(11)],
  ])('refuses %s at email.send with validation_error on body, quickly and without stalling the server', async (_what, body) => {
    let out: Awaited<ReturnType<typeof callTool>> | undefined;
    const started = performance.now();
    const stall = await stallDuring(async () => {
      out = await callTool(h, 'rest', h.ws.owner.key, 'email.send', { to: 'ana@example.com', subject: 'Deep', body, body_format: 'markdown' });
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(stall).toBeLessThan(250);
    expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'body', rule: 'max_depth', max: 10 } });
    expect(out).toMatchObject({ message: expect.stringMatching(/at most 10 levels deep/) });
  });

  it('refuses a body marked cannot render within 1 s (render_time) while other calls go on', async () => {
    const body = '*a'.repeat(50_000);
    let refused: Awaited<ReturnType<typeof callTool>> | undefined;
    let listedIn = Infinity;
    const stall = await stallDuring(async () => {
      const send = callTool(h, 'rest', h.ws.owner.key, 'email.send', { to: 'ana@example.com', subject: 'Slow', body, body_format: 'markdown' });
      const t0 = performance.now();
      await ok(h, 'records.list', { object_type_slug: 'contacts' });
      listedIn = performance.now() - t0;
      refused = await send;
    });
    expect(refused).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'body', rule: 'render_time', max_ms: 1000 } });
    expect(listedIn).toBeLessThan(500);
    expect(stall).toBeLessThan(250);
  });

  it('sends a newsletter with lists nested 5 deep, a quote, a table and code as HTML', async () => {
    const body = [
      '# November news', '', 'Hello **friends**, read [the post](https://example.com/post).', '', '> We shipped *three* things.', '',
      '- one', '  - two', '    - three', '      - four', '        - five deep', '', '| plan | price |', '|---|---|', '| pro | 10 |', '',
      '```', 'npm install', '```', '', ...Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with _emphasis_ and \`code\`.\n`),
    ].join('\n');
    const started = performance.now();
    const sent = await ok(h, 'email.send', { to: 'ana@example.com', subject: 'News', body, body_format: 'markdown' });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(sent.status).toBe('queued');
    await eventually(emailIn(h, sent.email_id, 'sent'));
    const raw = relay.mails.find((m) => m.raw.includes(sent.message_id))!.raw.replace(/=\r?\n/g, '');
    expect(raw).toContain('five deep');
    expect(raw.match(/<ul>/g)?.length).toBe(5);
    expect(raw).toContain('<blockquote>');
  });

  it('fails a stored body that does not render at once, with the reason, not retried and not called a network error', async () => {
    // As an email queued before email.send rendered markdown would be.
    const stored = await h.server.store.createComm(h.ws.id, {
      kind: 'email', status: 'queued', tag: null, thread_id: null, at: new Date().toISOString(), record_ids: [], next_attempt_at: new Date().toISOString(),
      created_by: h.ws.owner.user_id,
      data: { to: ['ana@example.com'], cc: [], bcc: [], subject: 'Old', body: '>'.repeat(3000), body_format: 'markdown', message_id: '<old@crm.local>', from: 'owner@e2e.test' },
    }, []);
    const failed = await eventually(emailIn(h, stored.id, 'failed'));
    expect(failed.attempts).toBe(1);
    expect(failed.error).toBe('not sent: the markdown body could not be rendered (markdown nests more than 10 levels deep)');
    expect(relay.mails.some((m) => m.raw.includes('<old@crm.local>'))).toBe(false);
  });
});

describe('webhooks', () => {
  let receiver: Receiver;
  afterAll(async () => receiver?.close());

  it('posts matching events signed with the secret, retries a failing receiver, and accepts each event once with one delivery id', async () => {
    receiver = await startReceiver(WEBHOOK_SECRET, 2);
    const hook = await ok(h, 'integrations.connect', { provider: 'webhook', config: { url: receiver.url, events: ['note.create'], secret: WEBHOOK_SECRET } });
    expect(hook.config).toEqual({ url: receiver.url, events: ['note.create'], secret: 'set' });
    await ok(h, 'records.create', { object_type_slug: 'companies', data: { name: 'Not subscribed' } });
    const note = await ok(h, 'notes.create', { title: 'Call went well' });
    await eventually(async () => receiver.hits.some((hit) => hit.status === 204));
    const ids = new Set(receiver.hits.map((hit) => hit.headers['crm-delivery-id']));
    expect(ids.size).toBe(1);
    expect(receiver.hits.map((hit) => hit.status)).toEqual([500, 500, 204]);
    expect(receiver.hits.every((hit) => hit.signed)).toBe(true);
    const payload = JSON.parse(receiver.hits[2]!.body);
    expect(payload).toMatchObject({ event: 'note.create', delivery_id: [...ids][0], data: { resource_type: 'note', resource_id: note.note_id } });
    const listed = (await ok(h, 'integrations.list', {})).items.find((i: { integration_id: string }) => i.integration_id === hook.integration_id);
    expect(listed.deliveries).toEqual([expect.objectContaining({ delivery_id: [...ids][0], status: 'delivered', attempts: 3, last_status: 204, event: 'note.create' })]);
  });

  it('counts a receiver that does not answer in time as a failed try, and retries with the same delivery id', async () => {
    const slow = await startReceiver(WEBHOOK_SECRET, 1, { hang: true });
    try {
      const hook = await ok(h, 'integrations.connect', { provider: 'webhook', config: { url: slow.url, events: ['meeting.create'], secret: WEBHOOK_SECRET } });
      await ok(h, 'meetings.create', { title: 'Sync', starts_at: '2027-03-01T10:00:00Z', ends_at: '2027-03-01T10:30:00Z' });
      await eventually(async () => slow.hits.some((hit) => hit.status === 204));
      expect(slow.hits).toHaveLength(2);
      expect(slow.hits[0]!.headers['crm-delivery-id']).toBe(slow.hits[1]!.headers['crm-delivery-id']);
      const listed = (await ok(h, 'integrations.list', {})).items.find((i: { integration_id: string }) => i.integration_id === hook.integration_id);
      expect(listed.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2, event: 'meeting.create' });
      await ok(h, 'integrations.disconnect', { integration_id: hook.integration_id });
    } finally {
      await slow.close();
    }
  });

  it('refuses a webhook URL on a private network unless WEBHOOK_ALLOW_PRIVATE_NETWORKS is true', async () => {
    const out = await callTool(plain, 'rest', plain.ws.owner.key, 'integrations.connect', {
      provider: 'webhook', config: { url: 'http://127.0.0.1:9/hook', events: ['*'], secret: WEBHOOK_SECRET },
    });
    expect(out).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'config.url', rule: 'private_network' } });
    const mapped = await callTool(plain, 'rest', plain.ws.owner.key, 'integrations.connect', {
      provider: 'webhook', config: { url: 'http://[::ffff:10.0.0.1]/hook', events: ['*'], secret: WEBHOOK_SECRET },
    });
    expect(mapped).toMatchObject({ ok: false, status: 400, details: { param: 'config.url' } });
  });

  it('stops delivering after disconnect', async () => {
    const quiet = await startReceiver(WEBHOOK_SECRET);
    // Only notes: the hook's own integration.create may legitimately go out before the disconnect.
    const hook = await ok(h, 'integrations.connect', { provider: 'webhook', config: { url: quiet.url, events: ['note.create'], secret: WEBHOOK_SECRET } });
    await ok(h, 'integrations.disconnect', { integration_id: hook.integration_id });
    await ok(h, 'notes.create', { title: 'After disconnect' });
    await h.server.comms.tick();
    await h.server.comms.tick();
    expect(quiet.hits).toEqual([]);
    expect((await ok(h, 'integrations.list', {})).items.map((i: { integration_id: string }) => i.integration_id)).not.toContain(hook.integration_id);
    await quiet.close();
  });
});

describe('webhooks of several workspaces', () => {
  it("posts a quiet workspace's delivery in the first round while another's burst is still queued, then drains the burst without waiting for a poll", async () => {
    // Rounds only when the test asks (tick), so the first round is the one looked at.
    const manual = await startHarness({ ...FAST, COMMS_POLL_MS: '60000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    const busy = await startReceiver(WEBHOOK_SECRET);
    const calm = await startReceiver(WEBHOOK_SECRET);
    try {
      const quiet = await manual.newWorkspace();
      const connect = (key: string, url: string) =>
        ok(manual, 'integrations.connect', { provider: 'webhook', config: { url, events: ['note.create'], secret: WEBHOOK_SECRET } }, key);
      await connect(manual.ws.owner.key, busy.url);
      await connect(quiet.owner.key, calm.url);
      for (let i = 0; i < 50; i++) await ok(manual, 'notes.create', { title: `Imported ${i}` });
      await ok(manual, 'notes.create', { title: 'The one note' }, quiet.owner.key);
      await manual.server.comms.tick();
      // A round posts 20 deliveries; the quiet workspace's took its turn among the first claimed.
      expect(calm.hits.map((hit) => JSON.parse(hit.body).workspace_id)).toEqual([quiet.id]);
      expect(busy.hits).toHaveLength(19);
      // A full round is followed by another at once, not at the next poll a minute on.
      await eventually(async () => busy.hits.length === 50);
      expect(new Set(busy.hits.map((hit) => hit.headers['crm-delivery-id'])).size).toBe(50);
      expect(calm.hits).toHaveLength(1);
    } finally {
      await busy.close();
      await calm.close();
      await manual.close();
    }
  });
});

describe('secrets', () => {
  it('never shows a secret in an answer, a log line or a timeline event, and stores it encrypted', async () => {
    for (const on of [h, plain]) {
      answers.push(JSON.stringify(await ok(on, 'timeline.list', { page_size: 100 })));
      answers.push(JSON.stringify(await ok(on, 'integrations.list', {})));
    }
    const everything = [...answers, ...logs].join('\n');
    expect(everything.length).toBeGreaterThan(1000);
    expect(everything).toContain('"tool":"integrations.connect"');
    expect(everything).not.toContain(WEBHOOK_SECRET);
    expect(everything).not.toContain(SMTP_PASSWORD);
    const stored = (await h.server.store.listComms(h.ws.id, { kind: 'integration', offset: 0, limit: 10, tag: 'webhook' })).items[0]!;
    expect(JSON.stringify(stored.data)).not.toContain(WEBHOOK_SECRET);
    expect(String((stored.data.secrets as { secret: string }).secret)).toMatch(/^v1:/);
  });
});
