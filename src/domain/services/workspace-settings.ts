import type { Actor } from '../actor.ts';
import { CrmError, notFound } from '../errors.ts';
import type { Store } from '../store/port.ts';
import type { ApiKey, Role, User, Workspace } from '../types.ts';
import { addUser, createKey, parseRole, parseScopes, requireWorkspace, setBilling, type CreatedKey } from './settings.ts';

/** A key as the settings page shows it: never the hash, with the owning member's email. */
export interface ApiKeyView extends Omit<ApiKey, 'hash'> {
  key_id: string;
  user_email: string | null;
}

/**
 * Workspace settings for the calling workspace (members, keys, plan), as the Owner-only GraphQL
 * fields serve them. Who may call is checked by the schema's `owner` auth scope; this service
 * keeps every read and write inside the actor's workspace.
 */
export class WorkspaceSettingsService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  workspace(): Promise<Workspace> {
    return requireWorkspace(this.store, this.actor.workspace_id);
  }

  members(): Promise<User[]> {
    return this.store.listUsers(this.actor.workspace_id);
  }

  async apiKeys(): Promise<ApiKeyView[]> {
    const [keys, users] = await Promise.all([this.store.listApiKeys(this.actor.workspace_id), this.members()]);
    const emails = new Map(users.map((u) => [u.id, u.email]));
    return keys.map((k) => view(k, emails.get(k.user_id) ?? null));
  }

  /** A key for `user_id` (default: the caller); the value is in the answer only. */
  async createApiKey(input: { name: string; scopes: readonly string[]; user_id?: string | null }, prefix: string): Promise<CreatedKey & { api_key_view: ApiKeyView }> {
    const scopes = parseScopes(input.scopes);
    const created = await createKey(this.store, {
      workspace_id: this.actor.workspace_id, user_id: input.user_id ?? this.actor.user_id, name: input.name, scopes, prefix,
    });
    const user = await this.store.getUser(this.actor.workspace_id, created.api_key.user_id);
    return { ...created, api_key_view: view(created.api_key, user?.email ?? null) };
  }

  async revokeApiKey(keyId: string): Promise<ApiKeyView> {
    // revokeApiKey is not workspace-scoped in the port: look the key up here first.
    const mine = (await this.store.listApiKeys(this.actor.workspace_id)).find((k) => k.id === keyId);
    if (!mine) throw notFound('api_key', keyId);
    const revoked = (await this.store.revokeApiKey(keyId))!;
    const user = await this.store.getUser(this.actor.workspace_id, revoked.user_id);
    return view(revoked, user?.email ?? null);
  }

  addMember(input: { email: string; name?: string | null; role: string }): Promise<User> {
    return addUser(this.store, { workspace_id: this.actor.workspace_id, email: input.email, name: input.name ?? null, role: parseRole(input.role) });
  }

  async setMemberRole(userId: string, roleName: string): Promise<User> {
    const role: Role = parseRole(roleName);
    const users = await this.members();
    const target = users.find((u) => u.id === userId);
    if (!target) throw notFound('user', userId);
    // A workspace without an Owner could never change its settings again.
    if (target.role === 'owner' && role !== 'owner' && users.filter((u) => u.role === 'owner').length === 1) {
      throw new CrmError('conflict', 'the workspace needs an owner: make another member owner first', { param: 'role', rule: 'last_owner' });
    }
    return this.store.updateUserRole(this.actor.workspace_id, userId, role);
  }

  setPlan(input: { plan?: string | null; trial_ends_at?: string | null }): Promise<Workspace> {
    return setBilling(this.store, { workspace_id: this.actor.workspace_id, ...input });
  }
}

function view(key: ApiKey, user_email: string | null): ApiKeyView {
  const { hash: _hash, ...rest } = key;
  return { ...rest, key_id: key.id, user_email };
}
