import type { Task } from '../../domain/types.ts';
import type { NewEvent, NewTask, TaskPatch, TaskQuery } from '../../domain/store/port-work.ts';
import { insertSql, type Connection } from './connection.ts';
import { linkedTo, setLinks, TASK_LINKS, withLinks } from './record-links.ts';
import { pageRows, resourceRows, when, whereAll } from './resources.ts';
import { idFor, now } from './rows.ts';
import { withEvents } from './timeline.ts';

export const TASK_COLUMNS =
  't.id, t.workspace_id, t.title, t.body, t.status, t.due_at, t.assignee_id, t.created_by, t.completed_at, t.created_at, t.updated_at, t.deleted_at';
type TaskRow = Omit<Task, 'record_ids'>;

/** Writes a task's row as given, without its links (create and load alike). */
export function insertTaskRow(c: Connection, task: TaskRow): void {
  c.run(
    insertSql('tasks', 'id, workspace_id, title, body, status, due_at, assignee_id, completed_at, created_by, created_at, updated_at, deleted_at'),
    task.id, task.workspace_id, task.title, task.body, task.status, task.due_at, task.assignee_id, task.completed_at, task.created_by,
    task.created_at, task.updated_at, task.deleted_at,
  );
}

/** Synchronous task methods of the Store: tasks and their record links (task_records). */
export function taskMethods(c: Connection) {
  const tasks = resourceRows(c, {
    table: 'tasks', kind: 'task', columns: TASK_COLUMNS, toEntity: (row: TaskRow): Task => withLinks(c, TASK_LINKS, [row])[0]!,
  });

  return {
    createTask(workspaceId: string, input: NewTask, events: NewEvent[]): Task {
      return withEvents(c, workspaceId, events, () => {
        const id = idFor('task', input);
        const at = now();
        insertTaskRow(c, {
          id, workspace_id: workspaceId, title: input.title, body: input.body, status: input.status, due_at: input.due_at,
          assignee_id: input.assignee_id, completed_at: input.status === 'done' ? at : null, created_by: input.created_by,
          created_at: at, updated_at: at, deleted_at: null,
        });
        setLinks(c, TASK_LINKS, workspaceId, id, input.record_ids);
        return tasks.find(workspaceId, id)!;
      });
    },

    getTask(workspaceId: string, taskId: string): Task | null {
      return tasks.find(workspaceId, taskId) ?? null;
    },

    /** Due first (no due date last), then by creation, then id. Due bounds never match a task without a due date. */
    listTasks(workspaceId: string, query: TaskQuery): { items: Task[]; total: number } {
      const from = whereAll('tasks t', [
        { sql: 't.workspace_id = ? AND t.deleted_at IS NULL', params: [workspaceId] },
        when(query.assignee_id, 't.assignee_id = ?'),
        when(query.status && JSON.stringify(query.status), 't.status IN (SELECT value FROM json_each(?))'),
        when(query.due_after, 't.due_at >= ?'),
        when(query.due_before, 't.due_at <= ?'),
        linkedTo(TASK_LINKS, query.record_id),
      ]);
      const { rows, total } = pageRows<TaskRow>(c, TASK_COLUMNS, from, 't.due_at IS NULL, t.due_at, t.created_at, t.id', query);
      return { items: withLinks(c, TASK_LINKS, rows), total };
    },

    /** completed_at is set when the status becomes done (kept while it stays done) and cleared otherwise. */
    updateTask(workspaceId: string, taskId: string, patch: TaskPatch, events: NewEvent[]): Task {
      return tasks.update(workspaceId, taskId, events, (before) => ({
        title: patch.title, body: patch.body, status: patch.status, due_at: patch.due_at, assignee_id: patch.assignee_id,
        completed_at: patch.status === undefined ? undefined : patch.status !== 'done' ? null : before.completed_at ?? now(),
      }), () => {
        if (patch.record_ids !== undefined) setLinks(c, TASK_LINKS, workspaceId, taskId, patch.record_ids);
      });
    },

    deleteTask(workspaceId: string, taskId: string, events: NewEvent[]): Task {
      return tasks.softDelete(workspaceId, taskId, events);
    },
  };
}
