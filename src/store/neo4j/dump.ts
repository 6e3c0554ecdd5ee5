import { notFound } from '../../domain/errors.ts';
import type { DumpKind, DumpRow } from '../../domain/store/port-dump.ts';
import { DUMP_ORDER } from '../../domain/store/port-dump.ts';
import type { Connection, Row } from './connection.ts';
import * as Q from './cypher/dump.ts';
import { DUMP_CLASSIFICATIONS, DUMP_LINKS } from './cypher/graph.ts';
import { GET_WORKSPACE } from './cypher/settings.ts';
import { toClassification, toLink } from './graph.ts';
import {
  props, toApiKey, toEntry, toEvent, toList, toNote, toObjectType, toRecord, toRelation, toTask, toUser, toView, toWorkspace,
} from './rows.ts';
import { bind } from './statement.ts';
import { toReport } from './reports.ts';
import { toComm } from './comms.ts';
import { DUMP_USAGE } from './cypher/comms.ts';
import type { CallStyle } from '../../domain/types.ts';

/** Rows read per page (one read transaction each). */
export const DUMP_PAGE = 1000;

type RowOf<K extends DumpKind> = Extract<DumpRow, { kind: K }>['row'];

/** A kind read by id pages: its statement and the mapping of a result row, the same mapper the normal reads use. */
interface PagedKind<K extends DumpKind> {
  statement: Q.DumpPage;
  toRow(row: Row): RowOf<K>;
}

/** From a projection column (`n {.…} AS <column>`). */
const column = <T>(name: string, map: (p: Record<string, unknown>) => T) => (row: Row): T => map(props(row, name)!);

const PAGED: { readonly [K in Exclude<DumpKind, 'workspace' | 'relation' | 'usage'>]: PagedKind<K> } = {
  user: { statement: Q.DUMP_USERS, toRow: column('user', toUser) },
  api_key: { statement: Q.DUMP_API_KEYS, toRow: column('key', toApiKey) },
  object_type: { statement: Q.DUMP_OBJECT_TYPES, toRow: toObjectType },
  record: { statement: Q.DUMP_RECORDS, toRow: column('record', toRecord) },
  link: { statement: DUMP_LINKS, toRow: column('link', toLink) },
  classification: { statement: DUMP_CLASSIFICATIONS, toRow: column('classification', toClassification) },
  list: { statement: Q.DUMP_LISTS, toRow: column('list', toList) },
  entry: { statement: Q.DUMP_ENTRIES, toRow: column('entry', toEntry) },
  view: { statement: Q.DUMP_VIEWS, toRow: column('view', toView) },
  note: { statement: Q.DUMP_NOTES, toRow: column('note', toNote) },
  task: { statement: Q.DUMP_TASKS, toRow: column('task', toTask) },
  report: { statement: Q.DUMP_REPORTS, toRow: column('report', toReport) },
  event: { statement: Q.DUMP_EVENTS, toRow: column('event', toEvent) },
  comm: { statement: Q.DUMP_COMMS, toRow: column('comm', toComm) },
};

/** Where the relation pages stand: the last edge read, by the dump order of relations. */
interface RelationCursor {
  from_id: string;
  to_id: string;
  type: string;
  source: string;
}

/**
 * `dumpWorkspace` on Neo4j. A managed transaction cannot stay open while the consumer writes the
 * rows out, so the dump reads in pages, each its own read transaction: kinds in DUMP_ORDER, rows of
 * a kind after an id cursor (relations after a (from_id, to_id, type, source) cursor), which
 * neither repeats nor skips a row that exists throughout. Unlike SQLite's snapshot, the pages do not
 * share one point in time: a workspace written to while it is dumped may be dumped with part of
 * that write (docs/neo4j.md). One page is held in memory at a time.
 */
export function dumpMethods(conn: Connection, opts: { page?: number } = {}) {
  const limit = opts.page ?? DUMP_PAGE;

  async function* paged<K extends Exclude<DumpKind, 'workspace' | 'relation' | 'usage'>>(kind: K, workspaceId: string): AsyncGenerator<DumpRow> {
    const { statement, toRow } = PAGED[kind] as PagedKind<K>;
    for (let after = ''; ;) {
      const rows = await conn.read((tx) => tx.rows(bind(statement, { workspace_id: workspaceId, after, limit })));
      for (const row of rows) yield { kind, row: toRow(row) } as DumpRow;
      if (rows.length < limit) return;
      const last = toRow(rows.at(-1)!) as { id?: string; record_id?: string };
      after = last.id ?? last.record_id!;
    }
  }

  async function* relations(workspaceId: string): AsyncGenerator<DumpRow> {
    for (let cursor: RelationCursor = { from_id: '', to_id: '', type: '', source: '' }; ;) {
      const rows = await conn.read((tx) => tx.rows(bind(Q.DUMP_RELATIONS, { workspace_id: workspaceId, ...cursor, limit })));
      const page = rows.map((row) => ({ workspace_id: workspaceId, ...toRelation(row.relation as Record<string, unknown>) }));
      for (const row of page) yield { kind: 'relation', row };
      if (page.length < limit) return;
      const { from_id, to_id, type, source } = page.at(-1)!;
      cursor = { from_id, to_id, type, source };
    }
  }

  return {
    async *dumpWorkspace(workspaceId: string): AsyncGenerator<DumpRow> {
      const workspace = props(await conn.read((tx) => tx.first(bind(GET_WORKSPACE, { id: workspaceId }))), 'workspace');
      if (!workspace) throw notFound('workspace', workspaceId);
      for (const kind of DUMP_ORDER) {
        if (kind === 'workspace') yield { kind, row: toWorkspace(workspace) };
        else if (kind === 'relation') yield* relations(workspaceId);
        else if (kind === 'usage') {
          const rows = await conn.read((tx) => tx.rows(bind(DUMP_USAGE, { workspace_id: workspaceId })));
          for (const row of rows) yield { kind, row: { workspace_id: workspaceId, period: String(row.period), style: row.style as CallStyle, count: Number(row.count) } };
        }
        else yield* paged(kind, workspaceId);
      }
    },
  };
}
