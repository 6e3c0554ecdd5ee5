import type { Store } from '../../src/domain/store/port.ts';
import { parseSecretsKey } from '../../src/domain/comms/settings.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { drainOutbox } from './outbox.ts';
import { dispatchEvents, sendDeliveries } from './webhooks.ts';

export interface CommsWorkers {
  /** Runs one round now (tests call it to avoid waiting for the poll). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The in-process workers for outbound traffic: the email outbox and the webhook dispatcher and
 * sender. One loop polls the store every `COMMS_POLL_MS`; rounds never overlap, and `stop` waits
 * for the round in flight. Work lives in the store, so several replicas can run these loops: each
 * item is claimed with a lease before it is sent.
 */
export function startCommsWorkers(store: Store, config: Config, logger: Logger): CommsWorkers {
  const secretsKey = config.secretsKey ? parseSecretsKey(config.secretsKey) : null;
  const policy = { baseMs: config.comms.retryBaseMs, maxAttempts: config.comms.maxAttempts };
  const hooks = { ...policy, secretsKey, allowPrivateNetworks: config.comms.allowPrivateNetworks, settleMs: store.kind === 'neo4j' ? 5000 : 0,
    timeoutMs: config.comms.webhookTimeoutMs };
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const round = async () => {
    try {
      await drainOutbox(store, { ...policy, smtpUrl: config.smtpUrl, secretsKey, allowPrivateNetworks: config.comms.allowPrivateNetworks }, logger);
      await dispatchEvents(store, hooks);
      await sendDeliveries(store, hooks, logger);
    } catch (error) {
      logger.error('comms workers: round failed', { error: String((error as Error).message) });
    }
  };
  const tick = () => {
    running = running.then(round);
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
      await running;
    },
  };
}
