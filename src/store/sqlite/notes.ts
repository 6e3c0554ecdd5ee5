import type { Note } from '../../domain/types.ts';
import type { NewEvent, NewNote, NotePatch, NoteQuery } from '../../domain/store/port-work.ts';
import { insertSql, type Connection } from './connection.ts';
import { linkedTo, NOTE_LINKS, setLinks, withLinks } from './record-links.ts';
import { pageRows, resourceRows, when, whereAll } from './resources.ts';
import { idFor, now } from './rows.ts';
import { withEvents } from './timeline.ts';

export const NOTE_COLUMNS = 't.id, t.workspace_id, t.kind, t.title, t.body, t.format, t.created_by, t.created_at, t.updated_at, t.deleted_at';
type NoteRow = Omit<Note, 'record_ids'>;

/** Writes a note's row as given, without its links (create and load alike). */
export function insertNoteRow(c: Connection, note: NoteRow): void {
  c.run(
    insertSql('notes', 'id, workspace_id, kind, title, body, format, created_by, created_at, updated_at, deleted_at'),
    note.id, note.workspace_id, note.kind, note.title, note.body, note.format, note.created_by, note.created_at, note.updated_at, note.deleted_at,
  );
}

/** Synchronous note methods of the Store: notes and their record attachments (note_records). */
export function noteMethods(c: Connection) {
  const notes = resourceRows(c, {
    table: 'notes', kind: 'note', columns: NOTE_COLUMNS, toEntity: (row: NoteRow): Note => withLinks(c, NOTE_LINKS, [row])[0]!,
  });

  return {
    createNote(workspaceId: string, input: NewNote, events: NewEvent[]): Note {
      return withEvents(c, workspaceId, events, () => {
        const id = idFor('note', input);
        const at = now();
        insertNoteRow(c, {
          id, workspace_id: workspaceId, kind: input.kind, title: input.title, body: input.body, format: input.format,
          created_by: input.created_by, created_at: at, updated_at: at, deleted_at: null,
        });
        setLinks(c, NOTE_LINKS, workspaceId, id, input.record_ids);
        return notes.find(workspaceId, id)!;
      });
    },

    getNote(workspaceId: string, noteId: string): Note | null {
      return notes.find(workspaceId, noteId) ?? null;
    },

    /** Newest first (ties by id, descending). */
    listNotes(workspaceId: string, query: NoteQuery): { items: Note[]; total: number } {
      const from = whereAll('notes t', [
        { sql: 't.workspace_id = ? AND t.deleted_at IS NULL', params: [workspaceId] },
        when(query.kind, 't.kind = ?'),
        linkedTo(NOTE_LINKS, query.record_id),
      ]);
      const { rows, total } = pageRows<NoteRow>(c, NOTE_COLUMNS, from, 't.created_at DESC, t.id DESC', query);
      return { items: withLinks(c, NOTE_LINKS, rows), total };
    },

    updateNote(workspaceId: string, noteId: string, patch: NotePatch, events: NewEvent[]): Note {
      return notes.update(workspaceId, noteId, events, () => ({ kind: patch.kind, title: patch.title, body: patch.body, format: patch.format }), () => {
        if (patch.record_ids !== undefined) setLinks(c, NOTE_LINKS, workspaceId, noteId, patch.record_ids);
      });
    },

    deleteNote(workspaceId: string, noteId: string, events: NewEvent[]): Note {
      return notes.softDelete(workspaceId, noteId, events);
    },
  };
}
