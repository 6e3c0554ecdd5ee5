import { LIMITS } from '../../src/domain/limits.ts';
import { z } from 'zod';
import { PROVIDER_NAMES } from '../../src/domain/comms/providers.ts';
import { TICKET_PRIORITIES } from '../../src/domain/services/billing.ts';
import { CREATES, DELETES, defineTool, given, pick, READ_ONLY } from './define.ts';

/** integrations.*, billing.get and support.create_ticket. */

const deliveryOutput = z.object({
  delivery_id: z.string(), event: z.string(), event_id: z.string(), status: z.string(), attempts: z.number().int(), last_status: z.number().int().nullable(),
  error: z.string().nullable(), delivered_at: z.string().nullable(), created_at: z.string(),
});
const integrationOutput = z.object({
  integration_id: z.string(), id: z.string(), provider: z.string(), status: z.string(),
  config: z.record(z.string(), z.unknown()).describe('The config as given; secret fields read "set".'), created_at: z.string(),
  deliveries: z.array(deliveryOutput).nullable(),
});
const INTEGRATION = 'integration_id id provider status config created_at deliveries { delivery_id event event_id status attempts last_status error delivered_at created_at }';

const billingOutput = z.object({
  plan: z.string(), status: z.enum(['trialing', 'active', 'expired']), trial_ends_at: z.string().nullable(),
  usage: z.object({
    period_start: z.string(), records: z.number().int(),
    calls_by_style: z.object({ rest: z.number().int(), bridge: z.number().int(), mcp: z.number().int(), graphql: z.number().int() }),
  }),
});

export const integrationTools = [
  defineTool({
    name: 'integrations.list',
    scope: 'integrations',
    title: 'List integrations',
    description: 'Lists the providers that can be connected (with the config each needs, secret fields marked) and this workspace\'s connections, each webhook with its recent deliveries. Secrets are never shown.',
    input: z.strictObject({}),
    output: z.object({
      providers: z.array(z.object({
        provider: z.string(), description: z.string(),
        config: z.array(z.object({ name: z.string(), required: z.boolean(), secret: z.boolean(), description: z.string() })),
      })),
      items: z.array(integrationOutput),
    }),
    annotations: READ_ONLY,
    operation: {
      document: `query { integrations { providers { provider description config { name required secret description } } items { ${INTEGRATION} } } }`,
      variables: () => ({}),
      result: pick('integrations'),
    },
  }),
  defineTool({
    name: 'integrations.connect',
    scope: 'integrations',
    title: 'Connect an integration',
    description: 'Connects a provider (owners and admins). webhook: {"url": "https://…", "events": ["record.create", "note.create"] or ["*"], "secret": "at least 16 characters"} — each matching timeline event is POSTed as JSON, signed in CRM-Signature. smtp: {"url": "smtp://user:pass@host:587", "from": "sales@example.com"} — emails go out through it unless the deployment has its own relay (integrations.list says which providers do what). Secrets are encrypted at rest and never returned.',
    input: z.strictObject({
      provider: z.enum(PROVIDER_NAMES as [string, ...string[]]).describe(`One of ${PROVIDER_NAMES.join(', ')}.`),
      config: z.record(z.string().max(LIMITS.keyMaxLength), z.unknown()).describe('The provider\'s settings; see integrations.list for each provider\'s fields.'),
    }),
    output: integrationOutput,
    annotations: { ...CREATES, openWorldHint: true },
    operation: {
      document: `mutation($provider: String!, $config: JSON!) { connectIntegration(provider: $provider, config: $config) { ${INTEGRATION} } }`,
      variables: (i) => given(i),
      result: pick('connectIntegration'),
    },
  }),
  defineTool({
    name: 'integrations.disconnect',
    scope: 'integrations',
    title: 'Disconnect an integration',
    description: 'Disconnects an integration (owners and admins): webhooks stop, emails no longer go through it.',
    input: z.strictObject({ integration_id: z.string().min(1).max(LIMITS.idMaxLength).describe('Id of a connection, e.g. "int_01JD…".') }),
    output: integrationOutput,
    annotations: DELETES,
    operation: {
      document: `mutation($integration_id: String!) { disconnectIntegration(integration_id: $integration_id) { ${INTEGRATION} } }`,
      variables: (i) => i,
      result: pick('disconnectIntegration'),
    },
  }),
  defineTool({
    name: 'billing.get',
    scope: 'billing',
    title: 'Get billing state',
    description: 'The workspace\'s plan, subscription status (trialing, active or expired), trial end, and this month\'s usage: calls by call style and live records. Answers even when the trial has expired, so an agent can explain subscription_required errors.',
    input: z.strictObject({}),
    output: billingOutput,
    annotations: READ_ONLY,
    operation: {
      document: 'query { billing { plan status trial_ends_at usage { period_start records calls_by_style { rest bridge mcp graphql } } } }',
      variables: () => ({}),
      result: pick('billing'),
    },
  }),
  defineTool({
    name: 'support.create_ticket',
    scope: 'support',
    title: 'Open a support ticket',
    description: 'Opens a ticket with the service\'s support team (mailed to them when the deployment has a support address). Example: {"subject": "Import fails", "body": "crm import stops at…", "priority": "high"}.',
    input: z.strictObject({
      subject: z.string().min(1).max(200), body: z.string().min(1).max(20_000),
      priority: z.enum(TICKET_PRIORITIES).optional().describe('low, normal (default), high or urgent.'),
    }),
    output: z.object({
      ticket_id: z.string(), id: z.string(), status: z.literal('open'), priority: z.enum(TICKET_PRIORITIES), subject: z.string(),
      email_id: z.string().nullable(), created_at: z.string(),
    }),
    annotations: { ...CREATES, openWorldHint: true },
    operation: {
      document: `mutation($subject: String!, $body: String!, $priority: TicketPriority) {
        createSupportTicket(subject: $subject, body: $body, priority: $priority) { ticket_id id status priority subject email_id created_at } }`,
      variables: (i) => given(i),
      result: pick('createSupportTicket'),
    },
  }),
];
