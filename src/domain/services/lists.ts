import type { NewListEntry, Store } from '../store/port.ts';
import { canWriteAll, type Actor } from '../actor.ts';
import { CrmError, isCrmError, notFound, validationError } from '../errors.ts';
import { displayName, MAX_FIELDS, validateNewField, validateRecordData } from '../fields.ts';
import { parseFilter, parseSort } from '../filters.ts';
import { newId, newMonotonicId } from '../ids.ts';
import { LIMITS } from '../limits.ts';
import type { CrmList, ListEntry, ObjectType, StoredRecord } from '../types.ts';
import { created, diffOf, eventFor } from './events.ts';
import { requireName } from './inputs.ts';
import type { ObjectService } from './objects.ts';
import { paging, type RecordService, type RelatedRecordView } from './records.ts';
import { updateInTurn } from './read-modify-write.ts';
import { checkReferences } from './references.ts';

export interface ListView extends Omit<CrmList, 'workspace_id'> {
  list_id: string;
}

export interface EntryView extends Omit<ListEntry, 'workspace_id'> {
  entry_id: string;
  record: RelatedRecordView;
}

export interface EntryPage {
  items: EntryView[];
  total: number;
  page: number;
  page_size: number;
}

/** One rejected entry of a batch: where, and why. */
export interface EntryFailure {
  index: number;
  param: string;
  code: string;
  message: string;
}

/**
 * Lists of one object type with entry fields of their own. Owners and Admins shape lists; entries
 * follow the record rule: a Member adds, changes and removes entries only of records assigned to
 * them.
 */
export class ListService {
  constructor(
    private readonly store: Store,
    private readonly actor: Actor,
    private readonly objects: ObjectService,
    private readonly records: RecordService,
  ) {}

  private get ws(): string {
    return this.actor.workspace_id;
  }

  async list(input: { object_type_slug?: string }): Promise<{ items: ListView[]; total: number }> {
    if (input.object_type_slug !== undefined) await this.objects.get(input.object_type_slug, 'object_type_slug');
    const lists = await this.store.listLists(this.ws, input.object_type_slug ? { object_type_slug: input.object_type_slug } : {});
    return { items: lists.map(listView), total: lists.length };
  }

  async get(listId: string, param = 'list_id'): Promise<ListView> {
    return listView(await this.load(listId, param));
  }

  async create(input: { object_type_slug: string; name: string; description?: string | null; fields?: unknown[] }): Promise<ListView> {
    const type = await this.objects.get(input.object_type_slug, 'object_type_slug');
    const name = requireName(input.name);
    const fields = input.fields ?? [];
    if (fields.length > MAX_FIELDS) throw validationError('fields', `a list has at most ${MAX_FIELDS} fields`, { rule: 'max_items', max: MAX_FIELDS });
    const slugs = (await this.objects.list()).map((t) => t.slug);
    const valid = fields.map((f, i) => validateNewField(f as never, { param: `fields[${i}]`, objectSlugs: slugs }));
    // Nothing claims entry values, so a unique entry field would be a promise the store never kept.
    const unique = valid.findIndex((f) => f.unique);
    if (unique >= 0) {
      throw validationError(`fields[${unique}].unique`, `fields[${unique}].unique: an entry field cannot be unique, since a value may repeat across entries; leave it out`, { rule: 'unsupported' });
    }
    const seen = new Set<string>();
    valid.forEach((f, i) => {
      if (seen.has(f.slug)) throw validationError(`fields[${i}].slug`, `fields[${i}].slug "${f.slug}" is used twice`, { rule: 'duplicate' });
      seen.add(f.slug);
    });
    const id = newId('list');
    const description = input.description ?? null;
    const list = await this.store.createList(this.ws, {
      id, object_type_slug: type.slug, name, description, fields: valid, created_by: this.actor.user_id,
    }, [eventFor(this.actor, 'create', 'list', id, [], created({ name, description, object_type_slug: type.slug, fields: valid.map((f) => f.slug) }))]);
    return listView(list);
  }

  async update(input: { list_id: string; name?: string; description?: string | null }): Promise<ListView> {
    const list = await this.load(input.list_id);
    const patch: { name?: string; description?: string | null } = {};
    if (input.name !== undefined) patch.name = requireName(input.name);
    if (input.description !== undefined) patch.description = input.description;
    if (!Object.keys(patch).length) throw validationError('name', 'give a new name or description', { rule: 'required' });
    const changes = diffOf({ name: list.name, description: list.description }, { name: list.name, description: list.description, ...patch });
    const events = changes ? [eventFor(this.actor, 'update', 'list', list.id, [], changes)] : [];
    return listView(await this.store.updateList(this.ws, list.id, patch, events));
  }

  async delete(listId: string): Promise<ListView> {
    const list = await this.load(listId);
    // The store refuses while live views name the list (listInUse).
    return listView(await this.store.deleteList(this.ws, list.id, [eventFor(this.actor, 'delete', 'list', list.id, [])]));
  }

  async entries(input: { list_id: string; filters?: unknown; sort_field?: string; ascending?: boolean; page?: number; page_size?: number }): Promise<EntryPage> {
    const list = await this.load(input.list_id);
    const fields = fieldSet(list);
    const { page, pageSize } = paging(input.page, input.page_size);
    const filter = parseFilter(fields, input.filters, 'filters');
    const sort = parseSort(fields, input.sort_field, input.ascending, 'sort_field');
    const { items, total } = await this.store.listEntries(this.ws, list.id, { filter, sort, offset: (page - 1) * pageSize, limit: pageSize });
    return { items: await this.entryViews(items), total, page, page_size: pageSize };
  }

  /**
   * Validates every entry first and writes all of them in one transaction, or none: a rejected
   * batch lists each failing entry with its index, parameter and reason.
   */
  async bulkAdd(input: { list_id: string; entries: Array<{ record_id: string; data?: unknown }> }): Promise<{ items: EntryView[]; added: number }> {
    const list = await this.load(input.list_id);
    if (input.entries.length === 0) throw validationError('entries', 'entries must hold at least one entry', { rule: 'min_items', min: 1 });
    if (input.entries.length > LIMITS.bulkEntriesMax) {
      throw validationError('entries', `entries holds ${input.entries.length} entries; the limit is ${LIMITS.bulkEntriesMax} per call`, {
        rule: 'max_items', max: LIMITS.bulkEntriesMax,
      });
    }
    const fields = fieldSet(list);
    const records = new Map((await this.store.getRecords(this.ws, input.entries.map((e) => e.record_id))).map((r) => [r.id, r]));
    const already = new Set((await this.store.findListEntries(this.ws, list.id, input.entries.map((e) => e.record_id))).map((e) => e.record_id));
    const failures: EntryFailure[] = [];
    const conflicts: EntryFailure[] = [];
    const writes: NewListEntry[] = [];
    const seen = new Set<string>();
    for (const [index, entry] of input.entries.entries()) {
      const at = `entries[${index}]`;
      try {
        const record = records.get(entry.record_id);
        if (!record) throw validationError(`${at}.record_id`, `${at}.record_id: record ${entry.record_id} does not exist or was deleted`, { rule: 'reference_not_found' });
        if (record.object_type_slug !== list.object_type_slug) {
          throw validationError(`${at}.record_id`, `${at}.record_id: ${record.id} is a ${record.object_type_slug} record; this list holds ${list.object_type_slug}`, { rule: 'object_type' });
        }
        this.assertCanWrite(record, `${at}.record_id`);
        if (already.has(record.id) || seen.has(record.id)) {
          conflicts.push({ index, param: `${at}.record_id`, code: 'conflict', message: `${at}.record_id: ${record.id} is already in the list${seen.has(record.id) ? ' (twice in this batch)' : ''}` });
          continue;
        }
        seen.add(record.id);
        const valid = validateRecordData(fields, entry.data ?? {});
        await checkReferences(this.store, this.ws, valid, `${at}.`);
        writes.push({ id: newMonotonicId('entry'), record_id: record.id, data: valid.data });
      } catch (err) {
        if (!isCrmError(err) || err.code !== 'validation_error') throw err;
        const param = String(err.details?.param ?? at);
        failures.push({ index, param: param.startsWith('entries[') ? param : `${at}.${param}`, code: err.code, message: err.message.startsWith('entries[') ? err.message : `${at}: ${err.message}` });
      }
    }
    if (failures.length) {
      // Every failing entry, the ones already in the list too, so one retry can fix them all.
      const all = [...failures, ...conflicts].sort((a, b) => a.index - b.index);
      const also = conflicts.length ? ` and ${conflicts.length} already in the list` : '';
      throw new CrmError('validation_error', `${failures.length} of ${input.entries.length} entries are invalid${also}; nothing was added. First: ${failures[0]!.message}`, {
        param: failures[0]!.param, rule: 'invalid_entries', failures: all,
      });
    }
    if (conflicts.length) {
      throw new CrmError('conflict', `${conflicts.length} of ${input.entries.length} entries name records already in the list; nothing was added. First: ${conflicts[0]!.message}`, {
        param: conflicts[0]!.param, failures: conflicts,
      });
    }
    const events = writes.map((w) => eventFor(this.actor, 'add', 'entry', w.id!, [w.record_id], created({ list_id: list.id, ...w.data })));
    const added = await this.store.addListEntries(this.ws, list.id, writes, this.actor.user_id, events);
    return { items: await this.entryViews(added), added: added.length };
  }

  /** Merges the given fields into the entry as it is when the write happens, as records.update does. */
  async updateEntry(input: { entry_id: string; data: unknown }): Promise<EntryView> {
    const updated = await updateInTurn(`entry:${this.ws}:${input.entry_id}`, async () => {
      const { entry, list } = await this.loadEntry(input.entry_id);
      const record = await this.recordOf(entry);
      this.assertCanWrite(record, 'entry_id');
      const valid = validateRecordData(fieldSet(list), input.data ?? {}, { existing: entry.data });
      await checkReferences(this.store, this.ws, valid);
      const changes = diffOf(entry.data, valid.data);
      const events = changes ? [eventFor(this.actor, 'update', 'entry', entry.id, [entry.record_id], changes)] : [];
      return this.store.updateListEntry(this.ws, entry.id, valid.data, events, entry.updated_at);
    });
    return (await this.entryViews([updated]))[0]!;
  }

  async removeEntry(entryId: string): Promise<EntryView> {
    const { entry } = await this.loadEntry(entryId);
    // An entry of a deleted record is hidden, not gone: it can still be taken off the list.
    const record = await this.recordOf(entry, true);
    this.assertCanWrite(record, 'entry_id');
    // Summaries name live records only; a deleted one is named from the record itself.
    const view = (await this.entryViews([entry]))[0]!;
    if (record.deleted_at) {
      const type = await this.objects.find(record.object_type_slug);
      view.record = { record_id: record.id, object_type_slug: record.object_type_slug, display_name: type ? displayName(type, record.data) : '' };
    }
    await this.store.removeListEntry(this.ws, entry.id, [eventFor(this.actor, 'remove', 'entry', entry.id, [entry.record_id], { list_id: { before: entry.list_id } })]);
    return view;
  }

  private async load(listId: string, param = 'list_id'): Promise<CrmList> {
    const list = await this.store.getList(this.ws, listId);
    if (!list) throw new CrmError('not_found', `${param} ${JSON.stringify(listId)}: no such list`, { param, resource: 'list', id: listId });
    return list;
  }

  private async loadEntry(entryId: string): Promise<{ entry: ListEntry; list: CrmList }> {
    const entry = await this.store.getListEntry(this.ws, entryId);
    const list = entry ? await this.store.getList(this.ws, entry.list_id) : null;
    if (!entry || !list) throw new CrmError('not_found', `entry_id ${JSON.stringify(entryId)}: no such list entry`, { param: 'entry_id', resource: 'entry', id: entryId });
    return { entry, list };
  }

  private async recordOf(entry: ListEntry, includeDeleted = false): Promise<StoredRecord> {
    const record = await this.store.getRecord(this.ws, entry.record_id, { includeDeleted });
    if (record) return record;
    if (await this.store.getRecord(this.ws, entry.record_id, { includeDeleted: true })) {
      throw new CrmError('not_found', `entry_id ${JSON.stringify(entry.id)}: its record ${entry.record_id} is deleted; restore the record to change the entry, or remove the entry`, {
        param: 'entry_id', resource: 'record', id: entry.record_id,
      });
    }
    throw notFound('record', entry.record_id);
  }

  private assertCanWrite(record: StoredRecord, param: string): void {
    if (canWriteAll(this.actor) || record.assignee_id === this.actor.user_id) return;
    throw new CrmError('permission_denied', `a member may only change list entries of records assigned to them; ${record.id} is not`, { param, record_id: record.id });
  }

  private async entryViews(entries: ListEntry[]): Promise<EntryView[]> {
    const summaries = await this.records.summaries(entries.map((e) => e.record_id));
    return entries.map((entry) => {
      const { workspace_id: _ws, ...rest } = entry;
      const record = summaries.get(entry.record_id) ?? { record_id: entry.record_id, object_type_slug: '', display_name: '' };
      return { entry_id: entry.id, ...rest, record };
    });
  }
}

/** A list's entry fields in the shape the field validators and filter parser take. */
export function fieldSet(list: CrmList): ObjectType {
  return {
    id: list.id, workspace_id: list.workspace_id, slug: list.name, name: list.name, icon: null, color: null, description: null,
    standard: false, fields: list.fields, created_at: list.created_at, updated_at: list.updated_at, deleted_at: null,
  };
}

function listView(list: CrmList): ListView {
  const { workspace_id: _ws, ...rest } = list;
  return { list_id: list.id, ...rest };
}
