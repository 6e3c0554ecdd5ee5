import { longerThan } from '../fields/checks.ts';
import type { Store } from '../store/port.ts';
import type { TaskPatch } from '../store/port-work.ts';
import { canWriteAll, type Actor } from '../actor.ts';
import { CrmError, validationError } from '../errors.ts';
import { dayOrTimestamp } from '../fields.ts';
import { newId } from '../ids.ts';
import type { StoredRecord, Task, TaskStatus } from '../types.ts';
import { created, diffOf, eventFor } from './events.ts';
import { requireIdOf, requireName } from './inputs.ts';
import { NOTE_BODY_MAX } from './notes.ts';
import { paging, type RecordService, type RelatedRecordView } from './records.ts';
import { attachedRecords, keptOrLiveRecords, requireRecords } from './references.ts';

export interface TaskView extends Omit<Task, 'workspace_id'> {
  task_id: string;
  records: RelatedRecordView[];
  assignee: { user_id: string; email: string; name: string | null } | null;
  /** Due before now and not done. */
  overdue: boolean;
}

/** What callers may set on a task; the same shape as a patch. */
export type TaskInput = TaskPatch;

/**
 * A due date alone (`2026-12-01`) means the end of that day in UTC, so a task due today is not
 * overdue before the day is over (as a lower bound, `start`, it means the day's first instant); a
 * timestamp is kept as given, in UTC.
 */
export function normaliseDue(value: string, param: string, dayEdge: 'start' | 'end' = 'end'): string {
  const due = dayOrTimestamp(value, dayEdge);
  if (due === null) {
    throw validationError(param, `${param} must be a date (2026-12-01) or an ISO-8601 timestamp with a time zone, got ${JSON.stringify(value)}`, { rule: 'format' });
  }
  return due;
}

/**
 * Tasks with a status, a due date, an assignee and linked records. A Member writes only tasks
 * assigned to them, on records assigned to them, and cannot hand a task to someone else.
 */
export class TaskService {
  constructor(private readonly store: Store, private readonly actor: Actor, private readonly records: RecordService) {}

  private get ws(): string {
    return this.actor.workspace_id;
  }

  async list(input: { assignee_id?: string; status?: TaskStatus | TaskStatus[]; due_before?: string; due_after?: string; record_id?: string; page?: number; page_size?: number }) {
    const { page, pageSize } = paging(input.page, input.page_size);
    const status = input.status === undefined ? undefined : Array.isArray(input.status) ? input.status : [input.status];
    const { items, total } = await this.store.listTasks(this.ws, {
      ...(input.assignee_id ? { assignee_id: requireIdOf('user', input.assignee_id, 'assignee_id') } : {}),
      ...(status ? { status } : {}),
      ...(input.due_before ? { due_before: normaliseDue(input.due_before, 'due_before') } : {}),
      ...(input.due_after ? { due_after: normaliseDue(input.due_after, 'due_after', 'start') } : {}),
      ...(input.record_id ? { record_id: requireIdOf('record', input.record_id, 'record_id') } : {}),
      offset: (page - 1) * pageSize, limit: pageSize,
    });
    return { items: await this.views(items), total, page, page_size: pageSize };
  }

  async get(taskId: string): Promise<TaskView> {
    return (await this.views([await this.load(taskId)]))[0]!;
  }

  async create(input: TaskInput): Promise<TaskView> {
    const title = requireName(input.title ?? '', 'title', 200);
    const body = input.body ?? '';
    if (longerThan(body, NOTE_BODY_MAX)) throw validationError('body', `body must be at most ${NOTE_BODY_MAX} characters`, { rule: 'max_length' });
    const assignee = input.assignee_id === undefined ? this.actor.user_id : input.assignee_id;
    await this.checkAssignee(assignee);
    const recordIds = [...new Set(input.record_ids ?? [])];
    this.assertOnRecords(await requireRecords(this.store, this.ws, recordIds, 'record_ids'));
    const id = newId('task');
    const values = {
      title, body, status: input.status ?? 'open', due_at: input.due_at === undefined || input.due_at === null ? null : normaliseDue(input.due_at, 'due_at'),
      assignee_id: assignee, record_ids: recordIds,
    } as const;
    const task = await this.store.createTask(this.ws, { id, ...values, record_ids: [...recordIds], created_by: this.actor.user_id },
      [eventFor(this.actor, 'create', 'task', id, recordIds, created({ ...values }))]);
    return (await this.views([task]))[0]!;
  }

  async update(input: TaskInput & { task_id: string }): Promise<TaskView> {
    const task = await this.load(input.task_id);
    this.assertAssigned(task);
    await this.assertOnAttached(task);
    const patch: TaskPatch = {};
    if (input.title !== undefined) patch.title = requireName(input.title, 'title', 200);
    if (input.body !== undefined) patch.body = input.body;
    if (input.status !== undefined) patch.status = input.status;
    if (input.due_at !== undefined) patch.due_at = input.due_at === null ? null : normaliseDue(input.due_at, 'due_at');
    if (input.assignee_id !== undefined) {
      await this.checkAssignee(input.assignee_id);
      patch.assignee_id = input.assignee_id;
    }
    if (input.record_ids !== undefined) {
      patch.record_ids = [...new Set(input.record_ids)];
      this.assertOnRecords(await keptOrLiveRecords(this.store, this.ws, patch.record_ids, task.record_ids, 'record_ids'));
    }
    if (!Object.keys(patch).length) throw validationError('title', 'give title, body, status, due_at, assignee_id or record_ids to change', { rule: 'required' });
    const before = { title: task.title, body: task.body, status: task.status, due_at: task.due_at, assignee_id: task.assignee_id, record_ids: task.record_ids };
    const changes = diffOf(before, { ...before, ...patch });
    const events = changes ? [eventFor(this.actor, 'update', 'task', task.id, [...task.record_ids, ...(patch.record_ids ?? [])], changes)] : [];
    return (await this.views([await this.store.updateTask(this.ws, task.id, patch, events)]))[0]!;
  }

  async delete(taskId: string): Promise<TaskView> {
    const task = await this.load(taskId);
    this.assertAssigned(task);
    await this.assertOnAttached(task);
    const deleted = await this.store.deleteTask(this.ws, task.id, [eventFor(this.actor, 'delete', 'task', task.id, task.record_ids, { title: { before: task.title } })]);
    return (await this.views([deleted]))[0]!;
  }

  private async load(taskId: string): Promise<Task> {
    const task = await this.store.getTask(this.ws, taskId);
    if (!task) throw new CrmError('not_found', `task_id ${JSON.stringify(taskId)}: no such task`, { param: 'task_id', resource: 'task', id: taskId });
    return task;
  }

  private async checkAssignee(assignee: string | null): Promise<void> {
    if (!canWriteAll(this.actor) && assignee !== this.actor.user_id) {
      throw new CrmError('permission_denied', 'a member may only assign tasks to themselves', { param: 'assignee_id' });
    }
    if (assignee !== null && !(await this.store.getUser(this.ws, assignee))) {
      throw validationError('assignee_id', `assignee_id ${JSON.stringify(assignee)} is not a user of this workspace`, { rule: 'user_not_found' });
    }
  }

  private assertAssigned(task: Task): void {
    if (canWriteAll(this.actor) || task.assignee_id === this.actor.user_id) return;
    throw new CrmError('permission_denied', `a member may only change tasks assigned to them; ${task.id} is not`, { param: 'task_id' });
  }

  /** The Member rule for a task as it stands: every record it is on (in the trash too) is theirs. */
  private async assertOnAttached(task: Task): Promise<void> {
    if (!canWriteAll(this.actor)) this.assertOnRecords(await attachedRecords(this.store, this.ws, task.record_ids));
  }

  private assertOnRecords(records: StoredRecord[]): void {
    if (canWriteAll(this.actor)) return;
    const foreign = records.find((r) => r.assignee_id !== this.actor.user_id);
    if (foreign) {
      throw new CrmError('permission_denied', `a member may only put tasks on records assigned to them; ${foreign.id} is not`, { param: 'record_ids', record_id: foreign.id });
    }
  }

  private async views(tasks: Task[]): Promise<TaskView[]> {
    const summaries = await this.records.summaries(tasks.flatMap((t) => t.record_ids));
    // Only the assignees on this page: a workspace may have many more members than a page has tasks.
    const assignees = [...new Set(tasks.flatMap((t) => (t.assignee_id ? [t.assignee_id] : [])))];
    const users = new Map((await this.store.getUsers(this.ws, assignees)).map((u) => [u.id, u]));
    const now = Date.now();
    return tasks.map((task) => {
      const { workspace_id: _ws, ...rest } = task;
      const user = task.assignee_id ? users.get(task.assignee_id) : undefined;
      return {
        task_id: task.id, ...rest,
        records: task.record_ids.flatMap((id) => summaries.get(id) ?? []),
        assignee: user ? { user_id: user.id, email: user.email, name: user.name } : null,
        overdue: task.status !== 'done' && task.due_at !== null && Date.parse(task.due_at) < now,
      };
    });
  }
}
