import { pagedStatement, statement } from '../statement.ts';
import { LINKED, linkableRecords, replaceLinks, resourceStatements } from './resources.ts';

/** Notes and activities, `(:Note)-[:ABOUT {position}]->(:Record)`. */

export const NOTE = `t {.id, .workspace_id, .kind, .title, .body, .format, .created_by, .created_at, .updated_at, .deleted_at, ${LINKED}}`;

export const NOTES = resourceStatements('Note', NOTE);

export const NOTE_LINKS = { replace: replaceLinks('Note'), linkable: linkableRecords('Note') };

export const CREATE_NOTE = statement('createNote', ['workspace_id', 'id', 'kind', 'title', 'body', 'format', 'created_by', 'now'], `
CREATE (t:Note {id: $id, workspace_id: $workspace_id, kind: $kind, title: $title, body: $body, format: $format,
                created_by: $created_by, created_at: $now, updated_at: $now})
RETURN t.id AS id`);

/** Live notes, optionally of a kind (`$kind` null: any), newest first (ties by id, descending). */
const LIVE = 'WHERE t.deleted_at IS NULL AND ($kind IS NULL OR t.kind = $kind)';
const SHAPE = { variable: 't', returns: `${NOTE} AS note`, orderBy: 't.created_at DESC, t.id DESC' };

/** A workspace's notes. */
export const NOTE_PAGE = pagedStatement('Notes', ['workspace_id', 'kind'], `MATCH (t:Note {workspace_id: $workspace_id})\n${LIVE}`, SHAPE);

/** The notes attached to one record, walked from the record. */
export const RECORD_NOTE_PAGE = pagedStatement(
  'RecordNotes', ['workspace_id', 'record_id', 'kind'], `MATCH (:Record {id: $record_id, workspace_id: $workspace_id})<-[:ABOUT]-(t:Note)\n${LIVE}`, SHAPE,
);
