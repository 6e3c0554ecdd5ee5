import { notFound } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { ApiKey, Role, User, Workspace } from '../../domain/types.ts';
import type { NewApiKey, NewUser, NewWorkspace, WorkspacePatch } from '../../domain/store/port.ts';
import { assignments, insertSql, type Connection } from './connection.ts';
import { guard } from './errors.ts';
import { insertObjectType, objectTypeCache } from './object-types.ts';
import {
  API_KEY_COLUMNS, now, USER_COLUMNS, WORKSPACE_COLUMNS, toApiKey, type ApiKeyRow, type UserRow, type WorkspaceRow,
} from './rows.ts';

/** Row writers: each writes the entity as given (create and load alike). */
export function insertWorkspaceRow(c: Connection, ws: Workspace): void {
  c.run(insertSql('workspaces', WORKSPACE_COLUMNS), ws.id, ws.name, ws.plan, ws.trial_ends_at, ws.created_at, ws.updated_at);
}

export function insertUserRow(c: Connection, user: User): void {
  guard(() => c.run(
    insertSql('users', USER_COLUMNS), user.id, user.workspace_id, user.email, user.name, user.role, user.created_at,
  ), { email: user.email });
}

export function insertApiKeyRow(c: Connection, key: ApiKey): void {
  c.run(
    insertSql('api_keys', API_KEY_COLUMNS), key.id, key.workspace_id, key.user_id, key.name, JSON.stringify(key.scopes), key.hash,
    key.last_four, key.created_at, key.last_used_at, key.revoked_at,
  );
}

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
        insertWorkspaceRow(c, { id, name: input.name, plan: input.plan ?? null, trial_ends_at: input.trial_ends_at ?? null, created_at: at, updated_at: at });
        for (const objectType of input.objectTypes) insertObjectType(c, id, objectType, at);
        objectTypeCache(c).invalidate();
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
        insertUserRow(c, { id, workspace_id: input.workspace_id, email: input.email, name: input.name ?? null, role: input.role, created_at: now() });
        return user(input.workspace_id, id)!;
      });
    },

    getUser(workspaceId: string, userId: string): User | null {
      return user(workspaceId, userId) ?? null;
    },

    listUsers(workspaceId: string): User[] {
      return c.all<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE workspace_id = ? ORDER BY created_at, rowid`, workspaceId);
    },

    getUsers(workspaceId: string, userIds: readonly string[]): User[] {
      if (userIds.length === 0) return [];
      return c.all<UserRow>(
        `SELECT ${USER_COLUMNS} FROM users WHERE workspace_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY created_at, rowid`,
        workspaceId, JSON.stringify(userIds),
      );
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
        insertApiKeyRow(c, { ...input, id, created_at: now(), last_used_at: null, revoked_at: null });
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
