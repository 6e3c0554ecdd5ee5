import type { Store } from '../store/port.ts';
import { canWriteAll, type Actor } from '../actor.ts';
import { CrmError, validationError } from '../errors.ts';
import { newId } from '../ids.ts';
import { checkReportConfig, type CheckedReport } from '../reports/config.ts';
import { shapeRows, shapeSeries, type ReportRow } from '../reports/series.ts';
import type { ChartType, ReportConfig, SavedReport } from '../reports/types.ts';
import { isPlainObject } from '../fields/checks.ts';
import { created, eventFor } from './events.ts';
import { requireName } from './inputs.ts';
import { reportsOn, type ObjectService } from './objects.ts';
import { paging } from './records.ts';

/** At most this many groups (group × bucket rows) in one report answer. */
export const MAX_REPORT_ROWS = 10_000;

export interface ReportView extends Omit<SavedReport, 'workspace_id'> {
  report_id: string;
}

export interface ReportRun {
  report_id?: string;
  chart_type: ChartType;
  rows: ReportRow[];
  series: unknown;
  generated_at: string;
}

/**
 * Saved reports and running them. The config is checked against the object type's fields when
 * saved and again on every run (a field may have been archived since). Anyone may save reports and
 * run any report of the workspace; a Member deletes only the reports they created.
 */
export class ReportService {
  constructor(private readonly store: Store, private readonly actor: Actor, private readonly objects: ObjectService) {}

  private get ws(): string {
    return this.actor.workspace_id;
  }

  async create(input: { name?: string; config?: unknown }): Promise<ReportView> {
    const name = requireName(input.name ?? '');
    const { config } = await this.check(input.config);
    const id = newId('report');
    const report = await this.store.createReport(this.ws, { id, name, config, created_by: this.actor.user_id },
      [eventFor(this.actor, 'create', 'report', id, [], created({ name, config }))]);
    return reportView(report);
  }

  async get(reportId: string): Promise<ReportView> {
    return reportView(await this.load(reportId));
  }

  async list(input: { page?: number; page_size?: number }) {
    const { page, pageSize } = paging(input.page, input.page_size);
    const { items, total } = await this.store.listReports(this.ws, { offset: (page - 1) * pageSize, limit: pageSize });
    return { items: items.map(reportView), total, page, page_size: pageSize };
  }

  async delete(reportId: string): Promise<ReportView> {
    const report = await this.load(reportId);
    if (!canWriteAll(this.actor) && report.created_by !== this.actor.user_id) {
      throw new CrmError('permission_denied', 'a member may only delete reports they created', { param: 'report_id' });
    }
    return reportView(await this.store.deleteReport(this.ws, report.id, [eventFor(this.actor, 'delete', 'report', report.id, [])]));
  }

  /** Runs a saved report (`report_id`) or an inline config (`config`, not saved); exactly one of them. */
  async run(input: { report_id?: string | null; config?: unknown }): Promise<ReportRun> {
    const hasId = input.report_id !== undefined && input.report_id !== null;
    const hasConfig = input.config !== undefined && input.config !== null;
    if (hasId === hasConfig) {
      const message = hasId
        ? 'give either report_id (a saved report) or config (an inline report), not both'
        : 'give report_id (a saved report) or config (an inline report); neither was given';
      throw validationError(hasId ? 'config' : 'report_id', message, { rule: hasId ? 'exclusive' : 'required' });
    }
    const report = hasId ? await this.load(input.report_id!) : undefined;
    if (report) await this.assertTypeOf(report);
    const checked = await this.check(report ? report.config : input.config);
    const raw = await this.store.aggregate(this.ws, { ...checked.query, max_rows: MAX_REPORT_ROWS + 1 });
    if (raw.length > MAX_REPORT_ROWS) {
      const param = checked.config.group_by ? 'config.group_by' : 'config.time_bucket';
      throw validationError(param, `the report has more than ${MAX_REPORT_ROWS} groups; group by a field with fewer values, use a coarser bucket or filter`, {
        rule: 'too_many_groups', max: MAX_REPORT_ROWS,
      });
    }
    const shaping = { chart: checked.config.chart_type, metric: checked.config.metric, group: checked.group, bucket: checked.config.time_bucket };
    const rows = shapeRows(raw, shaping);
    return {
      ...(report ? { report_id: report.id } : {}),
      chart_type: checked.config.chart_type, rows, series: shapeSeries(rows, shaping), generated_at: new Date().toISOString(),
    };
  }

  /** The config checked against its object type; an unknown object type is a validation error naming config.object_type. */
  private async check(raw: unknown): Promise<CheckedReport> {
    if (!isPlainObject(raw)) throw validationError('config', 'config must be a report config object', { rule: 'type' });
    const slug = raw.object_type;
    if (typeof slug !== 'string' || slug === '') throw validationError('config.object_type', 'config.object_type is required: the slug of an object type', { rule: 'required' });
    try {
      return checkReportConfig(await this.objects.get(slug, 'config.object_type'), raw);
    } catch (err) {
      if (err instanceof CrmError && err.code === 'not_found' && err.details?.param === 'config.object_type') {
        throw new CrmError('validation_error', err.message, { ...err.details, rule: 'unknown_object_type' });
      }
      throw err;
    }
  }

  /**
   * A saved report runs only against the type it was saved for. Its type is named by slug, and
   * one made under that slug after the report (its first type deleted, which a live report now
   * prevents, but reports saved before that rule may be left) is another type: its fields of the
   * same names may mean anything else.
   */
  private async assertTypeOf(report: SavedReport): Promise<void> {
    const type = await this.objects.find(report.config.object_type);
    if (!type || reportsOn(report, type)) return;
    throw new CrmError('conflict', `report ${report.id} was saved for an object type "${type.slug}" since deleted; the type now called "${type.slug}" was made after it, so it is another type. Delete the report, or save its config again as a new one`, {
      param: 'report_id', rule: 'target_deleted', object_type: type.slug,
    });
  }

  private async load(reportId: string): Promise<SavedReport> {
    const report = await this.store.getReport(this.ws, reportId);
    if (!report) throw new CrmError('not_found', `report_id ${JSON.stringify(reportId)}: no such report`, { param: 'report_id', resource: 'report', id: reportId });
    return report;
  }
}

function reportView(report: SavedReport): ReportView {
  const { workspace_id: _ws, ...rest } = report;
  return { report_id: report.id, ...rest };
}

export type { ReportConfig };
