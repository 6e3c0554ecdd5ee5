import type { KeyHolder } from '../../domain/store/port-performance.ts';
import type { Connection } from './connection.ts';
import { API_KEY_COLUMNS, toApiKey, USER_COLUMNS, WORKSPACE_COLUMNS, type ApiKeyRow, type UserRow, type WorkspaceRow } from './rows.ts';

/**
 * One table's columns in the joined row, which is read as an array (a row object of twenty-two
 * columns was most of what authentication allocated per call): they start at index `first`, and
 * the table's id is at `id`. Worked out once, since authentication runs on every call.
 */
interface Part {
  alias: string;
  columns: string[];
  first: number;
  id: number;
}
const partOf = (alias: string, list: string, first: number): Part => {
  const columns = list.split(', ');
  return { alias, columns, first, id: first + columns.indexOf('id') };
};
const KEY = partOf('k', API_KEY_COLUMNS, 0);
const USER = partOf('u', USER_COLUMNS, KEY.first + KEY.columns.length);
const WORKSPACE = partOf('w', WORKSPACE_COLUMNS, USER.first + USER.columns.length);

const selected = ({ alias, columns }: Part): string => columns.map((column) => `${alias}.${column}`).join(', ');

/** The columns of one table out of a joined row; null when the LEFT JOIN found no row. */
function part<T>(row: readonly unknown[], { columns, first, id }: Part): T | null {
  if (row[id] === null) return null;
  const out: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) out[columns[i]!] = row[first + i];
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
      const row = c.rows<unknown[]>(FIND_KEY_HOLDER, hash)[0];
      if (!row) return null;
      return {
        key: toApiKey(part<ApiKeyRow>(row, KEY)!),
        user: part<UserRow>(row, USER),
        workspace: part<WorkspaceRow>(row, WORKSPACE),
      };
    },
  };
}
