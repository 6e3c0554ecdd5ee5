import { notFound } from '../../domain/errors.ts';
import type { DumpKind, DumpRow } from '../../domain/store/port-dump.ts';
import { DUMP_ORDER } from '../../domain/store/port-dump.ts';
import type { Connection } from './connection.ts';
import { toEntry, type EntryRow } from './entries.ts';
import { translateError } from './errors.ts';
import { CLASSIFICATION_COLUMNS, LINK_COLUMNS, toClassification, toLink, type ClassificationRow, type LinkRow } from './graph.ts';
import { ENTRY_COLUMNS } from './items.ts';
import { LIST_COLUMNS, toList, type ListRow } from './lists.ts';
import { NOTE_COLUMNS } from './notes.ts';
import { COMM_LINKS, linkedIdsColumn, NOTE_LINKS, TASK_LINKS } from './record-links.ts';
import { COMM_COLUMNS } from './comms.ts';
import type { Comm, UsageCount } from '../../domain/store/port-comms.ts';
import {
  API_KEY_COLUMNS, FIELD_COLUMNS, OBJECT_TYPE_COLUMNS, RECORD_COLUMNS, RELATION_COLUMNS, USER_COLUMNS, WORKSPACE_COLUMNS,
  toApiKey, toField, toObjectType, toRecord, type ApiKeyRow, type FieldRow, type ObjectTypeRow, type RecordRow, type RelationRow, type UserRow, type WorkspaceRow,
} from './rows.ts';
import { TASK_COLUMNS } from './tasks.ts';
import { EVENT_COLUMNS, toEvent, type EventRow } from './timeline.ts';
import { toView, VIEW_COLUMNS, type ViewRow } from './views.ts';
import { REPORT_COLUMNS, toReport, type ReportRow } from './reports.ts';

type RowOf<K extends DumpKind> = Extract<DumpRow, { kind: K }>['row'];

/** One statement per kind (the workspace id its one parameter), already in dump order, and its row mapping. */
interface Reader<K extends DumpKind> {
  sql: string;
  toRow(raw: never): RowOf<K>;
}

/** An object type's fields as one JSON array of field rows, in position order, so one statement streams the types. */
const FIELDS_JSON = `(SELECT json_group_array(json_object(${FIELD_COLUMNS.split(', ').map((column) => `'${column}', f.${column}`).join(', ')})
  ORDER BY f.position) FROM fields f WHERE f.object_type_pk = t.pk) AS fields`;

const withIds = <Row extends { record_ids: string }>(row: Row) => ({ ...row, record_ids: JSON.parse(row.record_ids) as string[] });

const READERS: { readonly [K in DumpKind]: Reader<K> } = {
  workspace: { sql: `SELECT ${WORKSPACE_COLUMNS} FROM workspaces WHERE id = ?`, toRow: (row: WorkspaceRow) => row },
  user: { sql: `SELECT ${USER_COLUMNS} FROM users WHERE workspace_id = ? ORDER BY id`, toRow: (row: UserRow) => row },
  api_key: { sql: `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE workspace_id = ? ORDER BY id`, toRow: (row: ApiKeyRow) => toApiKey(row) },
  object_type: {
    sql: `SELECT ${OBJECT_TYPE_COLUMNS}, ${FIELDS_JSON} FROM object_types t WHERE t.workspace_id = ? ORDER BY t.id`,
    toRow: ({ fields, ...row }: ObjectTypeRow & { fields: string }) => toObjectType(row, (JSON.parse(fields) as FieldRow[]).map(toField)),
  },
  record: { sql: `SELECT ${RECORD_COLUMNS} FROM records r WHERE r.workspace_id = ? ORDER BY r.id`, toRow: (row: RecordRow) => toRecord(row) },
  relation: {
    // Field edges only: links are dumped as `link` rows, with their id and properties.
    sql: `SELECT workspace_id, ${RELATION_COLUMNS} FROM relations WHERE workspace_id = ? AND source = 'field' ORDER BY from_id, to_id, type, source`,
    toRow: (row: RelationRow & { workspace_id: string }) => row,
  },
  link: {
    sql: `SELECT ${LINK_COLUMNS} FROM relations WHERE workspace_id = ? AND source = 'link' ORDER BY link_id`,
    toRow: (row: LinkRow) => toLink(row),
  },
  classification: {
    sql: `SELECT ${CLASSIFICATION_COLUMNS} FROM contact_classifications WHERE workspace_id = ? ORDER BY record_id`,
    toRow: (row: ClassificationRow) => toClassification(row),
  },
  list: { sql: `SELECT ${LIST_COLUMNS} FROM lists t WHERE t.workspace_id = ? ORDER BY t.id`, toRow: (row: ListRow) => toList(row) },
  entry: { sql: `SELECT ${ENTRY_COLUMNS} FROM list_entries r WHERE r.workspace_id = ? ORDER BY r.id`, toRow: (row: EntryRow) => toEntry(row) },
  view: { sql: `SELECT ${VIEW_COLUMNS} FROM views t WHERE t.workspace_id = ? ORDER BY t.id`, toRow: (row: ViewRow) => toView(row) },
  note: { sql: `SELECT ${NOTE_COLUMNS}, ${linkedIdsColumn(NOTE_LINKS)} FROM notes t WHERE t.workspace_id = ? ORDER BY t.id`, toRow: withIds },
  task: { sql: `SELECT ${TASK_COLUMNS}, ${linkedIdsColumn(TASK_LINKS)} FROM tasks t WHERE t.workspace_id = ? ORDER BY t.id`, toRow: withIds },
  report: { sql: `SELECT ${REPORT_COLUMNS} FROM reports t WHERE t.workspace_id = ? ORDER BY t.id`, toRow: (row: ReportRow) => toReport(row) },
  comm: {
    sql: `SELECT ${COMM_COLUMNS}, ${linkedIdsColumn(COMM_LINKS)} FROM comms t WHERE t.workspace_id = ? ORDER BY t.id`,
    toRow: (row: Omit<Comm, 'record_ids' | 'data'> & { record_ids: string; data: string }) => ({ ...withIds(row), data: JSON.parse(row.data) as Comm['data'] }),
  },
  event: { sql: `SELECT ${EVENT_COLUMNS} FROM events e WHERE e.workspace_id = ? ORDER BY e.id`, toRow: (row: EventRow) => toEvent(row) },
  usage: { sql: 'SELECT workspace_id, period, style, count FROM usage_counters WHERE workspace_id = ? ORDER BY period, style', toRow: (row: UsageCount) => row },
};

/**
 * Streams a workspace out of a snapshot (Connection.snapshot): one statement per kind, iterated row
 * by row, so a dump of any size holds one row in memory at a time, sees no write made after it
 * began, and never blocks the store's own connection while the consumer writes.
 */
export function dumpMethods(c: Connection) {
  return {
    async *dumpWorkspace(workspaceId: string): AsyncGenerator<DumpRow> {
      let db: ReturnType<Connection['snapshot']> | undefined;
      try {
        db = c.snapshot();
        db.exec('BEGIN');
        if (!db.prepare('SELECT 1 FROM workspaces WHERE id = ?').get(workspaceId)) throw notFound('workspace', workspaceId);
        for (const kind of DUMP_ORDER) {
          const reader = READERS[kind] as Reader<DumpKind>;
          for (const raw of db.prepare(reader.sql).iterate(workspaceId)) yield { kind, row: reader.toRow(raw as never) } as DumpRow;
        }
      } catch (err) {
        translateError(err);
      } finally {
        db?.close();
      }
    },
  };
}
