import type { TaskView } from '../../domain/services/tasks.ts';
import { TASK_STATUSES } from '../../domain/types.ts';
import { builder } from '../builder.ts';
import { pageType } from './page.ts';
import { RelatedRecordRef } from './record.ts';

/** Tasks: type, queries and mutations together. */

const TaskStatusEnum = builder.enumType('TaskStatus', { values: TASK_STATUSES });

const AssigneeRef = builder.objectRef<NonNullable<TaskView['assignee']>>('Assignee').implement({
  fields: (t) => ({ user_id: t.exposeString('user_id'), email: t.exposeString('email'), name: t.exposeString('name', { nullable: true }) }),
});

export const TaskRef = builder.objectRef<TaskView>('Task').implement({
  description: 'A task with a status, a due date, an assignee and linked records.',
  fields: (t) => ({
    task_id: t.exposeString('task_id'),
    id: t.exposeString('id'),
    title: t.exposeString('title'),
    body: t.exposeString('body'),
    status: t.expose('status', { type: TaskStatusEnum }),
    due_at: t.exposeString('due_at', { nullable: true }),
    overdue: t.exposeBoolean('overdue'),
    assignee_id: t.exposeString('assignee_id', { nullable: true }),
    assignee: t.expose('assignee', { type: AssigneeRef, nullable: true }),
    record_ids: t.exposeStringList('record_ids'),
    records: t.expose('records', { type: [RelatedRecordRef] }),
    created_by: t.exposeString('created_by', { nullable: true }),
    completed_at: t.exposeString('completed_at', { nullable: true }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
    deleted_at: t.exposeString('deleted_at', { nullable: true }),
  }),
});

const TaskPageRef = pageType('TaskPage', TaskRef);

builder.queryFields((t) => ({
  tasks: t.field({
    type: TaskPageRef,
    authScopes: { tool: 'tasks' },
    args: {
      assignee_id: t.arg.string(), status: t.arg({ type: [TaskStatusEnum] }), due_before: t.arg.string(), due_after: t.arg.string(),
      record_id: t.arg.string(), page: t.arg.int(), page_size: t.arg.int(),
    },
    resolve: (_r, args, ctx) => ctx.services.tasks.list({
      assignee_id: args.assignee_id ?? undefined, status: args.status ?? undefined, due_before: args.due_before ?? undefined,
      due_after: args.due_after ?? undefined, record_id: args.record_id ?? undefined, page: args.page ?? undefined, page_size: args.page_size ?? undefined,
    }),
  }),
  task: t.field({
    type: TaskRef,
    authScopes: { tool: 'tasks' },
    args: { task_id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.tasks.get(args.task_id),
  }),
}));

builder.mutationFields((t) => ({
  createTask: t.field({
    type: TaskRef,
    authScopes: { tool: 'tasks' },
    args: {
      title: t.arg.string({ required: true }), body: t.arg.string(), status: t.arg({ type: TaskStatusEnum }), due_at: t.arg.string(),
      assignee_id: t.arg.string(), record_ids: t.arg.stringList(),
    },
    resolve: (_r, args, ctx) => ctx.services.tasks.create({
      title: args.title, body: args.body ?? undefined, status: args.status ?? undefined, due_at: args.due_at,
      assignee_id: args.assignee_id, record_ids: args.record_ids ?? undefined,
    }),
  }),
  updateTask: t.field({
    type: TaskRef,
    authScopes: { tool: 'tasks' },
    args: {
      task_id: t.arg.string({ required: true }), title: t.arg.string(), body: t.arg.string(), status: t.arg({ type: TaskStatusEnum }),
      due_at: t.arg.string(), assignee_id: t.arg.string(), record_ids: t.arg.stringList(),
    },
    resolve: (_r, args, ctx) => ctx.services.tasks.update({
      task_id: args.task_id, title: args.title ?? undefined, body: args.body ?? undefined, status: args.status ?? undefined,
      due_at: args.due_at, assignee_id: args.assignee_id, record_ids: args.record_ids ?? undefined,
    }),
  }),
  deleteTask: t.field({
    type: TaskRef,
    authScopes: { tool: 'tasks' },
    args: { task_id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.tasks.delete(args.task_id),
  }),
}));
