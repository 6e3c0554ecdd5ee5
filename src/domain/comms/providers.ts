/**
 * The integration providers a workspace can connect, and the config each needs. Fields marked
 * `secret` are encrypted at rest and never returned; the others are shown back as given.
 */
export interface ProviderField {
  name: string;
  required: boolean;
  secret: boolean;
  description: string;
}

export interface Provider {
  provider: string;
  description: string;
  config: ProviderField[];
}

export const PROVIDERS: readonly Provider[] = Object.freeze([
  {
    provider: 'webhook',
    description: 'POSTs each matching timeline event as JSON to a URL, signed with HMAC-SHA256 (header CRM-Signature: t=<unix seconds>,v1=<hex of HMAC(secret, "<t>.<body>")>), retried with backoff.',
    config: [
      { name: 'url', required: true, secret: false, description: 'The https URL events are POSTed to.' },
      { name: 'events', required: true, secret: false, description: 'Event names "<resource_type>.<action>" (record.create, note.create, email.update, …) or "*" for all.' },
      { name: 'secret', required: true, secret: true, description: 'Shared secret for the signature; at least 16 characters.' },
    ],
  },
  {
    provider: 'smtp',
    description: 'Sends this workspace\'s emails through your own SMTP server, From its address, where the deployment has no relay of its own (SMTP_URL); where it has one, the relay sends them and this is not used. Its host must be at a public address.',
    config: [
      { name: 'url', required: true, secret: true, description: 'smtp://user:password@host:587 or smtps://user:password@host:465.' },
      { name: 'from', required: true, secret: false, description: 'The From address of emails sent through it.' },
    ],
  },
]);

export const PROVIDER_NAMES = PROVIDERS.map((p) => p.provider);
