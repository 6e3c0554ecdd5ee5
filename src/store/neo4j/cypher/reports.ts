import { pagedStatement, statement, type Statement } from '../statement.ts';
import type { ActivityKind } from '../../../domain/store/port-reports.ts';
import { resourceStatements } from './resources.ts';

/**
 * Saved reports (`config` is the checked config as a JSON string; `seq` numbers a workspace's
 * reports in creation order) and the counts of the workspace summary.
 */

export const REPORT = 't {.id, .workspace_id, .name, .config, .created_by, .created_at, .updated_at, .deleted_at}';

export const REPORTS = resourceStatements('Report', REPORT);

export const CREATE_REPORT = statement('createReport', ['workspace_id', 'id', 'name', 'config', 'created_by', 'now'], `
WITH COUNT { MATCH (x:Report {workspace_id: $workspace_id}) } AS seq
CREATE (t:Report {id: $id, workspace_id: $workspace_id, name: $name, config: $config, created_by: $created_by, seq: seq,
                  created_at: $now, updated_at: $now})
RETURN t.id AS id`);

/** Live reports, oldest first (ties by id). */
export const LIST_REPORTS = pagedStatement('Reports', ['workspace_id'], `
MATCH (t:Report {workspace_id: $workspace_id})
WHERE t.deleted_at IS NULL`, { variable: 't', returns: `${REPORT} AS report`, orderBy: 't.created_at, t.id' });

/** Live records per live object type, and those created at or after the `week` and `month` cutoffs. */
export const COUNT_RECORDS_BY_TYPE = statement('countRecordsByType', ['workspace_id', 'week', 'month'], `
MATCH (o:ObjectType {workspace_id: $workspace_id})
WHERE o.deleted_at IS NULL
OPTIONAL MATCH (r:Record {object_type_id: o.id})
WHERE r.deleted_at IS NULL
WITH o, count(r) AS total, count(CASE WHEN r.created_at >= $week THEN 1 END) AS week,
     count(CASE WHEN r.created_at >= $month THEN 1 END) AS month
RETURN o.slug AS object_type_slug, total, week, month
ORDER BY o.created_at, o.id`);

/** Live tasks not done, and those of them due before `$now`. */
export const COUNT_OPEN_TASKS = statement('countOpenTasks', ['workspace_id', 'now'], `
MATCH (t:Task {workspace_id: $workspace_id})
WHERE t.deleted_at IS NULL AND t.status <> 'done'
RETURN count(t) AS open, count(CASE WHEN t.due_at IS NOT NULL AND t.due_at < $now THEN 1 END) AS overdue`);

/** Live comms of one kind whose `at` (creation, or a meeting's start) is in `[$since, $until]`. */
const recentComms = (name: string, kind: string) => statement(name, ['workspace_id', 'since', 'until'], `
MATCH (t:Comm {workspace_id: $workspace_id, kind: '${kind}'})
WHERE t.deleted_at IS NULL AND t.at >= $since AND t.at <= $until
RETURN count(t) AS n`);

/** One count per kind of activity: live items that happened in `[$since, $until]`. */
export const COUNT_ACTIVITY: { readonly [K in ActivityKind]: Statement<'workspace_id' | 'since' | 'until'> } = {
  notes: statement('countRecentNotes', ['workspace_id', 'since', 'until'], `
MATCH (t:Note {workspace_id: $workspace_id})
WHERE t.deleted_at IS NULL AND t.created_at >= $since AND t.created_at <= $until
RETURN count(t) AS n`),
  emails: recentComms('countRecentEmails', 'email'),
  meetings: recentComms('countRecentMeetings', 'meeting'),
  messages: recentComms('countRecentMessages', 'message'),
};
