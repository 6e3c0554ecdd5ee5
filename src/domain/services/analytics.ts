import type { Store } from '../store/port.ts';
import { ACTIVITY_KINDS, type ActivityKind } from '../store/port-reports.ts';
import type { Actor } from '../actor.ts';
import { CrmError, validationError } from '../errors.ts';
import { liveFields, notALiveField } from '../fields/record-data.ts';
import { NUMERIC_TYPES, STAGE_TYPES } from '../reports/config.ts';
import { stagesOf, tidyNumber } from '../reports/series.ts';
import type { AggregateQuery } from '../reports/types.ts';
import type { FieldDef, ObjectType } from '../types.ts';
import { fieldSet } from './lists.ts';
import type { ObjectService } from './objects.ts';

const DAY_MS = 86_400_000;

export interface PipelineInput {
  object_type_slug?: string;
  stage_field?: string;
  value_field?: string;
  list_id?: string;
}

export interface PipelineStage {
  stage: string;
  count: number;
  value: number;
  /** An option the field no longer offers, which records still hold (after the offered stages). */
  retired: boolean;
  conversion_to_next: number | null;
}

export interface WorkspaceSummary {
  generated_at: string;
  records: { total: number; created_last_7_days: number; created_last_30_days: number };
  object_types: Array<{ object_type_slug: string; records: number; created_last_7_days: number; created_last_30_days: number }>;
  tasks: { open: number; overdue: number };
  /** One count per kind of activity in the last 30 days (ACTIVITY_KINDS): meetings by their start, the rest by creation. */
  activity_last_30_days: Record<ActivityKind, number>;
}

/** A field of `fields` by name, with the nearest name when unknown, of one of the given types. */
function pick(fields: ObjectType, name: string, param: string, types: readonly string[]): FieldDef {
  const candidates = liveFields(fields).filter((f) => types.includes(f.type));
  const field = liveFields(fields).find((f) => f.slug === name);
  if (!field) throw notALiveField(fields, name, param, `${param} ${JSON.stringify(name)}`, candidates.map((f) => f.slug));
  if (!types.includes(field.type)) {
    throw validationError(param, `${param}: ${name} is a ${field.type} field; use a ${types.join(' or ')} field`, { rule: 'field_type', allowed: candidates.map((f) => f.slug) });
  }
  return field;
}

/**
 * Pipeline numbers and the workspace summary, each counted in the store. A pipeline's stages are
 * the options of its stage field in order, empty ones included, then the retired options records
 * still hold; records or entries without a stage are in no stage and not in the totals.
 */
export class AnalyticsService {
  constructor(private readonly store: Store, private readonly actor: Actor, private readonly objects: ObjectService) {}

  private get ws(): string {
    return this.actor.workspace_id;
  }

  async pipeline(input: PipelineInput): Promise<{ stages: PipelineStage[]; total_count: number; total_value: number }> {
    const { scope, stageFields, type } = await this.scope(input);
    const stage = input.stage_field !== undefined
      ? pick(stageFields, input.stage_field, 'stage_field', STAGE_TYPES)
      : liveFields(stageFields).find((f) => f.slug === 'stage' && STAGE_TYPES.includes(f.type))
        ?? liveFields(stageFields).find((f) => f.type === 'status');
    // The parameter to give is stage_field, for a list as for an object type.
    if (!stage) throw validationError('stage_field', `${input.list_id ? `list ${input.list_id}` : stageFields.slug} has no status field; name one with stage_field`, { rule: 'required' });
    const value = input.value_field !== undefined
      ? pick(type, input.value_field, 'value_field', NUMERIC_TYPES)
      : liveFields(type).find((f) => f.slug === 'amount' && NUMERIC_TYPES.includes(f.type));
    const query: AggregateQuery = {
      scope, metric: value ? 'sum' : 'count', metric_field: value?.slug, group_by: { field: stage.slug, valueKind: 'text' },
      max_rows: (stage.config.options?.length ?? 0) + 10_000,
    };
    const rows = await this.store.aggregate(this.ws, query);
    const stages: PipelineStage[] = stagesOf(stage, (option) => {
      const row = rows.find((r) => r.group === option);
      return row ? { count: row.count, value: value ? tidyNumber(row.value ?? 0) : 0 } : undefined;
    }, { count: 0, value: 0 });
    return {
      stages,
      total_count: stages.reduce((sum, s) => sum + s.count, 0),
      total_value: tidyNumber(stages.reduce((sum, s) => sum + s.value, 0)),
    };
  }

  async summary(now = new Date()): Promise<WorkspaceSummary> {
    const at = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
    const month = at(30);
    const [types, tasks, ...activity] = await Promise.all([
      this.store.countRecordsByType(this.ws, { week: at(7), month }),
      this.store.countOpenTasks(this.ws, now.toISOString()),
      ...ACTIVITY_KINDS.map((kind) => this.store.countActivity(this.ws, kind, { since: month, until: now.toISOString() })),
    ]);
    const sum = (key: 'total' | 'week' | 'month') => types.reduce((n, t) => n + t[key], 0);
    return {
      generated_at: now.toISOString(),
      records: { total: sum('total'), created_last_7_days: sum('week'), created_last_30_days: sum('month') },
      object_types: types.map((t) => ({ object_type_slug: t.object_type_slug, records: t.total, created_last_7_days: t.week, created_last_30_days: t.month })),
      tasks,
      activity_last_30_days: Object.fromEntries(ACTIVITY_KINDS.map((kind, i) => [kind, activity[i]])) as Record<ActivityKind, number>,
    };
  }

  /** Records of an object type (default deals), or the entries of a list with the list's own fields for stages. */
  private async scope(input: PipelineInput): Promise<{ scope: AggregateQuery['scope']; stageFields: ObjectType; type: ObjectType }> {
    if (input.list_id === undefined) {
      const type = await this.objects.get(input.object_type_slug ?? 'deals', 'object_type_slug');
      return { scope: { object_type_slug: type.slug }, stageFields: type, type };
    }
    const list = await this.store.getList(this.ws, input.list_id);
    if (!list) throw new CrmError('not_found', `list_id ${JSON.stringify(input.list_id)}: no such list`, { param: 'list_id', resource: 'list', id: input.list_id });
    if (input.object_type_slug !== undefined && input.object_type_slug !== list.object_type_slug) {
      throw validationError('object_type_slug', `list ${list.id} holds ${list.object_type_slug}, not ${input.object_type_slug}`, { rule: 'mismatch' });
    }
    return { scope: { list_id: list.id }, stageFields: fieldSet(list), type: await this.objects.get(list.object_type_slug, 'object_type_slug') };
  }
}
