import { pagedStatement, statement } from '../statement.ts';
import { LINKED, linkableRecords, replaceLinks, resourceStatements } from './resources.ts';

/** Tasks, `(:Task)-[:ABOUT {position}]->(:Record)`. `due_at` is an ISO timestamp (UTC) or absent. */

export const TASK = `t {.id, .workspace_id, .title, .body, .status, .due_at, .assignee_id, .created_by, .completed_at, .created_at,
   .updated_at, .deleted_at, ${LINKED}}`;

export const TASKS = resourceStatements('Task', TASK);

export const TASK_LINKS = { replace: replaceLinks('Task'), linkable: linkableRecords('Task') };

export const CREATE_TASK = statement(
  'createTask',
  ['workspace_id', 'id', 'title', 'body', 'status', 'due_at', 'assignee_id', 'completed_at', 'created_by', 'now'],
  `
CREATE (t:Task {id: $id, workspace_id: $workspace_id, title: $title, body: $body, status: $status, due_at: $due_at,
                assignee_id: $assignee_id, completed_at: $completed_at, created_by: $created_by, created_at: $now,
                updated_at: $now})
RETURN t.id AS id`,
);

/**
 * Live tasks matching every given criterion (a null parameter is no criterion). Due bounds are
 * inclusive and never match a task without a due date (a comparison with null is not true).
 */
const MATCHING = `WHERE t.deleted_at IS NULL
  AND ($assignee_id IS NULL OR t.assignee_id = $assignee_id)
  AND ($statuses IS NULL OR t.status IN $statuses)
  AND ($due_after IS NULL OR t.due_at >= $due_after)
  AND ($due_before IS NULL OR t.due_at <= $due_before)`;
const CRITERIA = ['workspace_id', 'assignee_id', 'statuses', 'due_after', 'due_before'] as const;

/** Due first (no due date last), then by creation, then id. */
const SHAPE = { variable: 't', returns: `${TASK} AS task`, orderBy: 't.due_at IS NULL, t.due_at, t.created_at, t.id' };

/** A workspace's tasks. */
export const TASK_PAGE = pagedStatement('Tasks', CRITERIA, `MATCH (t:Task {workspace_id: $workspace_id})\n${MATCHING}`, SHAPE);

/** The tasks linked to one record, walked from the record. */
export const RECORD_TASK_PAGE = pagedStatement(
  'RecordTasks', [...CRITERIA, 'record_id'], `MATCH (:Record {id: $record_id, workspace_id: $workspace_id})<-[:ABOUT]-(t:Task)\n${MATCHING}`, SHAPE,
);
