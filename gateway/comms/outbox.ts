import { checkSmtpUrl } from '../../src/domain/comms/network.ts';
import { decryptSecret } from '../../src/domain/comms/secrets.ts';
import { CrmError } from '../../src/domain/errors.ts';
import type { Store } from '../../src/domain/store/port.ts';
import type { Comm } from '../../src/domain/store/port-comms.ts';
import type { Logger } from '../logger.ts';
import { SEND_MS, sendMail, type OutgoingMail, type RefusedRecipient } from './mail.ts';
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
  return workDue(store, 'email', 'queued', 10, SEND_MS, logger, (email) => deliver(store, email, opts, logger));
}

async function deliver(store: Store, email: Comm, opts: OutboxOptions, logger: Logger): Promise<void> {
  const failed = { retry: 'queued', failed: 'failed', type: 'email' } as const;
  let route: Route | null;
  try {
    route = await routeFor(store, email, opts);
  } catch (error) {
    // The integration cannot be used as stored (its secret does not decrypt, its host is refused):
    // the email fails with why, instead of staying queued with no word.
    const reason = error instanceof CrmError ? error.message : String((error as Error).message);
    await recordFailure(store, email, { ...opts, maxAttempts: 1 }, { error: `not sent: the smtp integration cannot be used (${reason})` }, failed);
    logger.warn('outbox: the smtp integration cannot be used', { email_id: email.id, reason });
    return;
  }
  const d = email.data as unknown as OutgoingMail & { from: string | null };
  if (!route) {
    await recordFailure(store, email, { ...opts, maxAttempts: 1 }, { error: 'no SMTP relay or smtp integration is available any more' }, failed);
    return;
  }
  const from = route.from ?? d.from ?? 'crm@localhost';
  const outcome = await sendMail(route.url, { ...d, from });
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

type Route = { url: string; from: string | null };

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
  const url = decryptSecret(opts.secretsKey, data.secrets.url, integration.id);
  await checkSmtpUrl(url, 'config.url', opts.allowPrivateNetworks);
  return { url, from: data.config.from };
}
