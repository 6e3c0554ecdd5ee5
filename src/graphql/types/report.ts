import type { ReportRun, ReportView } from '../../domain/services/reports.ts';
import { builder } from '../builder.ts';
import { pageType } from './page.ts';

/** Saved reports and running them: type, queries and mutations together. */

export const ReportRef = builder.objectRef<ReportView>('Report').implement({
  description: 'A saved report definition: a metric over an object type, grouped, bucketed and filtered as its config says.',
  fields: (t) => ({
    report_id: t.exposeString('report_id'),
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    config: t.expose('config', { type: 'JSON' }),
    created_by: t.exposeString('created_by', { nullable: true }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
    deleted_at: t.exposeString('deleted_at', { nullable: true }),
  }),
});

const ReportPageRef = pageType('ReportPage', ReportRef);

/** Rows and series vary in shape with the chart type, so they travel as JSON. */
const ReportRunRef = builder.objectRef<ReportRun>('ReportRun').implement({
  description: 'The answer of a report: rows ({group?, bucket?, value, count}) and the series shaped for its chart type.',
  fields: (t) => ({
    report_id: t.exposeString('report_id', { nullable: true }),
    chart_type: t.exposeString('chart_type'),
    rows: t.expose('rows', { type: 'JSON' }),
    series: t.expose('series', { type: 'JSON' }),
    generated_at: t.exposeString('generated_at'),
  }),
});

builder.queryFields((t) => ({
  reports: t.field({
    type: ReportPageRef,
    authScopes: { tool: 'reports' },
    args: { page: t.arg.int(), page_size: t.arg.int() },
    resolve: (_r, args, ctx) => ctx.services.reports.list({ page: args.page ?? undefined, page_size: args.page_size ?? undefined }),
  }),
  report: t.field({
    type: ReportRef,
    authScopes: { tool: 'reports' },
    args: { report_id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.reports.get(args.report_id),
  }),
  runReport: t.field({
    type: ReportRunRef,
    authScopes: { tool: 'reports' },
    args: { report_id: t.arg.string(), config: t.arg({ type: 'JSON' }) },
    resolve: (_r, args, ctx) => ctx.services.reports.run({ report_id: args.report_id, config: args.config }),
  }),
}));

builder.mutationFields((t) => ({
  createReport: t.field({
    type: ReportRef,
    authScopes: { tool: 'reports' },
    args: { name: t.arg.string({ required: true }), config: t.arg({ type: 'JSON', required: true }) },
    resolve: (_r, args, ctx) => ctx.services.reports.create({ name: args.name, config: args.config }),
  }),
  deleteReport: t.field({
    type: ReportRef,
    authScopes: { tool: 'reports' },
    args: { report_id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.reports.delete(args.report_id),
  }),
}));
