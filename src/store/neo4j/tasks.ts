import { notFound } from '../../domain/errors.ts';
import type { Task } from '../../domain/types.ts';
import type { NewEvent, NewTask, TaskPatch, TaskQuery } from '../../domain/store/port-work.ts';
import type { Connection } from './connection.ts';
import * as Q from './cypher/tasks.ts';
import { readPage } from './pages.ts';
import { ResourceKind, setLinks } from './resources.ts';
import { props, toTask } from './rows.ts';
import { definedOnly } from './settings.ts';
import { idFor, now } from './stamps.ts';
import { bind, bindPageAbout } from './statement.ts';
import { writeWithEvents } from './timeline.ts';

const TASKS = new ResourceKind(Q.TASKS, 'task', toTask);

/** Task methods of the Store: tasks and their record links (ABOUT edges). */
export function taskMethods(conn: Connection) {
  return {
    async createTask(workspaceId: string, input: NewTask, events: NewEvent[]): Promise<Task> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const id = idFor('task', input);
        const at = now();
        await tx.rows(bind(Q.CREATE_TASK, {
          workspace_id: workspaceId, id, title: input.title, body: input.body, status: input.status, due_at: input.due_at,
          assignee_id: input.assignee_id, completed_at: input.status === 'done' ? at : null, created_by: input.created_by, now: at,
        }));
        await setLinks(tx, Q.TASK_LINKS, workspaceId, id, input.record_ids);
        return (await TASKS.find(tx, workspaceId, id))!;
      });
    },

    getTask: (workspaceId: string, taskId: string): Promise<Task | null> => TASKS.get(conn, workspaceId, taskId),

    /** Due first (no due date last), then by creation, then id. */
    async listTasks(workspaceId: string, query: TaskQuery): Promise<{ items: Task[]; total: number }> {
      const scope = {
        workspace_id: workspaceId, assignee_id: query.assignee_id ?? null, statuses: query.status ?? null,
        due_after: query.due_after ?? null, due_before: query.due_before ?? null,
      };
      const statements = bindPageAbout(Q.TASK_PAGE, Q.RECORD_TASK_PAGE, scope, query);
      const { rows, total } = await conn.read((tx) => readPage(tx, statements));
      return { items: rows.map((row) => toTask(props(row, 'task')!)), total };
    },

    /** completed_at is set when the status becomes done (kept while it stays done) and cleared otherwise. */
    async updateTask(workspaceId: string, taskId: string, patch: TaskPatch, events: NewEvent[]): Promise<Task> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const before = await TASKS.find(tx, workspaceId, taskId);
        if (!before) throw notFound('task', taskId);
        const at = now();
        const completedAt = patch.status === undefined ? undefined : patch.status !== 'done' ? null : before.completed_at ?? at;
        await TASKS.patch(tx, workspaceId, taskId, definedOnly({
          title: patch.title, body: patch.body, status: patch.status, due_at: patch.due_at, assignee_id: patch.assignee_id,
          completed_at: completedAt,
        }), at);
        if (patch.record_ids !== undefined) await setLinks(tx, Q.TASK_LINKS, workspaceId, taskId, patch.record_ids);
        return (await TASKS.find(tx, workspaceId, taskId))!;
      });
    },

    deleteTask: (workspaceId: string, taskId: string, events: NewEvent[]): Promise<Task> => TASKS.softDelete(conn, workspaceId, taskId, events),
  };
}
