import { statement } from '../statement.ts';

/**
 * Workspaces, users and API keys: the workspace settings the CLI and Owners manage. `seq` numbers
 * nodes in creation order (within a workspace for users and keys), so lists made in the same
 * millisecond keep the order they were made in, as SQLite's rowid keeps it.
 *
 * A workspace being imported (`loadDump`, load.ts) carries `loading: true` until its last row is
 * written: the reads, the patch and adding a member pass it by, so nobody sees, signs in to or
 * changes half of it.
 */

export const WORKSPACE = 'w {.id, .name, .plan, .trial_ends_at, .created_at, .updated_at}';
export const USER = 'u {.id, .workspace_id, .email, .name, .role, .created_at}';
export const API_KEY = 'k {.id, .workspace_id, .user_id, .name, .scopes, .hash, .last_four, .created_at, .last_used_at, .revoked_at}';

export const CREATE_WORKSPACE = statement('createWorkspace', ['id', 'name', 'plan', 'trial_ends_at', 'now'], `
WITH COUNT { MATCH (x:Workspace) } AS seq
CREATE (w:Workspace {id: $id, workspace_id: $id, name: $name, plan: $plan, trial_ends_at: $trial_ends_at, seq: seq,
                     created_at: $now, updated_at: $now})
RETURN ${WORKSPACE} AS workspace`);

export const GET_WORKSPACE = statement('getWorkspace', ['id'], `
MATCH (w:Workspace {id: $id})
WHERE w.loading IS NULL
RETURN ${WORKSPACE} AS workspace`);

export const LIST_WORKSPACES = statement('listWorkspaces', [], `
MATCH (w:Workspace)
WHERE w.loading IS NULL
RETURN ${WORKSPACE} AS workspace
ORDER BY w.created_at, w.seq, w.id`);

/** `$patch` holds only keys of WorkspacePatch, picked by code; a null removes the property. */
export const UPDATE_WORKSPACE = statement('updateWorkspace', ['id', 'patch', 'now'], `
MATCH (w:Workspace {id: $id})
WHERE w.loading IS NULL
SET w += $patch, w.updated_at = $now
RETURN ${WORKSPACE} AS workspace`);

export const CREATE_USER = statement('createUser', ['workspace_id', 'id', 'email', 'email_key', 'name', 'role', 'now'], `
MATCH (w:Workspace {id: $workspace_id})
WHERE w.loading IS NULL
WITH w, COUNT { MATCH (x:User {workspace_id: w.id}) } AS seq
CREATE (u:User {id: $id, workspace_id: w.id, email: $email, email_key: $email_key, name: $name, role: $role,
                seq: seq, created_at: $now})
RETURN ${USER} AS user`);

export const GET_USER = statement('getUser', ['workspace_id', 'id'], `
MATCH (u:User {workspace_id: $workspace_id, id: $id})
RETURN ${USER} AS user`);

export const LIST_USERS = statement('listUsers', ['workspace_id'], `
MATCH (u:User {workspace_id: $workspace_id})
RETURN ${USER} AS user
ORDER BY u.created_at, u.seq, u.id`);

export const GET_USERS = statement('getUsers', ['workspace_id', 'ids'], `
MATCH (u:User)
WHERE u.id IN $ids AND u.workspace_id = $workspace_id
RETURN ${USER} AS user
ORDER BY u.created_at, u.seq, u.id`);

export const UPDATE_USER_ROLE = statement('updateUserRole', ['workspace_id', 'id', 'role'], `
MATCH (u:User {workspace_id: $workspace_id, id: $id})
SET u.role = $role
RETURN ${USER} AS user`);

export const CREATE_API_KEY = statement('createApiKey', ['workspace_id', 'user_id', 'id', 'name', 'scopes', 'hash', 'last_four', 'now'], `
MATCH (u:User {workspace_id: $workspace_id, id: $user_id})
WITH u, COUNT { MATCH (x:ApiKey {workspace_id: u.workspace_id}) } AS seq
CREATE (k:ApiKey {id: $id, workspace_id: u.workspace_id, user_id: u.id, name: $name, scopes: $scopes, hash: $hash,
                  last_four: $last_four, seq: seq, created_at: $now})
RETURN ${API_KEY} AS key`);

export const FIND_API_KEY_BY_HASH = statement('findApiKeyByHash', ['hash'], `
MATCH (k:ApiKey {hash: $hash})
RETURN ${API_KEY} AS key`);

export const LIST_API_KEYS = statement('listApiKeys', ['workspace_id'], `
MATCH (k:ApiKey {workspace_id: $workspace_id})
RETURN ${API_KEY} AS key
ORDER BY k.created_at, k.seq, k.id`);

/** Revoking twice keeps the first time. */
export const REVOKE_API_KEY = statement('revokeApiKey', ['id', 'now'], `
MATCH (k:ApiKey {id: $id})
SET k.revoked_at = coalesce(k.revoked_at, $now)
RETURN ${API_KEY} AS key`);

export const TOUCH_API_KEY = statement('touchApiKey', ['id', 'at'], `
MATCH (k:ApiKey {id: $id})
SET k.last_used_at = $at`);
