import type { KeyHolder } from '../../domain/store/port-performance.ts';
import type { Connection } from './connection.ts';
import { API_KEY_COLUMNS, toApiKey, USER_COLUMNS, WORKSPACE_COLUMNS, type ApiKeyRow, type UserRow, type WorkspaceRow } from './rows.ts';

/**
 * One table's columns in the joined row, each under `alias_column` so one row can carry three
 * tables; worked out once, since authentication runs on every call.
 */
interface Part {
  alias: string;
  id: string;
  keys: Array<[column: string, key: string]>;
}
const partOf = (alias: string, columns: string): Part =>
  ({ alias, id: `${alias}_id`, keys: columns.split(', ').map((column) => [column, `${alias}_${column}`]) });
const KEY = partOf('k', API_KEY_COLUMNS);
const USER = partOf('u', USER_COLUMNS);
const WORKSPACE = partOf('w', WORKSPACE_COLUMNS);

/** `alias.column AS alias_column` for each column of the part. */
const selected = ({ alias, keys }: Part): string => keys.map(([column, key]) => `${alias}.${column} AS ${key}`).join(', ');

/** The columns of one table out of a joined row; null when the LEFT JOIN found no row. */
function part<T>(row: Record<string, unknown>, { id, keys }: Part): T | null {
  if (row[id] === null) return null;
  const out: Record<string, unknown> = {};
  for (const [column, key] of keys) out[column] = row[key];
  return out as T;
}

const FIND_KEY_HOLDER = `SELECT ${selected(KEY)}, ${selected(USER)}, ${selected(WORKSPACE)}
  FROM api_keys k
  LEFT JOIN users u ON u.workspace_id = k.workspace_id AND u.id = k.user_id
  LEFT JOIN workspaces w ON w.id = k.workspace_id
  WHERE k.hash = ?`;

/** Authentication's one read: the key by its hash with its user and workspace. */
export function keyHolderMethods(c: Connection) {
  return {
    findKeyHolder(hash: string): KeyHolder | null {
      const row = c.get<Record<string, unknown>>(FIND_KEY_HOLDER, hash);
      if (!row) return null;
      return {
        key: toApiKey(part<ApiKeyRow>(row, KEY)!),
        user: part<UserRow>(row, USER),
        workspace: part<WorkspaceRow>(row, WORKSPACE),
      };
    },
  };
}
