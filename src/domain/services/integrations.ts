import type { Comm } from '../store/port-comms.ts';
import { canWriteAll } from '../actor.ts';
import { isAddress } from '../comms/addresses.ts';
import { checkSmtpUrl, checkWebhookUrl } from '../comms/network.ts';
import { PROVIDERS, PROVIDER_NAMES, type Provider } from '../comms/providers.ts';
import { encryptSecret } from '../comms/secrets.ts';
import { commsSettings } from '../comms/settings.ts';
import { CrmError, validationError } from '../errors.ts';
import { newId, newMonotonicId } from '../ids.ts';
import { EVENT_ACTIONS, RESOURCE_TYPES } from '../types.ts';
import { created, eventFor } from './events.ts';
import { CommsBase } from './comms-base.ts';

const EVENT_NAMES = new Set(['*', ...RESOURCE_TYPES.flatMap((t) => EVENT_ACTIONS.map((a) => `${t}.${a}`))]);
const RECENT_DELIVERIES = 10;

export interface IntegrationView {
  integration_id: string;
  id: string;
  provider: string;
  status: string;
  /** The config as given, secrets replaced by "set". */
  config: Record<string, unknown>;
  created_at: string;
  deliveries?: DeliveryView[];
}

export interface DeliveryView {
  delivery_id: string;
  event: string;
  event_id: string;
  status: string;
  attempts: number;
  last_status: number | null;
  error: string | null;
  delivered_at: string | null;
  created_at: string;
}

function toView(c: Comm): IntegrationView {
  const d = c.data as { config: Record<string, unknown>; secrets: Record<string, string> };
  const secrets = Object.fromEntries(Object.keys(d.secrets ?? {}).map((k) => [k, 'set']));
  return { integration_id: c.id, id: c.id, provider: String(c.tag), status: c.status, config: { ...d.config, ...secrets }, created_at: c.created_at };
}

function toDelivery(c: Comm): DeliveryView {
  const d = c.data as Record<string, any>;
  return {
    delivery_id: c.id, event: d.event, event_id: d.event_id, status: c.status, attempts: c.attempts, last_status: d.last_status ?? null,
    error: d.error ?? null, delivered_at: d.delivered_at ?? null, created_at: c.created_at,
  };
}

/**
 * Integrations: connecting a provider stores its config with the secret fields encrypted
 * (AES-256-GCM, SECRETS_KEY); nothing returns or logs a secret. Only Owners and Admins connect
 * and disconnect; anyone with the scope may list.
 */
export class IntegrationService extends CommsBase {
  async list() {
    const { items } = await this.store.listComms(this.ws, { kind: 'integration', status: ['connected'], ascending: true, offset: 0, limit: 100 });
    const views = await Promise.all(items.map(async (c) => {
      const deliveries = c.tag === 'webhook'
        ? (await this.store.listComms(this.ws, { kind: 'delivery', tag: c.id, offset: 0, limit: RECENT_DELIVERIES })).items.map(toDelivery)
        : undefined;
      return { ...toView(c), ...(deliveries ? { deliveries } : {}) };
    }));
    return { providers: PROVIDERS, items: views };
  }

  async connect(input: { provider: string; config: Record<string, unknown> }): Promise<IntegrationView> {
    this.assertAdmin();
    const provider = PROVIDERS.find((p) => p.provider === input.provider);
    if (!provider) throw validationError('provider', `provider must be one of ${PROVIDER_NAMES.join(', ')}`, { rule: 'enum', allowed: PROVIDER_NAMES });
    const values = this.checkConfig(provider, input.config);
    // Before the settings' own checks, which may resolve a host: without a key none can be kept.
    const key = commsSettings(this.store).secretsKey;
    if (!key) {
      throw new CrmError('validation_error', `the ${provider.provider} provider needs a secret, and secrets cannot be stored: the server has no SECRETS_KEY (64 hex characters) configured`, {
        param: 'config', rule: 'secrets_key_missing',
      });
    }
    if (provider.provider === 'webhook') await this.checkWebhook(values);
    if (provider.provider === 'smtp') await checkSmtp(values, commsSettings(this.store).allowPrivateNetworks);
    const id = newId('integration');
    const config: Record<string, unknown> = {};
    const secrets: Record<string, string> = {};
    for (const field of provider.config) {
      if (values[field.name] === undefined) continue;
      if (field.secret) secrets[field.name] = encryptSecret(key, String(values[field.name]), id);
      else config[field.name] = values[field.name];
    }
    // Webhooks start after the events already written: the cursor is an event id of this instant.
    const data = { config, secrets, ...(provider.provider === 'webhook' ? { cursor: newMonotonicId('event') } : {}) };
    const integration = await this.store.createComm(this.ws, {
      id, kind: 'integration', status: 'connected', tag: provider.provider, thread_id: null, at: new Date().toISOString(), data, record_ids: [],
      next_attempt_at: null, created_by: this.actor.user_id,
    }, [eventFor(this.actor, 'create', 'integration', id, [], created({ provider: provider.provider, ...config }))]);
    return toView(integration);
  }

  async disconnect(integrationId: string): Promise<IntegrationView> {
    this.assertAdmin();
    const found = await this.store.getComm(this.ws, 'integration', integrationId);
    if (!found || found.status !== 'connected') {
      throw new CrmError('not_found', `integration_id ${JSON.stringify(integrationId)}: no such connected integration`, { param: 'integration_id', resource: 'integration', id: integrationId });
    }
    const at = new Date().toISOString();
    return toView(await this.store.updateComm(this.ws, 'integration', integrationId, { status: 'disconnected', deleted_at: at }, [
      eventFor(this.actor, 'delete', 'integration', integrationId, [], { status: { before: 'connected', after: 'disconnected' } }),
    ]));
  }

  private assertAdmin(): void {
    if (!canWriteAll(this.actor)) throw new CrmError('permission_denied', `the ${this.actor.role} role cannot manage integrations; an owner or admin can`, { role: this.actor.role });
  }

  private checkConfig(provider: Provider, config: Record<string, unknown>): Record<string, unknown> {
    const known = new Set(provider.config.map((f) => f.name));
    const unknown = Object.keys(config).find((k) => !known.has(k));
    if (unknown) throw validationError(`config.${unknown}`, `config.${unknown} is not a ${provider.provider} setting; expected ${[...known].join(', ')}`, { rule: 'unknown_parameter', allowed: [...known] });
    for (const field of provider.config) {
      if (field.required && (config[field.name] === undefined || config[field.name] === '')) {
        throw validationError(`config.${field.name}`, `config.${field.name} is required for ${provider.provider}: ${field.description}`, { rule: 'required' });
      }
    }
    return config;
  }

  private async checkWebhook(values: Record<string, unknown>): Promise<void> {
    if (typeof values.url !== 'string') throw validationError('config.url', 'config.url must be a string', { rule: 'type' });
    await checkWebhookUrl(values.url, 'config.url', commsSettings(this.store).allowPrivateNetworks);
    const events = values.events;
    if (!Array.isArray(events) || events.length === 0 || events.length > 100) {
      throw validationError('config.events', 'config.events must be 1 to 100 event names such as "record.create", or ["*"]', { rule: 'type' });
    }
    events.forEach((e, i) => {
      if (typeof e !== 'string' || !EVENT_NAMES.has(e)) {
        throw validationError(`config.events[${i}]`, `config.events[${i}]: ${JSON.stringify(e)} is not an event name ("<resource_type>.<action>" or "*")`, { rule: 'enum' });
      }
    });
    if (typeof values.secret !== 'string' || values.secret.length < 16 || values.secret.length > 256) {
      throw validationError('config.secret', 'config.secret must be a string of 16 to 256 characters', { rule: 'length' });
    }
  }
}

async function checkSmtp(values: Record<string, unknown>, allowPrivate: boolean): Promise<void> {
  if (typeof values.url !== 'string') throw validationError('config.url', 'config.url must be a string such as smtp://user:password@host:587', { rule: 'type' });
  await checkSmtpUrl(values.url, 'config.url', allowPrivate);
  if (typeof values.from !== 'string' || !isAddress(values.from)) throw validationError('config.from', 'config.from must be an email address', { rule: 'format' });
}
