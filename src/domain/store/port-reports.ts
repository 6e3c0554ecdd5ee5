import type { AggregateQuery, AggregateRow, ReportConfig, SavedReport } from '../reports/types.ts';
import type { NewEvent } from './port-work.ts';

/**
 * The reporting surface of the Store port: saved reports, and aggregation that runs inside the
 * database (SQL on SQLite, Cypher on Neo4j) so no record is ever loaded into the process to be
 * counted. Same rules as port.ts: every mutation writes its timeline events in its transaction.
 */
export interface ReportStore {
  createReport(workspaceId: string, input: NewReport, events: NewEvent[]): Promise<SavedReport>;
  getReport(workspaceId: string, reportId: string): Promise<SavedReport | null>;
  /** Live reports, oldest first (ties by id), one page, and the total. */
  listReports(workspaceId: string, page: { offset: number; limit: number }): Promise<{ items: SavedReport[]; total: number }>;
  /** Soft delete; `not_found` when unknown or already deleted. */
  deleteReport(workspaceId: string, reportId: string, events: NewEvent[]): Promise<SavedReport>;

  /**
   * Groups and measures live items in the database. `not_found` for an unknown object type or list.
   * At most `max_rows` rows, in no particular order.
   */
  aggregate(workspaceId: string, query: AggregateQuery): Promise<AggregateRow[]>;
  /**
   * Live records per live object type (oldest type first), and how many of them were created at or
   * after the `week` and `month` cutoffs.
   */
  countRecordsByType(workspaceId: string, since: RecentCutoffs): Promise<Array<{ object_type_slug: string } & RecentCounts>>;
  /** Live tasks not done, and those of them due before `now`. */
  countOpenTasks(workspaceId: string, now: string): Promise<{ open: number; overdue: number }>;
  /**
   * Live items of an activity kind that happened in the window (both ends inclusive): notes, emails
   * and messages by their creation, meetings by their start, so a meeting still to come is not activity yet.
   */
  countActivity(workspaceId: string, kind: ActivityKind, window: ActivityWindow): Promise<number>;
}

/**
 * The activity the workspace summary counts over the last 30 days. A new kind is one entry here
 * plus each adapter's table of activity sources.
 */
export const ACTIVITY_KINDS = ['notes', 'emails', 'meetings', 'messages'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** Two ISO timestamps bounding a count of activity, both inclusive. */
export interface ActivityWindow {
  since: string;
  until: string;
}

export interface NewReport {
  id?: string;
  name: string;
  config: ReportConfig;
  created_by: string | null;
}

/** Two ISO timestamps: the start of the last 7 days and of the last 30 days. */
export interface RecentCutoffs {
  week: string;
  month: string;
}

export interface RecentCounts {
  total: number;
  week: number;
  month: number;
}
