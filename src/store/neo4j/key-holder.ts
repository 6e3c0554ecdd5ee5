import type { KeyHolder } from '../../domain/store/port-performance.ts';
import type { Connection } from './connection.ts';
import { API_KEY, USER, WORKSPACE } from './cypher/settings.ts';
import { props, toApiKey, toUser, toWorkspace } from './rows.ts';
import { bind, statement } from './statement.ts';

/** The key by its hash with its user and workspace in one statement (either may be gone: null). */
const FIND_KEY_HOLDER = statement('findKeyHolder', ['hash'], `
MATCH (k:ApiKey {hash: $hash})
OPTIONAL MATCH (u:User {workspace_id: k.workspace_id, id: k.user_id})
OPTIONAL MATCH (w:Workspace {id: k.workspace_id})
RETURN ${API_KEY} AS key, ${USER} AS user, ${WORKSPACE} AS workspace`);

/** Authentication's one read, as on SQLite. */
export function keyHolderMethods(conn: Connection) {
  return {
    async findKeyHolder(hash: string): Promise<KeyHolder | null> {
      const row = await conn.read((tx) => tx.first(bind(FIND_KEY_HOLDER, { hash })));
      const key = props(row, 'key');
      if (!key) return null;
      const user = props(row, 'user');
      const workspace = props(row, 'workspace');
      return { key: toApiKey(key), user: user ? toUser(user) : null, workspace: workspace ? toWorkspace(workspace) : null };
    },
  };
}
