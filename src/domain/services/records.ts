import { longerThan } from '../fields/checks.ts';
import type { RecordSummary, RelatedRecord, Store } from '../store/port.ts';
import { canWriteAll, type Actor } from '../actor.ts';
import { CrmError, isCrmError, notFound, recordTypeDeleted, validationError } from '../errors.ts';
import { displayName, uniqueClaims, validateRecordData, type ValidatedData } from '../fields.ts';
import { parseFilter, parseSort } from '../filters.ts';
import { isIdOf, newMonotonicId } from '../ids.ts';
import { LIMITS } from '../limits.ts';
import type { EventAction, FieldChange, ObjectType, StoredRecord } from '../types.ts';
import type { ObjectService } from './objects.ts';
import { checkReferences } from './references.ts';
import { created, diffOf, eventFor } from './events.ts';
import { untilUnchanged, updateInTurn } from './read-modify-write.ts';
import type { NewEvent } from '../store/port-work.ts';

/** A record as callers see it: the spec'd `record_id`, the same value as `id`, and its display name. */
export interface RecordView extends Omit<StoredRecord, 'workspace_id'> {
  record_id: string;
  display_name: string;
}

/** Another record as it appears inside a relation, entry, note or task. */
export type RelatedRecordView = RecordSummary;

export interface RelationView {
  type: string;
  source: 'field' | 'link';
  direction: 'outgoing' | 'incoming';
  record: RelatedRecordView;
}

export interface RecordPage {
  items: RecordView[];
  total: number;
  page: number;
  page_size: number;
}

export interface ListInput {
  object_type_slug: string;
  filters?: unknown;
  sort_field?: string;
  ascending?: boolean;
  page?: number;
  page_size?: number;
}

export interface SearchInput {
  query: string;
  object_type_slug?: string;
  page?: number;
  page_size?: number;
}

/** A letter or a digit: what a search word is made of (both stores' tokenizers split on the rest). */
const SEARCHABLE = /[\p{L}\p{N}]/u;

/**
 * Records: validation against field definitions, references, the Member rule (write only what is
 * assigned to you; what you create is assigned to you), soft delete and restore.
 */
export class RecordService {
  constructor(
    private readonly store: Store,
    private readonly actor: Actor,
    private readonly objects: ObjectService,
  ) {}

  private get ws(): string {
    return this.actor.workspace_id;
  }

  async list(input: ListInput): Promise<RecordPage> {
    const type = await this.objects.get(input.object_type_slug, 'object_type_slug');
    const { page, pageSize } = paging(input.page, input.page_size);
    const filter = parseFilter(type, input.filters, 'filters');
    const sort = parseSort(type, input.sort_field, input.ascending, 'sort_field');
    const { items, total } = await this.store.listRecords(this.ws, {
      object_type_slug: type.slug, filter, sort, offset: (page - 1) * pageSize, limit: pageSize,
    });
    return { items: items.map((r) => view(type, r)), total, page, page_size: pageSize };
  }

  async search(input: SearchInput): Promise<RecordPage> {
    const text = input.query.trim();
    // Search reads words (runs of letters and digits); punctuation and symbols, emoji among them,
    // are separators, so a query of only those would search for nothing and answer an empty page.
    if (!SEARCHABLE.test(text)) {
      throw validationError('query', 'query must contain at least one word (letters or digits); punctuation and symbols such as emoji are not searched', { rule: 'required' });
    }
    if (longerThan(text, LIMITS.searchQueryMaxLength)) {
      throw validationError('query', `query must be at most ${LIMITS.searchQueryMaxLength} characters`, { rule: 'max_length' });
    }
    if (input.object_type_slug !== undefined) await this.objects.get(input.object_type_slug, 'object_type_slug');
    const { page, pageSize } = paging(input.page, input.page_size);
    const { items, total } = await this.store.searchRecords(this.ws, {
      text, object_type_slug: input.object_type_slug, offset: (page - 1) * pageSize, limit: pageSize,
    });
    return { items: await this.views(items), total, page, page_size: pageSize };
  }

  async get(recordId: string, param = 'record_id'): Promise<RecordView> {
    const record = await this.load(recordId, param);
    return view(await this.objects.get(record.object_type_slug), record);
  }

  /**
   * The record's relations in both directions, each with the other record's display name: the
   * first `limit` (at most LIMITS.relationsMax, the default) in the store's order.
   */
  async relations(recordId: string, limit: number = LIMITS.relationsMax): Promise<RelationView[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.relationsMax) {
      throw validationError('limit', `limit must be an integer from 1 to ${LIMITS.relationsMax}, got ${limit}`, { rule: 'range', min: 1, max: LIMITS.relationsMax });
    }
    return (await this.allRelations(recordId)).slice(0, limit).map((rel) => ({
      type: rel.type, source: rel.source, direction: rel.from_id === recordId ? 'outgoing' : 'incoming', record: rel.other,
    }));
  }

  /** How many relations the record has, all of them (`relations` answers the first of them). */
  async relationCount(recordId: string): Promise<number> {
    return (await this.allRelations(recordId)).length;
  }

  /** One read of a record's relations per call, shared by its relations and their count. */
  private allRelations(recordId: string): Promise<RelatedRecord[]> {
    let held = this.relationsRead.get(recordId);
    if (!held) {
      held = this.store.getRelations(this.ws, recordId);
      this.relationsRead.set(recordId, held);
    }
    return held;
  }

  private readonly relationsRead = new Map<string, Promise<RelatedRecord[]>>();

  /** Display summaries of the live records among the ids (deleted or foreign ones are absent). */
  async summaries(ids: readonly string[]): Promise<Map<string, RelatedRecordView>> {
    const out = new Map<string, RelatedRecordView>();
    for (const summary of await this.store.recordSummaries(this.ws, [...new Set(ids)])) out.set(summary.record_id, summary);
    return out;
  }

  /** Validated against the object type as read; redone if a field started or stopped claiming values meanwhile. */
  async create(input: { object_type_slug: string; data: unknown; assignee_id?: string | null }): Promise<RecordView> {
    return untilUnchanged(async (again) => {
      if (again) this.objects.forget(input.object_type_slug);
      const type = await this.objects.get(input.object_type_slug, 'object_type_slug');
      const assignee = await this.assigneeFor(input.assignee_id, this.actor.user_id);
      const valid = validateRecordData(type, input.data ?? {});
      await this.checkReferences(valid);
      const id = newMonotonicId('record');
      const record = await this.store.createRecord(this.ws, {
        id, object_type_slug: type.slug, data: valid.data, uniques: valid.uniques, refs: valid.refs,
        created_by: this.actor.user_id, assignee_id: assignee,
      }, [this.event('create', id, [], created(valid.data))]).catch((err: unknown) => this.withHolder(err, type, valid.data, null));
      return view(type, record);
    });
  }

  /**
   * Merges the given fields into the record as it is when the write happens: the merge is checked
   * against the record as read and written only if nobody wrote it since (updateInTurn), so
   * concurrent updates of different fields all land, and each event's diff is what its write did.
   */
  async update(input: { record_id: string; data?: unknown; assignee_id?: string | null }): Promise<RecordView> {
    return updateInTurn(`record:${this.ws}:${input.record_id}`, async (again) => {
      const record = await this.load(input.record_id);
      this.assertCanWrite(record);
      if (again) this.objects.forget(record.object_type_slug);
      const type = await this.objects.get(record.object_type_slug);
      const valid = validateRecordData(type, input.data ?? {}, { existing: record.data });
      const self = valid.refs.find((ref) => ref.to_id === record.id);
      if (self) {
        // graph.link refuses a self-link; a reference field is an edge of the same graph.
        throw validationError(`data.${self.field}`, `data.${self.field}: a record cannot refer to itself`, { rule: 'self_link' });
      }
      await this.checkReferences(valid);
      const assignee = input.assignee_id === undefined ? undefined : await this.assigneeFor(input.assignee_id, null);
      const changes = diffOf(
        { ...record.data, ...(assignee === undefined ? {} : { assignee_id: record.assignee_id ?? undefined }) },
        { ...valid.data, ...(assignee === undefined ? {} : { assignee_id: assignee ?? undefined }) },
      );
      const updated = await this.store.updateRecord(this.ws, record.id, {
        data: valid.data, uniques: valid.uniques, refs: valid.refs, unchanged_since: record.updated_at,
        ...(assignee === undefined ? {} : { assignee_id: assignee }),
      }, changes ? [this.event('update', record.id, [], changes)] : []).catch((err: unknown) => this.withHolder(err, type, valid.data, record.id));
      return view(type, updated);
    });
  }

  async delete(recordId: string): Promise<RecordView> {
    const record = await this.load(recordId);
    this.assertCanWrite(record);
    const deleted = await this.store.softDeleteRecord(this.ws, record.id, [this.event('delete', record.id)]);
    return view(await this.objects.get(record.object_type_slug), deleted);
  }

  /** Claims as the object type stands when read; redone if a field started or stopped claiming values meanwhile. */
  async restore(recordId: string): Promise<RecordView> {
    return untilUnchanged((again) => this.restoreOnce(recordId, again));
  }

  private async restoreOnce(recordId: string, again: boolean): Promise<RecordView> {
    const record = await this.store.getRecord(this.ws, recordId, { includeDeleted: true });
    if (!record) throw notFound('record', recordId);
    this.assertCanWrite(record);
    if (again) this.objects.forget(record.object_type_slug);
    const type = await this.objects.find(record.object_type_slug);
    if (!type) throw recordTypeDeleted(record.id, record.object_type_slug);
    if (!record.deleted_at) return view(type, record);
    // Only the unique claims are re-taken: a field made required after the delete must not block a restore.
    try {
      return view(type, await this.store.restoreRecord(this.ws, record.id, uniqueClaims(type, record.data), [this.event('restore', record.id)]));
    } catch (err) {
      // The store names the field as a write's parameter (data.<field>); a restore sent no data.
      if (!isCrmError(err) || err.code !== 'conflict' || err.details?.rule !== 'unique') throw err;
      const field = String(err.details.field ?? '');
      const holder = await this.holderOf(type, field, record.data, record.id);
      throw new CrmError('conflict', `record ${record.id} cannot be restored: another live record${holder ? ` (${holder})` : ''} holds its ${field} value ${JSON.stringify(record.data[field])}; change or clear that one first`, {
        param: 'record_id', field, rule: 'unique', ...(holder ? { record_id: holder } : {}),
      });
    }
  }

  /**
   * A write's unique conflict with the record holding the value named (`details.record_id`), so a
   * caller can go on to that record (find-or-create, upsert); any other failure as it was.
   */
  private async withHolder(err: unknown, type: ObjectType, data: Record<string, unknown>, self: string | null): Promise<never> {
    if (!isCrmError(err) || err.code !== 'conflict' || err.details?.rule !== 'unique') throw err;
    const holder = await this.holderOf(type, String(err.details.field ?? ''), data, self);
    if (!holder) throw err;
    throw new CrmError('conflict', `${err.message} (${holder})`, { ...err.details, record_id: holder });
  }

  /**
   * The live record other than `self` holding the field's value, found as a filter on the value
   * finds it (a url by any of its spellings, as its claim takes them); null when none is found
   * (it was deleted or changed since).
   */
  private async holderOf(type: ObjectType, field: string, data: Record<string, unknown>, self: string | null): Promise<string | null> {
    const value = data[field];
    if (value === undefined || value === null || !type.fields.some((f) => f.slug === field && !f.archived)) return null;
    const { items } = await this.store.listRecords(this.ws, {
      object_type_slug: type.slug, filter: parseFilter(type, { [field]: value }), sort: parseSort(type, undefined, undefined), offset: 0, limit: 2,
    });
    return items.find((r) => r.id !== self)?.id ?? null;
  }

  private async load(recordId: string, param = 'record_id'): Promise<StoredRecord> {
    if (!isIdOf('record', recordId)) {
      throw validationError(param, `${param} must be a record id like "rec_01J9ZK3M4N5P6Q7R8S9T0V1W2X", got ${JSON.stringify(recordId)}`, { rule: 'format' });
    }
    const record = await this.store.getRecord(this.ws, recordId);
    if (!record) throw notFound('record', recordId);
    return record;
  }

  /** Roles: Members write only records assigned to them. */
  private assertCanWrite(record: StoredRecord): void {
    if (canWriteAll(this.actor) || record.assignee_id === this.actor.user_id) return;
    throw new CrmError('permission_denied', `a member may only change records assigned to them; record ${record.id} is not`, {
      role: this.actor.role, record_id: record.id,
    });
  }

  /** Members may only assign to themselves; others may assign to any member of the workspace. */
  private async assigneeFor(requested: string | null | undefined, fallback: string | null): Promise<string | null> {
    if (requested === undefined) return fallback;
    if (requested === null) {
      if (!canWriteAll(this.actor)) throw new CrmError('permission_denied', 'a member cannot unassign a record', { param: 'assignee_id' });
      return null;
    }
    if (!canWriteAll(this.actor) && requested !== this.actor.user_id) {
      throw new CrmError('permission_denied', 'a member may only assign records to themselves', { param: 'assignee_id' });
    }
    if (!(await this.store.getUser(this.ws, requested))) {
      throw validationError('assignee_id', `assignee_id ${JSON.stringify(requested)} is not a user of this workspace`, { rule: 'user_not_found' });
    }
    return requested;
  }

  private event(action: EventAction, id: string, extra: string[] = [], diff: Record<string, FieldChange> | null = null): NewEvent {
    return eventFor(this.actor, action, 'record', id, [id, ...extra], diff);
  }

  private checkReferences(valid: ValidatedData): Promise<void> {
    return checkReferences(this.store, this.ws, valid);
  }

  private async views(records: StoredRecord[]): Promise<RecordView[]> {
    const out: RecordView[] = [];
    for (const r of records) out.push(view(await this.objects.get(r.object_type_slug), r));
    return out;
  }
}

function view(type: ObjectType, record: StoredRecord): RecordView {
  const { workspace_id: _ws, ...rest } = record;
  return { record_id: record.id, ...rest, display_name: displayName(type, record.data) };
}

/** Resolves 1-based page and page_size against the documented bounds. */
export function paging(page: number | undefined, pageSize: number | undefined): { page: number; pageSize: number } {
  const p = page ?? 1;
  const s = pageSize ?? LIMITS.pageSizeDefault;
  if (!Number.isInteger(p) || p < 1 || p > LIMITS.pageMax) {
    throw validationError('page', `page must be an integer from 1 to ${LIMITS.pageMax}, got ${p}`, { rule: 'range', min: 1, max: LIMITS.pageMax });
  }
  if (!Number.isInteger(s) || s < 1 || s > LIMITS.pageSizeMax) {
    throw validationError('page_size', `page_size must be an integer from 1 to ${LIMITS.pageSizeMax}, got ${s}`, {
      rule: 'range', min: 1, max: LIMITS.pageSizeMax,
    });
  }
  return { page: p, pageSize: s };
}
