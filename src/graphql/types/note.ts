import type { NoteView } from '../../domain/services/notes.ts';
import { NOTE_FORMATS, NOTE_KINDS } from '../../domain/types.ts';
import { builder } from '../builder.ts';
import { pageType } from './page.ts';
import { RelatedRecordRef } from './record.ts';

/** Notes and activities: type, queries and mutations together. */

const NoteKindEnum = builder.enumType('NoteKind', { values: NOTE_KINDS });
const NoteFormatEnum = builder.enumType('NoteFormat', { values: NOTE_FORMATS });

export const NoteRef = builder.objectRef<NoteView>('Note').implement({
  description: 'A note or activity (call, meeting, email) attached to records.',
  fields: (t) => ({
    note_id: t.exposeString('note_id'),
    id: t.exposeString('id'),
    kind: t.expose('kind', { type: NoteKindEnum }),
    title: t.exposeString('title'),
    body: t.exposeString('body'),
    format: t.expose('format', { type: NoteFormatEnum }),
    record_ids: t.exposeStringList('record_ids'),
    records: t.expose('records', { type: [RelatedRecordRef] }),
    created_by: t.exposeString('created_by', { nullable: true }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
    deleted_at: t.exposeString('deleted_at', { nullable: true }),
  }),
});

const NotePageRef = pageType('NotePage', NoteRef);

builder.queryFields((t) => ({
  notes: t.field({
    type: NotePageRef,
    authScopes: { tool: 'notes' },
    args: { record_id: t.arg.string(), kind: t.arg({ type: NoteKindEnum }), page: t.arg.int(), page_size: t.arg.int() },
    resolve: (_r, args, ctx) => ctx.services.notes.list({
      record_id: args.record_id ?? undefined, kind: args.kind ?? undefined, page: args.page ?? undefined, page_size: args.page_size ?? undefined,
    }),
  }),
  note: t.field({
    type: NoteRef,
    authScopes: { tool: 'notes' },
    args: { note_id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.notes.get(args.note_id),
  }),
}));

builder.mutationFields((t) => ({
  createNote: t.field({
    type: NoteRef,
    authScopes: { tool: 'notes' },
    args: {
      title: t.arg.string({ required: true }), body: t.arg.string(), kind: t.arg({ type: NoteKindEnum }),
      format: t.arg({ type: NoteFormatEnum }), record_ids: t.arg.stringList(),
    },
    resolve: (_r, args, ctx) => ctx.services.notes.create({
      title: args.title, body: args.body ?? undefined, kind: args.kind ?? undefined, format: args.format ?? undefined,
      record_ids: args.record_ids ?? undefined,
    }),
  }),
  updateNote: t.field({
    type: NoteRef,
    authScopes: { tool: 'notes' },
    args: {
      note_id: t.arg.string({ required: true }), title: t.arg.string(), body: t.arg.string(), kind: t.arg({ type: NoteKindEnum }),
      format: t.arg({ type: NoteFormatEnum }), record_ids: t.arg.stringList(),
    },
    resolve: (_r, args, ctx) => ctx.services.notes.update({
      note_id: args.note_id, title: args.title ?? undefined, body: args.body ?? undefined, kind: args.kind ?? undefined,
      format: args.format ?? undefined, record_ids: args.record_ids ?? undefined,
    }),
  }),
  deleteNote: t.field({
    type: NoteRef,
    authScopes: { tool: 'notes' },
    args: { note_id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.notes.delete(args.note_id),
  }),
}));
