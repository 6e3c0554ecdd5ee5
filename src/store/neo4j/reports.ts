import type { NewEvent } from '../../domain/store/port-work.ts';
import type { ActivityKind, ActivityWindow, NewReport, RecentCounts, RecentCutoffs } from '../../domain/store/port-reports.ts';
import type { AggregateQuery, AggregateRow, ReportConfig, SavedReport } from '../../domain/reports/types.ts';
import type { Connection, Row } from './connection.ts';
import { aggregateStatement } from './cypher/aggregate.ts';
import * as Q from './cypher/reports.ts';
import { requireList } from './lists.ts';
import { requireObjectType } from './object-types.ts';
import { readPage } from './pages.ts';
import { ResourceKind } from './resources.ts';
import { props, type Props } from './rows.ts';
import { idFor, now } from './stamps.ts';
import { bind, bindPage } from './statement.ts';
import { writeWithEvents } from './timeline.ts';

/** From a report projection: the config is stored as JSON text. */
export function toReport(p: Props): SavedReport {
  const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
  return {
    id: String(p.id), workspace_id: String(p.workspace_id), name: String(p.name), config: JSON.parse(String(p.config)) as ReportConfig,
    created_by: text(p.created_by), created_at: String(p.created_at), updated_at: String(p.updated_at), deleted_at: text(p.deleted_at),
  };
}

const REPORTS = new ResourceKind(Q.REPORTS, 'report', toReport);
const num = (value: unknown): number => Number(value ?? 0);

/** Saved reports, aggregation and the summary counts, on Neo4j. */
export function reportMethods(conn: Connection) {
  return {
    async createReport(workspaceId: string, input: NewReport, events: NewEvent[]): Promise<SavedReport> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const id = idFor('report', input);
        await tx.rows(bind(Q.CREATE_REPORT, {
          workspace_id: workspaceId, id, name: input.name, config: JSON.stringify(input.config), created_by: input.created_by, now: now(),
        }));
        return (await REPORTS.find(tx, workspaceId, id))!;
      });
    },

    getReport: (workspaceId: string, reportId: string): Promise<SavedReport | null> => REPORTS.get(conn, workspaceId, reportId),

    async listReports(workspaceId: string, page: { offset: number; limit: number }): Promise<{ items: SavedReport[]; total: number }> {
      const { rows, total } = await conn.read((tx) => readPage(tx, bindPage(Q.LIST_REPORTS, { workspace_id: workspaceId }, page)));
      return { items: rows.map((row) => toReport(props(row, 'report')!)), total };
    },

    deleteReport: (workspaceId: string, reportId: string, events: NewEvent[]): Promise<SavedReport> => REPORTS.softDelete(conn, workspaceId, reportId, events),

    async aggregate(workspaceId: string, query: AggregateQuery): Promise<AggregateRow[]> {
      const rows = await conn.read(async (tx) => {
        const built = 'list_id' in query.scope
          ? aggregateStatement('entries', (await requireList(tx, workspaceId, query.scope.list_id)).id, query)
          : aggregateStatement('records', (await requireObjectType(tx, workspaceId, query.scope.object_type_slug)).id, query);
        return tx.rows(built);
      });
      return rows.map((row: Row) => ({
        group: row.grp === null || row.grp === undefined ? null : (row.grp as string | number),
        bucket: row.bucket === null || row.bucket === undefined ? null : String(row.bucket),
        value: row.value === null || row.value === undefined ? null : Number(row.value),
        count: num(row.n),
      }));
    },

    async countRecordsByType(workspaceId: string, since: RecentCutoffs): Promise<Array<{ object_type_slug: string } & RecentCounts>> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.COUNT_RECORDS_BY_TYPE, { workspace_id: workspaceId, week: since.week, month: since.month })));
      return rows.map((row) => ({ object_type_slug: String(row.object_type_slug), total: num(row.total), week: num(row.week), month: num(row.month) }));
    },

    async countOpenTasks(workspaceId: string, at: string): Promise<{ open: number; overdue: number }> {
      const row = await conn.read((tx) => tx.first(bind(Q.COUNT_OPEN_TASKS, { workspace_id: workspaceId, now: at })));
      return { open: num(row?.open), overdue: num(row?.overdue) };
    },

    async countActivity(workspaceId: string, kind: ActivityKind, window: ActivityWindow): Promise<number> {
      const row = await conn.read((tx) => tx.first(bind(Q.COUNT_ACTIVITY[kind], { workspace_id: workspaceId, since: window.since, until: window.until })));
      return num(row?.n);
    },
  };
}
