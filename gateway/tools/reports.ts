import { z } from 'zod';
import { CHART_TYPES, METRICS, TIME_BUCKETS } from '../../src/domain/reports/types.ts';
import { CREATES, DELETES, defineTool, given, pick, READ_ONLY } from './define.ts';
import { page, pageOutput, pageSize } from './shapes.ts';

const reportId = z.string().min(1).max(100).describe('Id of a saved report, e.g. "rpt_01JD3Q2X7ZK9M4T6V8W0Y2A4C6".');
const fieldName = (what: string) => z.string().min(1).max(100).describe(what);

const config = z.strictObject({
  object_type: fieldName('Slug of the object type reported on, e.g. "deals".'),
  metric: z.enum(METRICS).describe('count, sum, avg, min or max.'),
  metric_field: fieldName('Field measured: "*" (default) counts records; sum, avg, min and max need a number, currency or rating field; count with a field counts records that have a value.').optional(),
  group_by: fieldName('Single-valued field to group by; records without a value form their own group (null).').nullable().optional(),
  time_bucket: z.enum(TIME_BUCKETS).nullable().optional().describe('day, week (ISO, from Monday), month, quarter or year, in UTC.'),
  time_field: fieldName('Date or timestamp field the buckets come from; default created_at. Needs time_bucket.').nullable().optional(),
  chart_type: z.enum(CHART_TYPES).describe('bar, stacked_bar (needs group_by and time_bucket), line and area (need time_bucket), pie and donut (need group_by), funnel (needs a status or select group_by), number (no grouping), table.'),
  filters: z.array(z.strictObject({
    field: fieldName('Field slug, or record_id / created_at / updated_at.'),
    operator: z.string().min(1).max(50).describe('An operator of records.list: eq, ne, gt, gte, lt, lte, in, not_in, contains, starts_with, ends_with, is_empty, is_not_empty.'),
    value: z.unknown().optional().describe('The operand, checked like a value of the field (an array for in / not_in; none for is_empty / is_not_empty).'),
  })).max(20).optional().describe('Conditions every record counted must meet (ANDed).'),
}).describe('Report config. Example: {"object_type": "deals", "metric": "sum", "metric_field": "amount", "group_by": "stage", "time_bucket": "month", "chart_type": "stacked_bar", "filters": [{"field": "amount", "operator": "gt", "value": 0}]}.');

const savedConfig = z.object({
  object_type: z.string(), metric: z.enum(METRICS), metric_field: z.string(), group_by: z.string().nullable(),
  time_bucket: z.enum(TIME_BUCKETS).nullable(), time_field: z.string().nullable(), chart_type: z.enum(CHART_TYPES),
  filters: z.array(z.object({ field: z.string(), operator: z.string(), value: z.unknown().optional() })),
});

const reportOutput = z.object({
  report_id: z.string(), id: z.string(), name: z.string(), config: savedConfig, created_by: z.string().nullable(),
  created_at: z.string(), updated_at: z.string(), deleted_at: z.string().nullable(),
});
const REPORT = 'report_id id name config created_by created_at updated_at deleted_at';

const runOutput = z.object({
  report_id: z.string().nullable().optional(),
  chart_type: z.enum(CHART_TYPES),
  rows: z.array(z.object({
    group: z.union([z.string(), z.number(), z.boolean()]).nullable().optional(),
    bucket: z.string().optional(),
    value: z.number().nullable(),
    count: z.number().int(),
  })),
  series: z.unknown(),
  generated_at: z.string(),
});

export const reportTools = [
  defineTool({
    name: 'reports.list',
    scope: 'reports',
    title: 'List saved reports',
    description: 'Lists the saved reports of the workspace, oldest first, one page at a time.',
    input: z.strictObject({ page, page_size: pageSize }),
    output: pageOutput(reportOutput),
    annotations: READ_ONLY,
    operation: {
      document: `query($page: Int, $page_size: Int) { reports(page: $page, page_size: $page_size) { items { ${REPORT} } total page page_size } }`,
      variables: (i) => given(i),
      result: pick('reports'),
    },
  }),
  defineTool({
    name: 'reports.get',
    scope: 'reports',
    title: 'Get a saved report',
    description: 'Returns one saved report definition with its config. Run it with reports.run.',
    input: z.strictObject({ report_id: reportId }),
    output: reportOutput,
    annotations: READ_ONLY,
    operation: { document: `query($report_id: String!) { report(report_id: $report_id) { ${REPORT} } }`, variables: (i) => i, result: pick('report') },
  }),
  defineTool({
    name: 'reports.create',
    scope: 'reports',
    title: 'Save a report',
    description: 'Saves a report definition after checking its config against the object type\'s fields (unknown fields, operators a field does not support and charts missing their grouping are refused, naming the parameter).',
    input: z.strictObject({ name: z.string().min(1).max(100).describe('Display name.'), config }),
    output: reportOutput,
    annotations: CREATES,
    operation: {
      document: `mutation($name: String!, $config: JSON!) { createReport(name: $name, config: $config) { ${REPORT} } }`,
      variables: (i) => i,
      result: pick('createReport'),
    },
  }),
  defineTool({
    name: 'reports.run',
    scope: 'reports',
    title: 'Run a report',
    description: 'Runs a saved report (report_id) or an inline config (config, not saved); the database does the counting. Answers rows ({group?, bucket?, value, count}) and the series shaped for the chart: number {value, count}; funnel [{stage, value, count, retired, conversion_to_next}] in option order, then retired options records still hold (retired: true); line/area [{bucket, value, count}] with empty buckets as 0 (with group_by, and for stacked_bar, [{group, points}]); pie/donut [{label, value, share}]; bar/table the rows.',
    input: z.strictObject({ report_id: reportId.optional(), config: config.optional() }),
    output: runOutput,
    annotations: READ_ONLY,
    operation: {
      document: 'query($report_id: String, $config: JSON) { runReport(report_id: $report_id, config: $config) { report_id chart_type rows series generated_at } }',
      variables: (i) => given(i),
      result: (data) => {
        const run = data['runReport'] as Record<string, unknown>;
        const { report_id: id, ...rest } = run;
        return id === null ? rest : run;
      },
    },
  }),
  defineTool({
    name: 'reports.delete',
    scope: 'reports',
    title: 'Delete a saved report',
    description: 'Soft-deletes a saved report; its history stays on the timeline. Members delete only reports they created.',
    input: z.strictObject({ report_id: reportId }),
    output: reportOutput,
    annotations: DELETES,
    operation: { document: `mutation($report_id: String!) { deleteReport(report_id: $report_id) { ${REPORT} } }`, variables: (i) => i, result: pick('deleteReport') },
  }),
];
