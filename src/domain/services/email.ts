import { longerThan } from '../fields/checks.ts';
import type { Comm } from '../store/port-comms.ts';
import { addressList, checkRecipientCount } from '../comms/addresses.ts';
import { MARKDOWN_MAX_DEPTH, MARKDOWN_RENDER_MS, MarkdownError, renderMarkdown } from '../comms/markdown.ts';
import { commsSettings } from '../comms/settings.ts';
import { toUtc } from '../comms/times.ts';
import { validationError } from '../errors.ts';
import { dayOrTimestamp } from '../fields.ts';
import { created } from './events.ts';
import { CommsBase } from './comms-base.ts';

export const EMAIL_BODY_MAX = 100_000;
export const EMAIL_STATUSES = ['stored', 'queued', 'sent', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export interface EmailInput {
  to: string | string[];
  cc?: string | string[] | undefined;
  bcc?: string | string[] | undefined;
  subject: string;
  body: string;
  body_format?: 'text' | 'markdown' | undefined;
  record_ids?: string[] | undefined;
}

export interface EmailView {
  email_id: string;
  id: string;
  status: EmailStatus;
  from: string | null;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  body: string;
  body_format: 'text' | 'markdown';
  message_id: string;
  record_ids: string[];
  /** Why a stored email was not sent. */
  reason: string | null;
  /**
   * Why it did not reach everyone: on `failed`, the server's reply (or why it could not be sent);
   * on `sent`, the recipients the server refused, each with its reply (the others got it).
   */
  error: string | null;
  attempts: number;
  sent_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** An email whose addresses, subject, body and records have been checked. */
export type CheckedEmail = Pick<EmailView, 'to' | 'cc' | 'bcc' | 'subject' | 'body' | 'body_format' | 'record_ids'>;

export function toEmailView(c: Comm): EmailView {
  const d = c.data as Record<string, any>;
  return {
    email_id: c.id, id: c.id, status: c.status as EmailStatus, from: d.from ?? null, to: d.to, cc: d.cc, bcc: d.bcc, subject: d.subject,
    body: d.body, body_format: d.body_format, message_id: d.message_id, record_ids: c.record_ids, reason: d.reason ?? null, error: d.error ?? null,
    attempts: c.attempts, sent_at: d.sent_at ?? null, created_by: c.created_by, created_at: c.created_at, updated_at: c.updated_at,
  };
}

/**
 * Renders a markdown body once before it is stored, so what the outbox sends is known to render:
 * a body past the nesting bound, too slow to render or that marked cannot render is refused here.
 */
async function checkMarkdown(body: string, workspaceId: string): Promise<void> {
  try {
    await renderMarkdown(body, workspaceId);
  } catch (error) {
    if (!(error instanceof MarkdownError)) throw error;
    const [bound, hint] = error.rule === 'max_depth'
      ? [{ max: MARKDOWN_MAX_DEPTH }, `nest block quotes, lists, links and emphasis at most ${MARKDOWN_MAX_DEPTH} levels deep`]
      : error.rule === 'render_time' ? [{ max_ms: MARKDOWN_RENDER_MS }, 'shorten or simplify it'] : [{}, 'fix the markup'];
    throw validationError('body', `body: ${error.message}; ${hint}, or send it with body_format "text"`, { rule: error.rule, ...bound });
  }
}

/**
 * Emails: kept in the workspace's outbox and delivered off the request path by the outbox worker.
 * With a server relay (SMTP_URL) or a connected smtp integration the email is `queued`; with
 * neither it is `stored` with the reason, and nothing pretends it was sent.
 */
export class EmailService extends CommsBase {
  async send(input: EmailInput): Promise<EmailView> {
    return toEmailView(await this.queue(await this.checked(input)));
  }

  /**
   * Keeps an email as a record of mail written elsewhere, never sending it whatever relay is
   * configured: status `stored` with `reason`, at `at` (default now, never in the future). The demo
   * seed uses this, so seeding contacts no SMTP server.
   */
  async keep(input: EmailInput, reason: string, at = new Date().toISOString()): Promise<EmailView> {
    if (!(Date.parse(at) <= Date.now())) throw validationError('at', 'a kept email was written at a past time', { rule: 'past' });
    return toEmailView(await this.insertEmail(await this.checked(input), { sendable: false, reason, at: new Date(at).toISOString() }));
  }

  /** Stores an email already checked, queued when a way to send it exists (support tickets use this too). */
  async queue(email: CheckedEmail): Promise<Comm> {
    const relay = commsSettings(this.store).smtpConfigured;
    const integration = relay ? null : (await this.store.listComms(this.ws, { kind: 'integration', tag: 'smtp', status: ['connected'], offset: 0, limit: 1 })).items[0];
    const sendable = relay || integration !== undefined;
    // Through an smtp integration the mail goes out From its `from` (outbox.ts), so the email says so.
    const from = (integration?.data as { config?: { from?: unknown } } | undefined)?.config?.from;
    return this.insertEmail(email, {
      sendable, reason: 'not sent: no SMTP relay is configured (SMTP_URL) and no smtp integration is connected', at: new Date().toISOString(),
      ...(typeof from === 'string' ? { from } : {}),
    });
  }

  private async checked(input: EmailInput): Promise<CheckedEmail> {
    const to = addressList(input.to, 'to');
    const cc = addressList(input.cc, 'cc');
    const bcc = addressList(input.bcc, 'bcc');
    checkRecipientCount(to, cc, bcc);
    const subject = input.subject.trim();
    if (!subject || subject.length > 998) throw validationError('subject', 'subject must be 1 to 998 characters', { rule: 'length' });
    if (/[\r\n]/.test(subject)) throw validationError('subject', 'subject must be one line', { rule: 'format' });
    if (longerThan(input.body, EMAIL_BODY_MAX)) throw validationError('body', `body must be at most ${EMAIL_BODY_MAX} characters`, { rule: 'max_length', max: EMAIL_BODY_MAX });
    const bodyFormat = input.body_format ?? 'text';
    const recordIds = await this.linkable(input.record_ids);
    if (bodyFormat === 'markdown') await checkMarkdown(input.body, this.ws);
    return { to, cc, bcc, subject, body: input.body, body_format: bodyFormat, record_ids: recordIds };
  }

  /** Queued to be sent at `at` when sendable; otherwise stored with the reason. */
  private async insertEmail(email: CheckedEmail, how: { sendable: boolean; reason: string; at: string; from?: string }): Promise<Comm> {
    const { sendable, at } = how;
    const user = how.from === undefined ? await this.store.getUser(this.ws, this.actor.user_id) : null;
    const messageId = `<${crypto.randomUUID()}@crm.local>`;
    const data = {
      to: email.to, cc: email.cc, bcc: email.bcc, subject: email.subject, body: email.body, body_format: email.body_format,
      message_id: messageId, from: how.from ?? user?.email ?? null,
      ...(sendable ? {} : { reason: how.reason }),
    };
    return this.insert('email', {
      status: sendable ? 'queued' : 'stored', tag: null, thread_id: null, at, data, record_ids: email.record_ids, next_attempt_at: sendable ? at : null,
    }, created({ to: email.to, cc: email.cc.length ? email.cc : undefined, subject: email.subject, message_id: messageId, status: sendable ? 'queued' : 'stored' }));
  }

  async list(input: { record_id?: string | undefined; status?: EmailStatus | undefined; since?: string | undefined; page?: number | undefined; page_size?: number | undefined }) {
    let since: string | undefined;
    if (input.since !== undefined) {
      // A date is its first instant, a time without an offset is UTC's, as meetings.list reads `from`.
      since = dayOrTimestamp(input.since) ?? toUtc(input.since, 'since', 'UTC');
    }
    const page = await this.page({
      kind: 'email', ...(input.record_id ? { record_id: input.record_id } : {}), ...(input.status ? { status: [input.status] } : {}),
      ...(since ? { from: since } : {}),
    }, input);
    return { ...page, items: page.items.map(toEmailView) };
  }
}
