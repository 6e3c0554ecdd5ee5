import { z } from 'zod';
import { defineTool, given, pick, READ_ONLY } from './define.ts';
import { listId, slug } from './shapes.ts';

const recent = { created_last_7_days: z.number().int(), created_last_30_days: z.number().int() };

export const analyticsTools = [
  defineTool({
    name: 'analytics.pipeline',
    scope: 'analytics',
    title: 'Pipeline by stage',
    description: 'Counts and values records per stage, in the stage field\'s option order, empty stages included, then any retired option records still hold (retired: true). Defaults: deals by stage, valued by amount. With list_id, the stages are the list\'s own status field over its entries. conversion_to_next is the next stage\'s count divided by this stage\'s (null for the last stage or an empty one).',
    input: z.strictObject({
      object_type_slug: slug('Object type; default "deals"').optional(),
      stage_field: z.string().min(1).max(100).optional().describe('A status or select field whose options are the stages; default "stage" (or the first status field).'),
      value_field: z.string().min(1).max(100).optional().describe('A number, currency or rating field of the records summed per stage; default "amount" when there is one.'),
      list_id: listId.optional().describe('A list: stages from the list\'s own status field, counted over its entries.'),
    }),
    output: z.object({
      stages: z.array(z.object({ stage: z.string(), count: z.number().int(), value: z.number(), retired: z.boolean(), conversion_to_next: z.number().nullable() })),
      total_count: z.number().int(),
      total_value: z.number(),
    }),
    annotations: READ_ONLY,
    operation: {
      document: `query($object_type_slug: String, $stage_field: String, $value_field: String, $list_id: String) {
        pipeline(object_type_slug: $object_type_slug, stage_field: $stage_field, value_field: $value_field, list_id: $list_id) {
          stages { stage count value retired conversion_to_next } total_count total_value } }`,
      variables: (i) => given(i),
      result: pick('pipeline'),
    },
  }),
  defineTool({
    name: 'analytics.summary',
    scope: 'analytics',
    title: 'Workspace summary',
    description: 'Counts at a glance: records in total and per object type, created in the last 7 and 30 days; open and overdue tasks; activity in the last 30 days: notes, emails and messages made then, meetings that started then (not those still to come).',
    input: z.strictObject({}),
    output: z.object({
      generated_at: z.string(),
      records: z.object({ total: z.number().int(), ...recent }),
      object_types: z.array(z.object({ object_type_slug: z.string(), records: z.number().int(), ...recent })),
      tasks: z.object({ open: z.number().int(), overdue: z.number().int() }),
      activity_last_30_days: z.record(z.string(), z.number().int()),
    }),
    annotations: READ_ONLY,
    operation: {
      document: `query { summary { generated_at records { total created_last_7_days created_last_30_days }
        object_types { object_type_slug records created_last_7_days created_last_30_days } tasks { open overdue } activity_last_30_days } }`,
      variables: () => ({}),
      result: pick('summary'),
    },
  }),
];
