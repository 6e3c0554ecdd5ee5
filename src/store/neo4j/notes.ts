import type { Note } from '../../domain/types.ts';
import type { NewEvent, NewNote, NotePatch, NoteQuery } from '../../domain/store/port-work.ts';
import type { Connection } from './connection.ts';
import * as Q from './cypher/notes.ts';
import { readPage } from './pages.ts';
import { ResourceKind, setLinks } from './resources.ts';
import { props, toNote } from './rows.ts';
import { definedOnly } from './settings.ts';
import { idFor, now } from './stamps.ts';
import { bind, bindPageAbout } from './statement.ts';
import { writeWithEvents } from './timeline.ts';

const NOTES = new ResourceKind(Q.NOTES, 'note', toNote);

/** Note methods of the Store: notes and their record attachments (ABOUT edges). */
export function noteMethods(conn: Connection) {
  return {
    async createNote(workspaceId: string, input: NewNote, events: NewEvent[]): Promise<Note> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const id = idFor('note', input);
        await tx.rows(bind(Q.CREATE_NOTE, {
          workspace_id: workspaceId, id, kind: input.kind, title: input.title, body: input.body, format: input.format,
          created_by: input.created_by, now: now(),
        }));
        await setLinks(tx, Q.NOTE_LINKS, workspaceId, id, input.record_ids);
        return (await NOTES.find(tx, workspaceId, id))!;
      });
    },

    getNote: (workspaceId: string, noteId: string): Promise<Note | null> => NOTES.get(conn, workspaceId, noteId),

    /** Newest first (ties by id, descending), optionally about a record and/or of a kind. */
    async listNotes(workspaceId: string, query: NoteQuery): Promise<{ items: Note[]; total: number }> {
      const statements = bindPageAbout(Q.NOTE_PAGE, Q.RECORD_NOTE_PAGE, { workspace_id: workspaceId, kind: query.kind ?? null }, query);
      const { rows, total } = await conn.read((tx) => readPage(tx, statements));
      return { items: rows.map((row) => toNote(props(row, 'note')!)), total };
    },

    async updateNote(workspaceId: string, noteId: string, patch: NotePatch, events: NewEvent[]): Promise<Note> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const set = definedOnly({ kind: patch.kind, title: patch.title, body: patch.body, format: patch.format });
        await NOTES.patch(tx, workspaceId, noteId, set, now());
        if (patch.record_ids !== undefined) await setLinks(tx, Q.NOTE_LINKS, workspaceId, noteId, patch.record_ids);
        return (await NOTES.find(tx, workspaceId, noteId))!;
      });
    },

    deleteNote: (workspaceId: string, noteId: string, events: NewEvent[]): Promise<Note> => NOTES.softDelete(conn, workspaceId, noteId, events),
  };
}
