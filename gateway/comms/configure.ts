import { configureComms, parseSecretsKey } from '../../src/domain/comms/settings.ts';
import type { Store } from '../../src/domain/store/port.ts';
import type { Config } from '../config.ts';

/** Tells the communication tools what this deployment offers (relay, secrets key, support address). */
export function configureCommsFor(store: Store, config: Config): void {
  configureComms(store, {
    smtpConfigured: config.smtpUrl !== undefined,
    secretsKey: config.secretsKey ? parseSecretsKey(config.secretsKey) : null,
    supportEmail: config.supportEmail ?? null,
    allowPrivateNetworks: config.comms.allowPrivateNetworks,
  });
}
