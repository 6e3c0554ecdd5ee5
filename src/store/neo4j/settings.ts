import { notFound } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { ApiKey, Role, User, Workspace } from '../../domain/types.ts';
import type { NewApiKey, NewUser, NewWorkspace, WorkspacePatch } from '../../domain/store/port.ts';
import { emailTaken } from './conflicts.ts';
import type { Connection } from './connection.ts';
import * as Q from './cypher/settings.ts';
import { insertObjectType } from './object-types.ts';
import { props, toApiKey, toUser, toWorkspace } from './rows.ts';
import { now } from './stamps.ts';
import { bind } from './statement.ts';

/** Keeps the keys whose value is not undefined (undefined = unchanged; null clears). */
export function definedOnly(patch: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
}

/** Workspace, user and API key methods of the Store. */
export function settingsMethods(conn: Connection) {
  return {
    async createWorkspace(input: NewWorkspace): Promise<Workspace> {
      const id = newId('workspace');
      const at = now();
      return conn.write(async (tx) => {
        const row = await tx.first(bind(Q.CREATE_WORKSPACE, { id, name: input.name, plan: input.plan ?? null, trial_ends_at: input.trial_ends_at ?? null, now: at }));
        for (const type of input.objectTypes) await insertObjectType(tx, id, type, at);
        return toWorkspace(props(row, 'workspace')!);
      });
    },

    async getWorkspace(id: string): Promise<Workspace | null> {
      const row = await conn.read((tx) => tx.first(bind(Q.GET_WORKSPACE, { id })));
      const p = props(row, 'workspace');
      return p ? toWorkspace(p) : null;
    },

    async listWorkspaces(): Promise<Workspace[]> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.LIST_WORKSPACES, {})));
      return rows.map((row) => toWorkspace(props(row, 'workspace')!));
    },

    async updateWorkspace(id: string, patch: WorkspacePatch): Promise<Workspace> {
      const set = definedOnly({ name: patch.name, plan: patch.plan, trial_ends_at: patch.trial_ends_at });
      const p = props(await conn.write((tx) => tx.first(bind(Q.UPDATE_WORKSPACE, { id, patch: set, now: now() }))), 'workspace');
      if (!p) throw notFound('workspace', id);
      return toWorkspace(p);
    },

    async createUser(input: NewUser): Promise<User> {
      const params = {
        workspace_id: input.workspace_id, id: newId('user'), email: input.email, email_key: input.email.toLowerCase(),
        name: input.name ?? null, role: input.role, now: now(),
      };
      const p = props(await conn.write((tx) => tx.first(bind(Q.CREATE_USER, params)), () => emailTaken(input.email)), 'user');
      if (!p) throw notFound('workspace', input.workspace_id);
      return toUser(p);
    },

    async getUser(workspaceId: string, userId: string): Promise<User | null> {
      const p = props(await conn.read((tx) => tx.first(bind(Q.GET_USER, { workspace_id: workspaceId, id: userId }))), 'user');
      return p ? toUser(p) : null;
    },

    async listUsers(workspaceId: string): Promise<User[]> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.LIST_USERS, { workspace_id: workspaceId })));
      return rows.map((row) => toUser(props(row, 'user')!));
    },

    async getUsers(workspaceId: string, userIds: readonly string[]): Promise<User[]> {
      if (userIds.length === 0) return [];
      const rows = await conn.read((tx) => tx.rows(bind(Q.GET_USERS, { workspace_id: workspaceId, ids: [...userIds] })));
      return rows.map((row) => toUser(props(row, 'user')!));
    },

    async updateUserRole(workspaceId: string, userId: string, role: Role): Promise<User> {
      const p = props(await conn.write((tx) => tx.first(bind(Q.UPDATE_USER_ROLE, { workspace_id: workspaceId, id: userId, role }))), 'user');
      if (!p) throw notFound('user', userId);
      return toUser(p);
    },

    async createApiKey(input: NewApiKey): Promise<ApiKey> {
      const params = {
        workspace_id: input.workspace_id, user_id: input.user_id, id: newId('apiKey'), name: input.name,
        scopes: [...input.scopes], hash: input.hash, last_four: input.last_four, now: now(),
      };
      const p = props(await conn.write((tx) => tx.first(bind(Q.CREATE_API_KEY, params))), 'key');
      if (!p) throw notFound('user', input.user_id);
      return toApiKey(p);
    },

    async findApiKeyByHash(hash: string): Promise<ApiKey | null> {
      const p = props(await conn.read((tx) => tx.first(bind(Q.FIND_API_KEY_BY_HASH, { hash }))), 'key');
      return p ? toApiKey(p) : null;
    },

    async listApiKeys(workspaceId: string): Promise<ApiKey[]> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.LIST_API_KEYS, { workspace_id: workspaceId })));
      return rows.map((row) => toApiKey(props(row, 'key')!));
    },

    async revokeApiKey(keyId: string): Promise<ApiKey | null> {
      const p = props(await conn.write((tx) => tx.first(bind(Q.REVOKE_API_KEY, { id: keyId, now: now() }))), 'key');
      return p ? toApiKey(p) : null;
    },

    async touchApiKey(keyId: string, at: string): Promise<void> {
      await conn.write((tx) => tx.rows(bind(Q.TOUCH_API_KEY, { id: keyId, at })));
    },
  };
}
