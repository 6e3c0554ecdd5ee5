import type { Store } from '../store/port.ts';

/**
 * What the communication tools need to know about the deployment: whether a server-wide SMTP
 * relay exists, the key that encrypts integration secrets, where support tickets go, and whether
 * webhooks may target private networks. The gateway registers them once per store at start-up
 * (`configureComms`); a store nobody configured gets the safe defaults (nothing outbound, no key).
 */
export interface CommsSettings {
  /** A server-wide SMTP relay (SMTP_URL) is configured. */
  smtpConfigured: boolean;
  /** The 32-byte AES-256-GCM key (SECRETS_KEY), or null: then secrets cannot be stored. */
  secretsKey: Buffer | null;
  /** Where support tickets are mailed (SUPPORT_EMAIL), or null. */
  supportEmail: string | null;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: webhooks may target loopback, private and link-local addresses. */
  allowPrivateNetworks: boolean;
}

export const DEFAULT_COMMS_SETTINGS: CommsSettings = Object.freeze({
  smtpConfigured: false, secretsKey: null, supportEmail: null, allowPrivateNetworks: false,
});

const byStore = new WeakMap<Store, CommsSettings>();

/** Registers the settings for one store (one running server, or one CLI process). */
export function configureComms(store: Store, settings: Partial<CommsSettings>): void {
  byStore.set(store, { ...DEFAULT_COMMS_SETTINGS, ...settings });
}

export function commsSettings(store: Store): CommsSettings {
  return byStore.get(store) ?? DEFAULT_COMMS_SETTINGS;
}

/** SECRETS_KEY as a key: exactly 64 hex characters (32 bytes), else null. */
export function parseSecretsKey(hex: string): Buffer | null {
  return /^[0-9a-fA-F]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : null;
}
