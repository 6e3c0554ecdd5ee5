import { longerThan } from '../fields/checks.ts';
import type { Store } from '../store/port.ts';
import type { NotePatch } from '../store/port-work.ts';
import { canWriteAll, type Actor } from '../actor.ts';
import { CrmError, validationError } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Note, NoteKind, StoredRecord } from '../types.ts';
import { created, diffOf, eventFor } from './events.ts';
import { requireIdOf, requireName } from './inputs.ts';
import { paging, type RecordService, type RelatedRecordView } from './records.ts';
import { attachedRecords, keptOrLiveRecords, requireRecords } from './references.ts';

export const NOTE_BODY_MAX = 100_000;

export interface NoteView extends Omit<Note, 'workspace_id'> {
  note_id: string;
  records: RelatedRecordView[];
}

/** What callers may set on a note; the same shape as a patch. */
export type NoteInput = NotePatch;

/**
 * Notes and activities (note, call, meeting, email) attached to records. A Member writes notes only
 * on records assigned to them, and free-standing notes only if they wrote them.
 */
export class NoteService {
  constructor(private readonly store: Store, private readonly actor: Actor, private readonly records: RecordService) {}

  private get ws(): string {
    return this.actor.workspace_id;
  }

  async list(input: { record_id?: string; kind?: NoteKind; page?: number; page_size?: number }) {
    const { page, pageSize } = paging(input.page, input.page_size);
    const { items, total } = await this.store.listNotes(this.ws, {
      ...(input.record_id ? { record_id: requireIdOf('record', input.record_id, 'record_id') } : {}), ...(input.kind ? { kind: input.kind } : {}),
      offset: (page - 1) * pageSize, limit: pageSize,
    });
    return { items: await this.views(items), total, page, page_size: pageSize };
  }

  async get(noteId: string): Promise<NoteView> {
    return (await this.views([await this.load(noteId)]))[0]!;
  }

  async create(input: NoteInput): Promise<NoteView> {
    const title = requireName(input.title ?? '', 'title', 200);
    const body = checkBody(input.body ?? '');
    const recordIds = [...new Set(input.record_ids ?? [])];
    const records = await requireRecords(this.store, this.ws, recordIds, 'record_ids');
    this.assertCanWrite(records, null);
    const id = newId('note');
    const values = { kind: input.kind ?? 'note', title, body, format: input.format ?? 'plain', record_ids: recordIds } as const;
    const note = await this.store.createNote(this.ws, { id, ...values, record_ids: [...recordIds], created_by: this.actor.user_id },
      [eventFor(this.actor, 'create', 'note', id, recordIds, created({ ...values }))]);
    return (await this.views([note]))[0]!;
  }

  async update(input: NoteInput & { note_id: string }): Promise<NoteView> {
    const note = await this.load(input.note_id);
    if (!canWriteAll(this.actor)) this.assertCanWrite(await attachedRecords(this.store, this.ws, note.record_ids), note);
    const patch: NotePatch = {};
    if (input.kind !== undefined) patch.kind = input.kind;
    if (input.title !== undefined) patch.title = requireName(input.title, 'title', 200);
    if (input.body !== undefined) patch.body = checkBody(input.body);
    if (input.format !== undefined) patch.format = input.format;
    if (input.record_ids !== undefined) {
      patch.record_ids = [...new Set(input.record_ids)];
      this.assertCanWrite(await keptOrLiveRecords(this.store, this.ws, patch.record_ids, note.record_ids, 'record_ids'), note);
    }
    if (!Object.keys(patch).length) throw validationError('title', 'give kind, title, body, format or record_ids to change', { rule: 'required' });
    const before = { kind: note.kind, title: note.title, body: note.body, format: note.format, record_ids: note.record_ids };
    const changes = diffOf(before, { ...before, ...patch });
    const events = changes ? [eventFor(this.actor, 'update', 'note', note.id, [...note.record_ids, ...(patch.record_ids ?? [])], changes)] : [];
    return (await this.views([await this.store.updateNote(this.ws, note.id, patch, events)]))[0]!;
  }

  async delete(noteId: string): Promise<NoteView> {
    const note = await this.load(noteId);
    if (!canWriteAll(this.actor)) this.assertCanWrite(await attachedRecords(this.store, this.ws, note.record_ids), note);
    const deleted = await this.store.deleteNote(this.ws, note.id, [eventFor(this.actor, 'delete', 'note', note.id, note.record_ids, { title: { before: note.title } })]);
    return (await this.views([deleted]))[0]!;
  }

  private async load(noteId: string): Promise<Note> {
    const note = await this.store.getNote(this.ws, noteId);
    if (!note) throw new CrmError('not_found', `note_id ${JSON.stringify(noteId)}: no such note`, { param: 'note_id', resource: 'note', id: noteId });
    return note;
  }

  /** Roles: a Member writes notes only on records assigned to them. */
  private assertCanWrite(records: StoredRecord[], note: Note | null): void {
    if (canWriteAll(this.actor)) return;
    const foreign = records.find((r) => r.assignee_id !== this.actor.user_id);
    if (foreign) {
      throw new CrmError('permission_denied', `a member may only write notes on records assigned to them; ${foreign.id} is not`, { param: 'record_ids', record_id: foreign.id });
    }
    if (note && records.length === 0 && note.created_by !== this.actor.user_id) {
      throw new CrmError('permission_denied', 'a member may only change free-standing notes they wrote', { param: 'note_id' });
    }
  }

  private async views(notes: Note[]): Promise<NoteView[]> {
    const summaries = await this.records.summaries(notes.flatMap((n) => n.record_ids));
    return notes.map((note) => {
      const { workspace_id: _ws, ...rest } = note;
      return { note_id: note.id, ...rest, records: note.record_ids.flatMap((id) => summaries.get(id) ?? []) };
    });
  }
}

function checkBody(body: string): string {
  if (longerThan(body, NOTE_BODY_MAX)) throw validationError('body', `body must be at most ${NOTE_BODY_MAX} characters`, { rule: 'max_length', max: NOTE_BODY_MAX });
  return body;
}
