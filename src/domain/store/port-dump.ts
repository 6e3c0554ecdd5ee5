import type {
  ApiKey, CrmList, ListEntry, Note, ObjectType, Relation, SavedView, StoredRecord, Task, TimelineEvent, User, Workspace,
} from '../types.ts';
import type { SavedReport } from '../reports/types.ts';
import type { Comm, UsageCount } from './port-comms.ts';
import type { Classification, Link } from '../graph/types.ts';

/**
 * Moving a workspace between stores (SQLite → Neo4j, or a backup): one neutral row per stored
 * entity, deleted ones included, with ids and timestamps as they are. Derived data (value
 * indexes, search text, unique claims) is not dumped; `loadDump` rebuilds it.
 */
export type DumpRow =
  | { kind: 'workspace'; row: Workspace }
  | { kind: 'user'; row: User }
  | { kind: 'api_key'; row: ApiKey }
  | { kind: 'object_type'; row: ObjectType }
  | { kind: 'record'; row: StoredRecord }
  | { kind: 'relation'; row: Relation & { workspace_id: string } }
  | { kind: 'link'; row: Link }
  | { kind: 'classification'; row: Classification }
  | { kind: 'list'; row: CrmList }
  | { kind: 'entry'; row: ListEntry }
  | { kind: 'view'; row: SavedView }
  | { kind: 'note'; row: Note }
  | { kind: 'task'; row: Task }
  | { kind: 'report'; row: SavedReport }
  | { kind: 'comm'; row: Comm }
  | { kind: 'event'; row: TimelineEvent }
  | { kind: 'usage'; row: UsageCount };

export type DumpKind = DumpRow['kind'];

/** The order rows are dumped and must be loaded in: every row's references come before it. */
export const DUMP_ORDER: readonly DumpKind[] = [
  'workspace', 'user', 'api_key', 'object_type', 'record', 'relation', 'link', 'classification', 'list', 'entry', 'view', 'note', 'task',
  'report', 'comm', 'event', 'usage',
];

export interface DumpStore {
  /**
   * Every row of the workspace, deleted ones included: kinds in DUMP_ORDER, rows of a kind by id
   * (relations — field edges — by from_id, to_id, type; classifications by record_id). Object types carry all their fields (archived included).
   * `not_found` for an unknown workspace.
   */
  dumpWorkspace(workspaceId: string): AsyncIterable<DumpRow>;
  /**
   * Writes a dump as it was (ids, timestamps, deleted_at, revoked keys) and rebuilds derived data
   * (value indexes, search text, unique claims of live records). Rows arrive in DUMP_ORDER. All or
   * nothing; `conflict` when the workspace already exists in this store.
   */
  loadDump(rows: AsyncIterable<DumpRow> | Iterable<DumpRow>): Promise<{ rows: number }>;
}
