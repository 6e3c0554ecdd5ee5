import { unreachable } from '../../domain/errors.ts';
import type { CommKind } from '../../domain/store/port-comms.ts';
import type { ActivityKind, ActivityWindow, RecentCounts, RecentCutoffs } from '../../domain/store/port-reports.ts';
import type { Connection } from './connection.ts';

/**
 * Where each kind of activity is stored: a table with workspace_id and deleted_at, the column that
 * says when it happened, and for comms the kind that selects it.
 */
const ACTIVITY_SOURCES: { readonly [K in ActivityKind]: { table: string; time: string; kind?: CommKind } } = {
  notes: { table: 'notes', time: 'created_at' },
  emails: { table: 'comms', time: 'at', kind: 'email' },
  meetings: { table: 'comms', time: 'at', kind: 'meeting' },
  messages: { table: 'comms', time: 'at', kind: 'message' },
};

/** Counts for the workspace summary, each one aggregate query. */
export function summaryMethods(c: Connection) {
  return {
    countRecordsByType(workspaceId: string, since: RecentCutoffs): Array<{ object_type_slug: string } & RecentCounts> {
      return c.all<{ object_type_slug: string } & RecentCounts>(
        `SELECT t.slug AS object_type_slug, COUNT(r.pk) AS total,
                COUNT(r.pk) FILTER (WHERE r.created_at >= ?) AS week, COUNT(r.pk) FILTER (WHERE r.created_at >= ?) AS month
         FROM object_types t LEFT JOIN records r ON r.object_type_pk = t.pk AND r.deleted_at IS NULL
         WHERE t.workspace_id = ? AND t.deleted_at IS NULL
         GROUP BY t.pk ORDER BY t.created_at, t.pk`,
        since.week, since.month, workspaceId,
      );
    },

    countOpenTasks(workspaceId: string, now: string): { open: number; overdue: number } {
      return c.get<{ open: number; overdue: number }>(
        `SELECT COUNT(*) AS open, COUNT(*) FILTER (WHERE due_at IS NOT NULL AND due_at < ?) AS overdue
         FROM tasks WHERE workspace_id = ? AND deleted_at IS NULL AND status <> 'done'`,
        now, workspaceId,
      )!;
    },

    countActivity(workspaceId: string, kind: ActivityKind, window: ActivityWindow): number {
      const { table, time, kind: commKind } = ACTIVITY_SOURCES[kind] ?? unreachable(kind as never);
      return c.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM ${table} WHERE workspace_id = ? AND deleted_at IS NULL AND ${time} >= ? AND ${time} <= ?${commKind ? ' AND kind = ?' : ''}`,
        workspaceId, window.since, window.until, ...(commKind ? [commKind] : []),
      )!.n;
    },
  };
}
