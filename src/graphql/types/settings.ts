import type { ApiKeyView } from '../../domain/services/workspace-settings.ts';
import type { User, Workspace } from '../../domain/types.ts';
import { builder } from '../builder.ts';

/**
 * Workspace settings (members, API keys, plan): Owner-only queries and mutations. They are not
 * tools; the web console and internal teams reach them here, the CLI through the same domain
 * functions. Admin and Member keys get `permission_denied` from the `owner` auth scope.
 */

const WorkspaceRef = builder.objectRef<Workspace>('WorkspaceSettings').implement({
  fields: (t) => ({
    id: t.exposeString('id'), name: t.exposeString('name'), plan: t.exposeString('plan', { nullable: true }),
    trial_ends_at: t.exposeString('trial_ends_at', { nullable: true }), created_at: t.exposeString('created_at'),
  }),
});
const MemberRef = builder.objectRef<User>('Member').implement({
  fields: (t) => ({
    id: t.exposeString('id'), email: t.exposeString('email'), name: t.exposeString('name', { nullable: true }),
    role: t.exposeString('role'), created_at: t.exposeString('created_at'),
  }),
});
const ApiKeyRef = builder.objectRef<ApiKeyView>('ApiKey').implement({
  description: 'An API key as listed: never its value or hash. Empty scopes mean every tool.',
  fields: (t) => ({
    key_id: t.exposeString('key_id'), name: t.exposeString('name'), scopes: t.exposeStringList('scopes'),
    last_four: t.exposeString('last_four'), user_id: t.exposeString('user_id'), user_email: t.exposeString('user_email', { nullable: true }),
    created_at: t.exposeString('created_at'), last_used_at: t.exposeString('last_used_at', { nullable: true }),
    revoked_at: t.exposeString('revoked_at', { nullable: true }),
  }),
});
const CreatedKeyRef = builder.objectRef<{ key: string; api_key_view: ApiKeyView }>('CreatedApiKey').implement({
  description: 'A new key. `key` is its value, shown this once and never again.',
  fields: (t) => ({ key: t.exposeString('key'), api_key: t.field({ type: ApiKeyRef, resolve: (c) => c.api_key_view }) }),
});
const SettingsRef = builder.objectRef<Record<string, never>>('Settings').implement({
  fields: (t) => ({
    workspace: t.field({ type: WorkspaceRef, resolve: (_s, _a, ctx) => ctx.services.settings.workspace() }),
    members: t.field({ type: [MemberRef], resolve: (_s, _a, ctx) => ctx.services.settings.members() }),
    api_keys: t.field({ type: [ApiKeyRef], resolve: (_s, _a, ctx) => ctx.services.settings.apiKeys() }),
  }),
});

builder.queryFields((t) => ({
  settings: t.field({ type: SettingsRef, authScopes: { owner: true }, description: 'Workspace settings; Owner only.', resolve: () => ({}) }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedKeyRef, authScopes: { owner: true },
    args: { name: t.arg.string({ required: true }), scopes: t.arg.stringList({ required: true }), user_id: t.arg.string() },
    resolve: (_r, a, ctx) => ctx.services.settings.createApiKey(a, ctx.keyPrefix),
  }),
  revokeApiKey: t.field({
    type: ApiKeyRef, authScopes: { owner: true }, args: { key_id: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => ctx.services.settings.revokeApiKey(a.key_id),
  }),
  addMember: t.field({
    type: MemberRef, authScopes: { owner: true },
    args: { email: t.arg.string({ required: true }), name: t.arg.string(), role: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => ctx.services.settings.addMember(a),
  }),
  setMemberRole: t.field({
    type: MemberRef, authScopes: { owner: true },
    args: { user_id: t.arg.string({ required: true }), role: t.arg.string({ required: true }) },
    resolve: (_r, a, ctx) => ctx.services.settings.setMemberRole(a.user_id, a.role),
  }),
  setPlan: t.field({
    type: WorkspaceRef, authScopes: { owner: true },
    args: { plan: t.arg.string(), trial_ends_at: t.arg.string() },
    resolve: (_r, a, ctx) => ctx.services.settings.setPlan({
      ...(a.plan !== undefined ? { plan: a.plan ?? null } : {}),
      ...(a.trial_ends_at !== undefined ? { trial_ends_at: a.trial_ends_at || null } : {}),
    }),
  }),
}));
