import type { NewEvent } from '../../domain/store/port-work.ts';
import type { NewReport } from '../../domain/store/port-reports.ts';
import type { ReportConfig, SavedReport } from '../../domain/reports/types.ts';
import { insertSql, type Connection } from './connection.ts';
import { json, pageRows, parseJson, resourceRows, whereAll } from './resources.ts';
import { idFor, now } from './rows.ts';
import { withEvents } from './timeline.ts';

export const REPORT_COLUMNS = 't.id, t.workspace_id, t.name, t.config, t.created_by, t.created_at, t.updated_at, t.deleted_at';

export interface ReportRow extends Omit<SavedReport, 'config'> {
  config: string;
}

export const toReport = (row: ReportRow): SavedReport => ({ ...row, config: parseJson<ReportConfig>(row.config) });

/** Writes a report as given (create and load alike). */
export function insertReportRow(c: Connection, report: SavedReport): void {
  c.run(
    insertSql('reports', 'id, workspace_id, name, config, created_by, created_at, updated_at, deleted_at'),
    report.id, report.workspace_id, report.name, json(report.config), report.created_by, report.created_at, report.updated_at, report.deleted_at,
  );
}

/** Synchronous saved-report methods of the Store. */
export function reportMethods(c: Connection) {
  const reports = resourceRows(c, { table: 'reports', kind: 'report', columns: REPORT_COLUMNS, toEntity: toReport });

  return {
    createReport(workspaceId: string, input: NewReport, events: NewEvent[]): SavedReport {
      return withEvents(c, workspaceId, events, () => {
        const id = idFor('report', input);
        const at = now();
        insertReportRow(c, {
          id, workspace_id: workspaceId, name: input.name, config: input.config, created_by: input.created_by,
          created_at: at, updated_at: at, deleted_at: null,
        });
        return reports.find(workspaceId, id)!;
      });
    },

    getReport(workspaceId: string, reportId: string): SavedReport | null {
      return reports.find(workspaceId, reportId) ?? null;
    },

    listReports(workspaceId: string, page: { offset: number; limit: number }): { items: SavedReport[]; total: number } {
      const from = whereAll('reports t', [{ sql: 't.workspace_id = ? AND t.deleted_at IS NULL', params: [workspaceId] }]);
      const { rows, total } = pageRows<ReportRow>(c, REPORT_COLUMNS, from, 't.created_at, t.id', page);
      return { items: rows.map(toReport), total };
    },

    deleteReport(workspaceId: string, reportId: string, events: NewEvent[]): SavedReport {
      return reports.softDelete(workspaceId, reportId, events);
    },
  };
}
