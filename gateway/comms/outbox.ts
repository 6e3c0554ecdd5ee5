import { checkSmtpUrl, smtpTransportOptions } from '../../src/domain/comms/network.ts';
import { decryptSecret } from '../../src/domain/comms/secrets.ts';
import { CrmError } from '../../src/domain/errors.ts';
import type { Store } from '../../src/domain/store/port.ts';
import type { Comm } from '../../src/domain/store/port-comms.ts';
import type { Logger } from '../logger.ts';
import { SEND_MS, sendMail, type OutgoingMail, type RefusedRecipient, type SmtpTransportOptions } from './mail.ts';
import { recordFailure, systemEvent, workDue, type RetryPolicy } from './retry.ts';

export interface OutboxOptions extends RetryPolicy {
  smtpUrl: string | undefined;
  secretsKey: Buffer | null;
  /** Whether a workspace's smtp integration may reach a private address (WEBHOOK_ALLOW_PRIVATE_NETWORKS). */
  allowPrivateNetworks: boolean;
}

/**
 * Delivers queued emails. Reads due work from the store (so a restart loses nothing), sends each
 * through the server relay or the workspace's smtp integration, and records the outcome: `sent`
 * with the server's reply (and in `error` the recipients it refused, if some), or after the last
 * attempt `failed` with the reply as `error`; a body that does not render fails at once.
 */
export function drainOutbox(store: Store, opts: OutboxOptions, logger: Logger): Promise<number> {
  return workDue(store, 'email', 'queued', OUTBOX_ROUND, SEND_MS, logger, (email) => deliver(store, email, opts, logger));
}

/** The most emails one round sends; a round that sent as many may have left more due. */
export const OUTBOX_ROUND = 10;

async function deliver(store: Store, email: Comm, opts: OutboxOptions, logger: Logger): Promise<void> {
  const failed = { retry: 'queued', failed: 'failed', type: 'email' } as const;
  let route: Route | null;
  try {
    route = await routeFor(store, email, opts);
  } catch (error) {
    const unusable = unusableIntegration(error);
    // Anything else (the store failing) leaves the email claimed, to be tried when its lease ends.
    if (!unusable) throw error;
    // The integration cannot be used as stored: the email fails with why, instead of staying
    // queued with no word; a host that does not resolve now may resolve later, so that one retries.
    const policy = unusable.retry ? opts : { ...opts, maxAttempts: 1 };
    const status = await recordFailure(store, email, policy, { error: `not sent: the smtp integration cannot be used (${unusable.reason})` }, failed);
    logger.warn('outbox: the smtp integration cannot be used', { email_id: email.id, reason: unusable.reason, status });
    return;
  }
  const d = email.data as unknown as OutgoingMail & { from: string | null };
  if (!route) {
    await recordFailure(store, email, { ...opts, maxAttempts: 1 }, { error: 'no SMTP relay or smtp integration is available any more' }, failed);
    return;
  }
  const from = route.from ?? d.from ?? 'crm@localhost';
  const outcome = await sendMail(route.url, { ...d, from }, route.options);
  if (outcome.ok) {
    // A refusal, or null: an earlier failed try's error no longer holds once the mail is out.
    const error = refusal(outcome.refused ?? [], d);
    const before = (email.data.error as string | undefined) ?? null;
    const event = systemEvent('email', email, email.status, 'sent');
    // The From it went out with, which an integration's `from` sets (and may have changed since it was queued).
    await store.updateComm(email.workspace_id, 'email', email.id, {
      status: 'sent', attempts: email.attempts + 1, next_attempt_at: null,
      data: { ...email.data, from, sent_at: new Date().toISOString(), server_reply: outcome.reply, error },
    }, [error === before ? event : { ...event, diff: { ...event.diff, error: { before, after: error } } }]);
    if (error) logger.warn('outbox: some recipients were refused', { email_id: email.id, error });
    return;
  }
  const policy = outcome.permanent ? { ...opts, maxAttempts: 1 } : opts;
  const status = await recordFailure(store, email, policy, { error: outcome.reply }, { retry: 'queued', failed: 'failed', type: 'email' });
  logger.warn('outbox: delivery attempt failed', { email_id: email.id, attempt: email.attempts + 1, status, reply: outcome.reply });
}

/**
 * A sent email that did not reach everyone says so: the refused recipients, each with the server's
 * reply. Nothing is retried, since the others already have it; null when the server took them all.
 */
function refusal(refused: RefusedRecipient[], mail: OutgoingMail): string | null {
  if (!refused.length) return null;
  const total = mail.to.length + mail.cc.length + mail.bcc.length;
  return `not delivered to ${refused.length} of ${total} recipients (the server refused them; the others got it): `
    + refused.map((r) => `${r.address}: ${r.reply}`).join('; ');
}

/** Where an email goes: the relay by its URL, or a workspace's server by its checked options (the URL kept for masking). */
type Route = { url: string; from: string | null; options?: SmtpTransportOptions };

/**
 * Why a stored smtp integration cannot be used, for the email's error, when it is one of the
 * known reasons: its secret does not decrypt (a SECRETS_KEY change), or its URL is refused
 * (`retry` when only its host does not resolve, which may pass). Null for any other failure.
 */
function unusableIntegration(error: unknown): { reason: string; retry: boolean } | null {
  if (!(error instanceof CrmError)) return null;
  const rule = error.details?.rule;
  if (error.code === 'validation_error' && (rule === 'secret_unreadable' || rule === 'format' || rule === 'private_network' || rule === 'unresolvable')) {
    return { reason: error.message, retry: rule === 'unresolvable' };
  }
  return null;
}

/**
 * The server relay, else the workspace's connected smtp integration (its URL decrypted only here,
 * and its host checked again, since DNS can change after connect). Throws when the integration
 * cannot be used as stored.
 */
async function routeFor(store: Store, email: Comm, opts: OutboxOptions): Promise<Route | null> {
  if (opts.smtpUrl) return { url: opts.smtpUrl, from: null };
  const integration = (await store.listComms(email.workspace_id, { kind: 'integration', tag: 'smtp', status: ['connected'], offset: 0, limit: 1 })).items[0];
  if (!integration || !opts.secretsKey) return null;
  const data = integration.data as { config: { from: string }; secrets: { url: string } };
  let url: string;
  try {
    url = decryptSecret(opts.secretsKey, data.secrets.url, integration.id);
  } catch (error) {
    if (!(error instanceof CrmError)) throw error;
    throw new CrmError('validation_error', `${error.message}; connect the integration again`, { param: 'config.url', rule: 'secret_unreadable' });
  }
  const checked = await checkSmtpUrl(url, 'config.url', opts.allowPrivateNetworks);
  return { url, from: data.config.from, options: smtpTransportOptions(checked) };
}
