import { z } from 'zod';
import { TASK_STATUSES } from '../../src/domain/types.ts';
import { CREATES, DELETES, defineTool, given, pick, READ_ONLY, UPDATES } from './define.ts';
import { LIMITS } from '../../src/domain/limits.ts';
import { id, page, pageOutput, text, token, pageSize, RELATED_SELECTION, recordIds, relatedRecordOutput } from './shapes.ts';

const taskId = id('a task', 'tsk');
const status = z.enum(TASK_STATUSES).describe('open, in_progress or done.');
const due = token().describe('A date ("2026-12-01", meaning the end of that day UTC) or an ISO-8601 timestamp with a time zone.');
const assignee = z.string().min(1).max(LIMITS.idMaxLength).describe('User id of the assignee. Default: the caller.');

const taskOutput = z.object({
  task_id: z.string(),
  id: z.string(),
  title: z.string(),
  body: z.string(),
  status: z.enum(TASK_STATUSES),
  due_at: z.string().nullable(),
  overdue: z.boolean(),
  assignee_id: z.string().nullable(),
  assignee: z.object({ user_id: z.string(), email: z.string(), name: z.string().nullable() }).nullable(),
  record_ids: z.array(z.string()),
  records: z.array(relatedRecordOutput),
  created_by: z.string().nullable(),
  completed_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});
const TASK = `task_id id title body status due_at overdue assignee_id assignee { user_id email name } record_ids
  records { ${RELATED_SELECTION} } created_by completed_at created_at updated_at deleted_at`;

export const taskTools = [
  defineTool({
    name: 'tasks.list',
    scope: 'tasks',
    title: 'List tasks',
    description: 'Lists tasks by due date (no due date last), filtered by assignee, status, due window and linked record. Example (my overdue work): {"assignee_id": "usr_…", "status": ["open", "in_progress"], "due_before": "2026-11-22"}.',
    input: z.strictObject({
      assignee_id: z.string().min(1).max(LIMITS.idMaxLength).optional().describe('Only tasks assigned to this user.'),
      status: z.union([status, z.array(status).min(1)]).optional().describe('One status or several.'),
      due_before: due.optional().describe('Due on or before this date or time.'),
      due_after: due.optional().describe('Due on or after this date or time.'),
      record_id: z.string().min(1).max(LIMITS.idMaxLength).optional().describe('Only tasks linked to this record.'),
      page,
      page_size: pageSize,
    }),
    output: pageOutput(taskOutput),
    annotations: READ_ONLY,
    operation: {
      document: `query($assignee_id: String, $status: [TaskStatus!], $due_before: String, $due_after: String, $record_id: String, $page: Int, $page_size: Int) {
        tasks(assignee_id: $assignee_id, status: $status, due_before: $due_before, due_after: $due_after, record_id: $record_id, page: $page, page_size: $page_size) {
          items { ${TASK} } total page page_size } }`,
      variables: (i) => given({ ...i, status: i.status === undefined ? undefined : [i.status].flat() }),
      result: pick('tasks'),
    },
  }),
  defineTool({
    name: 'tasks.get',
    scope: 'tasks',
    title: 'Get a task',
    description: 'Returns one task with full details: linked records with display names, the assignee, and whether it is overdue. Example: {"task_id": "tsk_…"}.',
    input: z.strictObject({ task_id: taskId }),
    output: taskOutput,
    annotations: READ_ONLY,
    operation: { document: `query($task_id: String!) { task(task_id: $task_id) { ${TASK} } }`, variables: (i) => i, result: pick('task') },
  }),
  defineTool({
    name: 'tasks.create',
    scope: 'tasks',
    title: 'Create a task',
    description: 'Creates a task, assigned to the caller unless assignee_id is given, optionally due and linked to records. Example: {"title": "Send proposal", "due_at": "2026-12-01", "record_ids": ["rec_…"]}.',
    input: z.strictObject({
      title: z.string().min(1).max(200).describe('What to do.'),
      body: text(LIMITS.stringMaxLength).optional().describe('Details.'),
      status: status.optional(),
      due_at: due.nullable().optional(),
      assignee_id: assignee.nullable().optional(),
      record_ids: recordIds.optional(),
    }),
    output: taskOutput,
    annotations: CREATES,
    operation: {
      document: `mutation($title: String!, $body: String, $status: TaskStatus, $due_at: String, $assignee_id: String, $record_ids: [String!]) {
        createTask(title: $title, body: $body, status: $status, due_at: $due_at, assignee_id: $assignee_id, record_ids: $record_ids) { ${TASK} } }`,
      variables: (i) => given(i),
      result: pick('createTask'),
    },
  }),
  defineTool({
    name: 'tasks.update',
    scope: 'tasks',
    title: 'Update a task',
    description: 'Changes a task: {"task_id": "tsk_…", "status": "done"} completes it; due_at null clears the due date; record_ids, when given, replaces the links. Example: {"task_id": "tsk_…", "due_at": "2026-12-15", "assignee_id": "usr_…"}.',
    input: z.strictObject({
      task_id: taskId, title: z.string().min(1).max(200).optional(), body: text(LIMITS.stringMaxLength).optional(), status: status.optional(),
      due_at: due.nullable().optional(), assignee_id: assignee.nullable().optional(), record_ids: recordIds.optional(),
    }),
    output: taskOutput,
    annotations: UPDATES,
    operation: {
      document: `mutation($task_id: String!, $title: String, $body: String, $status: TaskStatus, $due_at: String, $assignee_id: String, $record_ids: [String!]) {
        updateTask(task_id: $task_id, title: $title, body: $body, status: $status, due_at: $due_at, assignee_id: $assignee_id, record_ids: $record_ids) { ${TASK} } }`,
      variables: (i) => given(i),
      result: pick('updateTask'),
    },
  }),
  defineTool({
    name: 'tasks.delete',
    scope: 'tasks',
    title: 'Delete a task',
    description: 'Soft-deletes a task; its delete event stays on the timeline. Example: {"task_id": "tsk_…"}.',
    input: z.strictObject({ task_id: taskId }),
    output: taskOutput,
    annotations: DELETES,
    operation: { document: `mutation($task_id: String!) { deleteTask(task_id: $task_id) { ${TASK} } }`, variables: (i) => i, result: pick('deleteTask') },
  }),
];
