import { notFound } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { ApiKey, Role, User, Workspace } from '../../domain/types.ts';
import type { NewApiKey, NewUser, NewWorkspace, WorkspacePatch } from '../port.ts';
import { assignments, type Connection } from './connection.ts';
import { guard } from './errors.ts';
import { insertObjectType } from './object-types.ts';
import {
  API_KEY_COLUMNS, now, USER_COLUMNS, WORKSPACE_COLUMNS, toApiKey, type ApiKeyRow, type UserRow, type WorkspaceRow,
} from './rows.ts';

/** Synchronous workspace, member and API key methods of the Store (workspace settings). */
export function settingsMethods(c: Connection) {
  const workspace = (id: string) => c.get<WorkspaceRow>(`SELECT ${WORKSPACE_COLUMNS} FROM workspaces WHERE id = ?`, id);
  const user = (workspaceId: string, id: string) =>
    c.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE workspace_id = ? AND id = ?`, workspaceId, id);
  const apiKey = (id: string) => c.get<ApiKeyRow>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE id = ?`, id);

  return {
    createWorkspace(input: NewWorkspace): Workspace {
      return c.tx(() => {
        const id = newId('workspace');
        const at = now();
        c.run(
          `INSERT INTO workspaces (${WORKSPACE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`,
          id, input.name, input.plan ?? null, input.trial_ends_at ?? null, at, at,
        );
        for (const objectType of input.objectTypes) insertObjectType(c, id, objectType, at);
        return workspace(id)!;
      });
    },

    getWorkspace(id: string): Workspace | null {
      return workspace(id) ?? null;
    },

    listWorkspaces(): Workspace[] {
      return c.all<WorkspaceRow>(`SELECT ${WORKSPACE_COLUMNS} FROM workspaces ORDER BY created_at, rowid`);
    },

    updateWorkspace(id: string, patch: WorkspacePatch): Workspace {
      const set = assignments({ name: patch.name, plan: patch.plan, trial_ends_at: patch.trial_ends_at, updated_at: now() });
      const { changes } = c.run(`UPDATE workspaces SET ${set.sql.join(', ')} WHERE id = ?`, ...set.params, id);
      if (changes === 0) throw notFound('workspace', id);
      return workspace(id)!;
    },

    createUser(input: NewUser): User {
      return c.tx(() => {
        if (!workspace(input.workspace_id)) throw notFound('workspace', input.workspace_id);
        const id = newId('user');
        guard(() => c.run(
          `INSERT INTO users (${USER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)`,
          id, input.workspace_id, input.email, input.name ?? null, input.role, now(),
        ), { email: input.email });
        return user(input.workspace_id, id)!;
      });
    },

    getUser(workspaceId: string, userId: string): User | null {
      return user(workspaceId, userId) ?? null;
    },

    listUsers(workspaceId: string): User[] {
      return c.all<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE workspace_id = ? ORDER BY created_at, rowid`, workspaceId);
    },

    updateUserRole(workspaceId: string, userId: string, role: Role): User {
      const { changes } = c.run('UPDATE users SET role = ? WHERE workspace_id = ? AND id = ?', role, workspaceId, userId);
      if (changes === 0) throw notFound('user', userId);
      return user(workspaceId, userId)!;
    },

    createApiKey(input: NewApiKey): ApiKey {
      return c.tx(() => {
        // The key acts as its user, so the user must be a member of the key's workspace.
        if (!user(input.workspace_id, input.user_id)) throw notFound('user', input.user_id);
        const id = newId('apiKey');
        c.run(
          `INSERT INTO api_keys (id, workspace_id, user_id, name, scopes, hash, last_four, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          id, input.workspace_id, input.user_id, input.name, JSON.stringify(input.scopes), input.hash, input.last_four, now(),
        );
        return toApiKey(apiKey(id)!);
      });
    },

    findApiKeyByHash(hash: string): ApiKey | null {
      const row = c.get<ApiKeyRow>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE hash = ?`, hash);
      return row ? toApiKey(row) : null;
    },

    listApiKeys(workspaceId: string): ApiKey[] {
      return c.all<ApiKeyRow>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE workspace_id = ? ORDER BY created_at, rowid`, workspaceId)
        .map(toApiKey);
    },

    revokeApiKey(keyId: string): ApiKey | null {
      c.run('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?', now(), keyId);
      const row = apiKey(keyId);
      return row ? toApiKey(row) : null;
    },

    touchApiKey(keyId: string, at: string): void {
      c.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', at, keyId);
    },
  };
}
