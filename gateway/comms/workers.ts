import type { Store } from '../../src/domain/store/port.ts';
import { parseSecretsKey } from '../../src/domain/comms/settings.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { OUTBOX_ROUND, drainOutbox } from './outbox.ts';
import { DELIVERY_ROUND, dispatchEvents, sendDeliveries } from './webhooks.ts';

export interface CommsWorkers {
  /** Runs one round now (tests call it to avoid waiting for the poll). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The in-process workers for outbound traffic: the email outbox and the webhook dispatcher and
 * sender. One loop polls the store every `COMMS_POLL_MS`; rounds never overlap, and `stop` waits
 * for the round in flight. A round that did as much as a round may (OUTBOX_ROUND emails,
 * DELIVERY_ROUND deliveries, a whole batch of some webhook's events) is followed by another at
 * once rather than at the next poll, so a backlog drains as fast as the receivers answer, not 20
 * deliveries a poll. Work lives in the store, so several replicas can run these loops: each item
 * is claimed with a lease before it is sent.
 */
export function startCommsWorkers(store: Store, config: Config, logger: Logger): CommsWorkers {
  const secretsKey = config.secretsKey ? parseSecretsKey(config.secretsKey) : null;
  const policy = { baseMs: config.comms.retryBaseMs, maxAttempts: config.comms.maxAttempts };
  const hooks = { ...policy, secretsKey, allowPrivateNetworks: config.comms.allowPrivateNetworks, settleMs: store.kind === 'neo4j' ? 5000 : 0,
    timeoutMs: config.comms.webhookTimeoutMs };
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let again: NodeJS.Timeout | null = null;

  /** One round; true when it may have left due work behind. */
  const round = async (): Promise<boolean> => {
    try {
      const emailed = await drainOutbox(store, { ...policy, smtpUrl: config.smtpUrl, secretsKey, allowPrivateNetworks: config.comms.allowPrivateNetworks }, logger);
      const dispatched = await dispatchEvents(store, hooks);
      const posted = await sendDeliveries(store, hooks, logger);
      return emailed >= OUTBOX_ROUND || dispatched.behind || posted >= DELIVERY_ROUND;
    } catch (error) {
      logger.error('comms workers: round failed', { error: String((error as Error).message) });
      return false;
    }
  };
  const tick = () => {
    running = running.then(async () => {
      if (!(await round()) || stopped || again) return;
      // A macrotask, so calls waiting on the event loop run between two rounds.
      again = setTimeout(() => {
        again = null;
        if (!stopped) void tick();
      }, 0);
      again.unref();
    });
    return running;
  };
  const timer = setInterval(() => {
    if (!stopped) void tick();
  }, config.comms.pollMs);
  timer.unref();
  return {
    tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (again) clearTimeout(again);
      again = null;
      await running;
    },
  };
}
