import { z } from 'zod';
import { NOTE_FORMATS, NOTE_KINDS } from '../../src/domain/types.ts';
import { CREATES, DELETES, defineTool, given, pick, READ_ONLY, UPDATES } from './define.ts';
import { LIMITS } from '../../src/domain/limits.ts';
import { id, page, pageOutput, text, pageSize, RELATED_SELECTION, recordIds, relatedRecordOutput } from './shapes.ts';

const noteId = id('a note', 'nte');
const kind = z.enum(NOTE_KINDS).describe('note, call, meeting or email. Default note.');
const format = z.enum(NOTE_FORMATS).describe('plain or markdown. Default plain.');

const noteOutput = z.object({
  note_id: z.string(),
  id: z.string(),
  kind: z.enum(NOTE_KINDS),
  title: z.string(),
  body: z.string(),
  format: z.enum(NOTE_FORMATS),
  record_ids: z.array(z.string()),
  records: z.array(relatedRecordOutput),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
});
const NOTE = `note_id id kind title body format record_ids records { ${RELATED_SELECTION} } created_by created_at updated_at deleted_at`;

export const noteTools = [
  defineTool({
    name: 'notes.list',
    scope: 'notes',
    title: 'List notes',
    description: 'Lists notes and activities, newest first, optionally those attached to one record or of one kind. Example: {"record_id": "rec_…", "kind": "call"}.',
    input: z.strictObject({
      record_id: z.string().min(1).max(LIMITS.idMaxLength).optional().describe('Only notes attached to this record.'),
      kind: z.enum(NOTE_KINDS).optional().describe('Only notes of this kind: note, call, meeting or email. Default: every kind.'), page, page_size: pageSize,
    }),
    output: pageOutput(noteOutput),
    annotations: READ_ONLY,
    operation: {
      document: `query($record_id: String, $kind: NoteKind, $page: Int, $page_size: Int) {
        notes(record_id: $record_id, kind: $kind, page: $page, page_size: $page_size) { items { ${NOTE} } total page page_size } }`,
      variables: (i) => given(i),
      result: pick('notes'),
    },
  }),
  defineTool({
    name: 'notes.get',
    scope: 'notes',
    title: 'Get a note',
    description: 'Returns one note or activity with the display names of the records it is attached to. Example: {"note_id": "nte_…"}.',
    input: z.strictObject({ note_id: noteId }),
    output: noteOutput,
    annotations: READ_ONLY,
    operation: { document: `query($note_id: String!) { note(note_id: $note_id) { ${NOTE} } }`, variables: (i) => i, result: pick('note') },
  }),
  defineTool({
    name: 'notes.create',
    scope: 'notes',
    title: 'Write a note',
    description: 'Writes a note or logs an activity (call, meeting, email) and attaches it to records in the same call. Example: {"kind": "call", "title": "Intro call", "body": "Budget approved for Q1.", "record_ids": ["rec_…"]}.',
    input: z.strictObject({
      title: z.string().min(1).max(200).describe('Short title.'),
      body: text(LIMITS.stringMaxLength).optional().describe('Text, plain or markdown.'),
      kind: kind.optional(),
      format: format.optional(),
      record_ids: recordIds.optional(),
    }),
    output: noteOutput,
    annotations: CREATES,
    operation: {
      document: `mutation($title: String!, $body: String, $kind: NoteKind, $format: NoteFormat, $record_ids: [String!]) {
        createNote(title: $title, body: $body, kind: $kind, format: $format, record_ids: $record_ids) { ${NOTE} } }`,
      variables: (i) => given(i),
      result: pick('createNote'),
    },
  }),
  defineTool({
    name: 'notes.update',
    scope: 'notes',
    title: 'Edit a note',
    description: "Changes a note's title, body, kind or format; record_ids, when given, replaces its attachments. Example: {\"note_id\": \"nte_…\", \"body\": \"Budget approved for Q2.\", \"format\": \"markdown\"}.",
    input: z.strictObject({
      note_id: noteId, title: z.string().min(1).max(200).optional(), body: text(LIMITS.stringMaxLength).optional(),
      kind: kind.optional(), format: format.optional(), record_ids: recordIds.optional(),
    }),
    output: noteOutput,
    annotations: UPDATES,
    operation: {
      document: `mutation($note_id: String!, $title: String, $body: String, $kind: NoteKind, $format: NoteFormat, $record_ids: [String!]) {
        updateNote(note_id: $note_id, title: $title, body: $body, kind: $kind, format: $format, record_ids: $record_ids) { ${NOTE} } }`,
      variables: (i) => given(i),
      result: pick('updateNote'),
    },
  }),
  defineTool({
    name: 'notes.delete',
    scope: 'notes',
    title: 'Delete a note',
    description: 'Soft-deletes a note or activity: gone from notes.list and notes.get, its delete event stays on the timeline. Example: {"note_id": "nte_…"}.',
    input: z.strictObject({ note_id: noteId }),
    output: noteOutput,
    annotations: DELETES,
    operation: { document: `mutation($note_id: String!) { deleteNote(note_id: $note_id) { ${NOTE} } }`, variables: (i) => i, result: pick('deleteNote') },
  }),
];
