import type { KeyHolder } from '../../domain/store/port-performance.ts';
import { perConnection, type Connection } from './connection.ts';
import { deepFreeze } from './object-types.ts';
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

/**
 * Authentication reads the key holder on every call of every style, and keys, members and plans
 * change rarely, so holders are kept by hash. An entry serves while nothing could have changed it:
 * this connection has written no row since (`Connection.writtenRows`, `total_changes()`: every
 * insert, update and delete, trigger programs included, committed or not, so no writer has to
 * remember to drop the cache) and no other connection has committed since
 * (`Connection.othersVersion`, `PRAGMA data_version`: the CLI, another process; it also moves when
 * the connection opens the database again, which starts both counters over). A revocation, a role
 * or plan change, a new key, made anywhere, shows in the next read (with calls in flight, in the
 * next call begun: Connection.beginCall). Entries are filled only where the connection allows
 * caching (`Connection.cacheable`: not inside a transaction body that may still roll back) and all
 * are dropped when a group of writes fails to commit (whose rows an entry read between its calls
 * may hold). An unknown hash is not kept, so guessed keys cannot fill the
 * map; it holds at most MAX_HOLDERS entries. Holders are frozen, since calls share them.
 */
const MAX_HOLDERS = 10_000;

class KeyHolderCache {
  readonly #entries = new Map<string, { stamp: string; holder: KeyHolder }>();

  constructor(private readonly c: Connection) {
    c.onLostGroup(() => this.#entries.clear());
  }

  find(hash: string): KeyHolder | null {
    if (!this.c.cacheable) return readKeyHolder(this.c, hash);
    const stamp = `${this.c.writtenRows()}:${this.c.othersVersion()}`;
    const hit = this.#entries.get(hash);
    if (hit?.stamp === stamp) return hit.holder;
    const holder = readKeyHolder(this.c, hash);
    if (!holder) {
      this.#entries.delete(hash);
      return null;
    }
    if (this.#entries.size >= MAX_HOLDERS) this.#entries.clear();
    this.#entries.set(hash, { stamp, holder: deepFreeze(holder) });
    return holder;
  }
}

const keyHolderCache = perConnection((c) => new KeyHolderCache(c));

/** Authentication's one read: the key by its hash with its user and workspace. */
function readKeyHolder(c: Connection, hash: string): KeyHolder | null {
  const row = c.rows<unknown[]>(FIND_KEY_HOLDER, hash)[0];
  if (!row) return null;
  return {
    key: toApiKey(part<ApiKeyRow>(row, KEY)!),
    user: part<UserRow>(row, USER),
    workspace: part<WorkspaceRow>(row, WORKSPACE),
  };
}

/** The Store's key holder method: authentication's read, through the connection's cache. */
export function keyHolderMethods(c: Connection) {
  const cache = keyHolderCache(c);
  return {
    findKeyHolder(hash: string): KeyHolder | null {
      return cache.find(hash);
    },
  };
}
