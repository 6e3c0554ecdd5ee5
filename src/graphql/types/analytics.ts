import type { PipelineStage, WorkspaceSummary } from '../../domain/services/analytics.ts';
import { builder } from '../builder.ts';

/** Pipeline numbers and the workspace summary: read-only queries. */

const PipelineStageRef = builder.objectRef<PipelineStage>('PipelineStage').implement({
  fields: (t) => ({
    stage: t.exposeString('stage'),
    count: t.exposeInt('count'),
    value: t.exposeFloat('value'),
    retired: t.exposeBoolean('retired', { description: 'An option the stage field no longer offers, which records still hold; retired stages come after the offered ones.' }),
    conversion_to_next: t.exposeFloat('conversion_to_next', { nullable: true }),
  }),
});

type Pipeline = { stages: PipelineStage[]; total_count: number; total_value: number };

const PipelineRef = builder.objectRef<Pipeline>('Pipeline').implement({
  description: 'Records (or list entries) per stage, in the stage field\'s option order, with their summed value.',
  fields: (t) => ({
    stages: t.expose('stages', { type: [PipelineStageRef] }),
    total_count: t.exposeInt('total_count'),
    total_value: t.exposeFloat('total_value'),
  }),
});

type Recent = WorkspaceSummary['records'];
const RecentRef = builder.objectRef<Recent>('RecentRecords').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    created_last_7_days: t.exposeInt('created_last_7_days'),
    created_last_30_days: t.exposeInt('created_last_30_days'),
  }),
});

const TypeCountRef = builder.objectRef<WorkspaceSummary['object_types'][number]>('ObjectTypeCount').implement({
  fields: (t) => ({
    object_type_slug: t.exposeString('object_type_slug'),
    records: t.exposeInt('records'),
    created_last_7_days: t.exposeInt('created_last_7_days'),
    created_last_30_days: t.exposeInt('created_last_30_days'),
  }),
});

const TaskCountRef = builder.objectRef<WorkspaceSummary['tasks']>('TaskCounts').implement({
  fields: (t) => ({ open: t.exposeInt('open'), overdue: t.exposeInt('overdue') }),
});

const SummaryRef = builder.objectRef<WorkspaceSummary>('WorkspaceSummary').implement({
  fields: (t) => ({
    generated_at: t.exposeString('generated_at'),
    records: t.expose('records', { type: RecentRef }),
    object_types: t.expose('object_types', { type: [TypeCountRef] }),
    tasks: t.expose('tasks', { type: TaskCountRef }),
    activity_last_30_days: t.expose('activity_last_30_days', { type: 'JSON', description: 'Counts per kind of activity in the last 30 days, e.g. {"notes": 12, "emails": 4, "meetings": 2, "messages": 7}.' }),
  }),
});

builder.queryFields((t) => ({
  pipeline: t.field({
    type: PipelineRef,
    authScopes: { tool: 'analytics' },
    args: { object_type_slug: t.arg.string(), stage_field: t.arg.string(), value_field: t.arg.string(), list_id: t.arg.string() },
    resolve: (_r, args, ctx) => ctx.services.analytics.pipeline({
      ...(args.object_type_slug ? { object_type_slug: args.object_type_slug } : {}),
      ...(args.stage_field ? { stage_field: args.stage_field } : {}),
      ...(args.value_field ? { value_field: args.value_field } : {}),
      ...(args.list_id ? { list_id: args.list_id } : {}),
    }),
  }),
  summary: t.field({
    type: SummaryRef,
    authScopes: { tool: 'analytics' },
    resolve: (_r, _args, ctx) => ctx.services.analytics.summary(),
  }),
}));
