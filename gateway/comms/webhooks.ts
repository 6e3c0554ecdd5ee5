import { createHmac } from 'node:crypto';
import { checkWebhookUrl } from '../../src/domain/comms/network.ts';
import { decryptSecret } from '../../src/domain/comms/secrets.ts';
import { newMonotonicId } from '../../src/domain/ids.ts';
import type { Store } from '../../src/domain/store/port.ts';
import type { Comm, NewComm } from '../../src/domain/store/port-comms.ts';
import type { TimelineEvent } from '../../src/domain/types.ts';
import type { Logger } from '../logger.ts';
import { recordFailure, workDue, type RetryPolicy } from './retry.ts';

export interface WebhookOptions extends RetryPolicy {
  secretsKey: Buffer | null;
  allowPrivateNetworks: boolean;
  /**
   * Events younger than this are left for the next round: a transaction that took its event id
   * earlier but committed later (concurrent writers on Neo4j) is then still picked up.
   */
  settleMs: number;
  /** How long a receiver may take to answer before the try counts as failed. */
  timeoutMs?: number;
}

const BATCH = 100;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, the CRM-Signature header. */
export function signature(secret: string, body: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

const nameOf = (e: TimelineEvent): string => `${e.resource_type}.${e.action}`;

/**
 * Turns new timeline events into deliveries. Each webhook keeps a cursor (the last event id it
 * has seen) in its config row; the deliveries and the moved cursor are written in one
 * transaction, so every committed event becomes exactly one delivery per matching webhook, across
 * restarts too. Only events at least `settleMs` old are taken (see WebhookOptions). `behind`: some
 * webhook read a whole batch of events, so more may be waiting.
 */
export async function dispatchEvents(store: Store, opts: WebhookOptions): Promise<{ made: number; behind: boolean }> {
  let made = 0;
  let behind = false;
  const settled = Date.now() - opts.settleMs;
  for (const hook of await store.listCommsEverywhere('integration', 'connected', 'webhook')) {
    const data = hook.data as { cursor: string; config: { events: string[] } };
    const events = (await store.eventsAfter(hook.workspace_id, data.cursor, BATCH));
    const ready: TimelineEvent[] = [];
    for (const e of events) {
      if (Date.parse(e.at) > settled) break;
      ready.push(e);
    }
    if (ready.length === 0) continue;
    // A whole batch taken: more may wait. Not when some were too young to take, which the next
    // rounds would only read again until they settle.
    if (ready.length === BATCH) behind = true;
    const wanted = new Set(data.config.events);
    const deliveries: NewComm[] = ready.filter((e) => wanted.has('*') || wanted.has(nameOf(e))).map((e) => {
      const id = newMonotonicId('delivery');
      const body = JSON.stringify({
        delivery_id: id, event: nameOf(e), occurred_at: e.at, workspace_id: e.workspace_id,
        data: { event_id: e.id, resource_type: e.resource_type, resource_id: e.resource_id, action: e.action, record_ids: e.record_ids, diff: e.diff, actor_id: e.actor_id, via: e.via, tool: e.tool },
      });
      return { id, kind: 'delivery', status: 'pending', tag: hook.id, thread_id: null, at: e.at, data: { event: nameOf(e), event_id: e.id, body }, record_ids: [], next_attempt_at: new Date().toISOString(), created_by: null };
    });
    await store.recordDispatch(hook.workspace_id, hook.id, ready[ready.length - 1]!.id, deliveries);
    made += deliveries.length;
  }
  return { made, behind };
}

/** POSTs due deliveries; 2xx is `delivered`, anything else (or a timeout) is retried with backoff, then `failed`. */
export function sendDeliveries(store: Store, opts: WebhookOptions, logger: Logger): Promise<number> {
  return workDue(store, 'delivery', 'pending', DELIVERY_ROUND, opts.timeoutMs ?? 10_000, logger, (delivery) => post(store, delivery, opts, logger), true);
}

/** The most deliveries one round posts; a round that posted as many may have left more due. */
export const DELIVERY_ROUND = 20;

async function post(store: Store, delivery: Comm, opts: WebhookOptions, logger: Logger): Promise<void> {
  const hook = await store.getComm(delivery.workspace_id, 'integration', delivery.tag ?? '');
  const retry = { retry: 'pending', failed: 'failed' };
  if (!hook || hook.status !== 'connected' || !opts.secretsKey) {
    await recordFailure(store, delivery, { ...opts, maxAttempts: 1 }, { error: 'the webhook was disconnected' }, retry);
    return;
  }
  const data = hook.data as { config: { url: string }; secrets: { secret: string } };
  const body = String((delivery.data as { body: string }).body);
  let outcome: { status: number | null; error: string | null };
  try {
    const url = await checkWebhookUrl(data.config.url, 'config.url', opts.allowPrivateNetworks);
    const secret = decryptSecret(opts.secretsKey, data.secrets.secret, hook.id);
    const res = await fetch(url, {
      method: 'POST', redirect: 'manual', signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
      headers: {
        'Content-Type': 'application/json', 'User-Agent': 'crm-tool-service-webhooks', 'CRM-Delivery-Id': delivery.id,
        'CRM-Event': String((delivery.data as { event: string }).event), 'CRM-Signature': signature(secret, body, Math.floor(Date.now() / 1000)),
      },
      body,
    });
    await res.body?.cancel();
    outcome = { status: res.status, error: res.ok ? null : `the receiver answered HTTP ${res.status}` };
  } catch (error) {
    outcome = { status: null, error: (error as Error).name === 'TimeoutError' ? 'the receiver did not answer in time' : `could not deliver: ${(error as Error).message}` };
  }
  if (outcome.error === null) {
    await store.updateComm(delivery.workspace_id, 'delivery', delivery.id, {
      status: 'delivered', attempts: delivery.attempts + 1, next_attempt_at: null,
      data: { ...delivery.data, last_status: outcome.status, error: null, delivered_at: new Date().toISOString() },
    });
    return;
  }
  const status = await recordFailure(store, delivery, opts, { last_status: outcome.status, error: outcome.error }, retry);
  logger.warn('webhooks: delivery attempt failed', { delivery_id: delivery.id, attempt: delivery.attempts + 1, status, error: outcome.error });
}
