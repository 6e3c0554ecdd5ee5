import { subscriptionLapsed } from '../actor.ts';
import { flushUsage, periodOf } from '../comms/usage.ts';
import { commsSettings } from '../comms/settings.ts';
import { validationError } from '../errors.ts';
import { newId } from '../ids.ts';
import { created, eventFor } from './events.ts';
import { CommsBase } from './comms-base.ts';
import { EmailService } from './email.ts';

export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];
const BILLED_STYLES = ['rest', 'bridge', 'mcp', 'graphql'] as const;

/**
 * billing.get and support.create_ticket. billing.get answers while the trial is expired: the
 * trial check below the transports exempts the billing scope, so a lapsed workspace can still see
 * why its calls fail.
 */
export class BillingService extends CommsBase {
  async get() {
    const ws = await this.store.getWorkspace(this.ws);
    const plan = ws?.plan ?? null;
    const trialEndsAt = ws?.trial_ends_at ?? null;
    const status = plan ? 'active' : subscriptionLapsed({ plan, trial_ends_at: trialEndsAt }) ? 'expired' : 'trialing';
    const period = periodOf();
    // Counts still in this process's tally are written first, so this call's own count is included.
    await flushUsage(this.store);
    const stored = await this.store.getUsage(this.ws, period);
    // One count over every live object type; the cut-offs only shape the recent counts, unused here.
    const now = new Date().toISOString();
    const records = (await this.store.countRecordsByType(this.ws, { week: now, month: now })).reduce((n, t) => n + t.total, 0);
    return {
      plan: plan ?? 'trial', status, trial_ends_at: trialEndsAt,
      usage: {
        period_start: `${period}-01T00:00:00.000Z`,
        calls_by_style: Object.fromEntries(BILLED_STYLES.map((s) => [s, stored[s] ?? 0])) as Record<(typeof BILLED_STYLES)[number], number>,
        records,
      },
    };
  }

  /** Opens a ticket; with SUPPORT_EMAIL configured it is also mailed there through the email outbox. */
  async createTicket(input: { subject: string; body: string; priority?: TicketPriority | undefined }) {
    const subject = input.subject.trim();
    if (!subject || subject.length > 200) throw validationError('subject', 'subject must be 1 to 200 characters', { rule: 'length' });
    if (/[\r\n]/.test(subject)) throw validationError('subject', 'subject must be one line', { rule: 'format' });
    if (!input.body.trim() || input.body.length > 20_000) throw validationError('body', 'body must be 1 to 20000 characters', { rule: 'length' });
    const priority = input.priority ?? 'normal';
    const supportEmail = commsSettings(this.store).supportEmail;
    const id = newId('ticket');
    let emailId: string | null = null;
    if (supportEmail) {
      const email = await new EmailService(this.store, this.actor).queue({
        to: [supportEmail], cc: [], bcc: [], subject: `[${priority}] ${subject} (${id}, workspace ${this.ws})`, body: input.body, body_format: 'text', record_ids: [],
      });
      emailId = email.id;
    }
    const ticket = await this.store.createComm(this.ws, {
      id, kind: 'ticket', status: 'open', tag: priority, thread_id: null, at: new Date().toISOString(),
      data: { subject, body: input.body, priority, email_id: emailId }, record_ids: [], next_attempt_at: null, created_by: this.actor.user_id,
    }, [eventFor(this.actor, 'create', 'ticket', id, [], created({ subject, priority }))]);
    return { ticket_id: ticket.id, id: ticket.id, status: 'open' as const, priority, subject, email_id: emailId, created_at: ticket.created_at };
  }
}
