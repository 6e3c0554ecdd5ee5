import type { DeliveryView, IntegrationView } from '../../domain/services/integrations.ts';
import { TICKET_PRIORITIES } from '../../domain/services/billing.ts';
import type { Provider, ProviderField } from '../../domain/comms/providers.ts';
import { builder } from '../builder.ts';

/** Integrations, billing and support: types, queries and mutations together. */

const FieldRef = builder.objectRef<ProviderField>('ProviderConfigField').implement({
  fields: (t) => ({ name: t.exposeString('name'), required: t.exposeBoolean('required'), secret: t.exposeBoolean('secret'), description: t.exposeString('description') }),
});
const ProviderRef = builder.objectRef<Provider>('IntegrationProvider').implement({
  fields: (t) => ({ provider: t.exposeString('provider'), description: t.exposeString('description'), config: t.expose('config', { type: [FieldRef] }) }),
});
const DeliveryRef = builder.objectRef<DeliveryView>('WebhookDelivery').implement({
  fields: (t) => ({
    delivery_id: t.exposeString('delivery_id'), event: t.exposeString('event'), event_id: t.exposeString('event_id'), status: t.exposeString('status'),
    attempts: t.exposeInt('attempts'), last_status: t.exposeInt('last_status', { nullable: true }), error: t.exposeString('error', { nullable: true }),
    delivered_at: t.exposeString('delivered_at', { nullable: true }), created_at: t.exposeString('created_at'),
  }),
});
const IntegrationRef = builder.objectRef<IntegrationView>('Integration').implement({
  description: 'A connected provider. Secret config fields show as "set"; their values are never returned.',
  fields: (t) => ({
    integration_id: t.exposeString('integration_id'), id: t.exposeString('id'), provider: t.exposeString('provider'), status: t.exposeString('status'),
    config: t.expose('config', { type: 'JSON' }), created_at: t.exposeString('created_at'),
    deliveries: t.field({ type: [DeliveryRef], nullable: true, resolve: (i) => i.deliveries ?? null }),
  }),
});
const IntegrationsRef = builder.objectRef<{ providers: readonly Provider[]; items: IntegrationView[] }>('Integrations').implement({
  fields: (t) => ({ providers: t.field({ type: [ProviderRef], resolve: (x) => [...x.providers] }), items: t.expose('items', { type: [IntegrationRef] }) }),
});

type Billing = Awaited<ReturnType<import('../../domain/services/billing.ts').BillingService['get']>>;
const CallsRef = builder.objectRef<Billing['usage']['calls_by_style']>('CallsByStyle').implement({
  fields: (t) => ({ rest: t.exposeInt('rest'), bridge: t.exposeInt('bridge'), mcp: t.exposeInt('mcp'), graphql: t.exposeInt('graphql') }),
});
const UsageRef = builder.objectRef<Billing['usage']>('Usage').implement({
  fields: (t) => ({ period_start: t.exposeString('period_start'), calls_by_style: t.expose('calls_by_style', { type: CallsRef }), records: t.exposeInt('records') }),
});
const BillingRef = builder.objectRef<Billing>('Billing').implement({
  fields: (t) => ({
    plan: t.exposeString('plan'), status: t.exposeString('status'), trial_ends_at: t.exposeString('trial_ends_at', { nullable: true }),
    usage: t.expose('usage', { type: UsageRef }),
  }),
});

const PriorityEnum = builder.enumType('TicketPriority', { values: TICKET_PRIORITIES });
type Ticket = Awaited<ReturnType<import('../../domain/services/billing.ts').BillingService['createTicket']>>;
const TicketRef = builder.objectRef<Ticket>('SupportTicket').implement({
  fields: (t) => ({
    ticket_id: t.exposeString('ticket_id'), id: t.exposeString('id'), status: t.exposeString('status'), subject: t.exposeString('subject'),
    priority: t.expose('priority', { type: PriorityEnum }), email_id: t.exposeString('email_id', { nullable: true }), created_at: t.exposeString('created_at'),
  }),
});

builder.queryFields((t) => ({
  integrations: t.field({ type: IntegrationsRef, authScopes: { tool: 'integrations' }, resolve: (_r, _a, ctx) => ctx.services.integrations.list() }),
  billing: t.field({ type: BillingRef, authScopes: { tool: 'billing' }, resolve: (_r, _a, ctx) => ctx.services.billing.get() }),
}));

builder.mutationFields((t) => ({
  connectIntegration: t.field({
    type: IntegrationRef, authScopes: { tool: 'integrations' },
    args: { provider: t.arg.string({ required: true }), config: t.arg({ type: 'JSON', required: true }) },
    resolve: (_r, a, ctx) => ctx.services.integrations.connect({ provider: a.provider, config: (a.config ?? {}) as Record<string, unknown> }),
  }),
  disconnectIntegration: t.field({
    type: IntegrationRef, authScopes: { tool: 'integrations' },
    args: { integration_id: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => ctx.services.integrations.disconnect(a.integration_id),
  }),
  createSupportTicket: t.field({
    type: TicketRef, authScopes: { tool: 'support' },
    args: { subject: t.arg.string({ required: true }), body: t.arg.string({ required: true }), priority: t.arg({ type: PriorityEnum }) },
    resolve: (_r, a, ctx) => ctx.services.billing.createTicket({ subject: a.subject, body: a.body, priority: a.priority ?? undefined }),
  }),
}));
