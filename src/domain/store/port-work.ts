import type { FilterNode, SortSpec } from '../filter-ast.ts';
import type {
  CrmList, ListEntry, Note, NoteKind, RecordData, SavedView, Task, TaskStatus, TimelineEvent, ViewSort,
} from '../types.ts';
import type { NewField } from './port.ts';

/**
 * The work surface of the Store port: lists and entries, views, notes, tasks and the
 * timeline. Same rules as port.ts. Every mutating method takes the timeline events of the change
 * and writes them in the same transaction as the change, so history is never lost or invented.
 */
export interface WorkStore {
  // Lists and entries
  /** `not_found` when the object type is not live, read in the creating transaction (see Store.deleteObjectType). */
  createList(workspaceId: string, input: NewList, events: NewEvent[]): Promise<CrmList>;
  getList(workspaceId: string, listId: string, opts?: { includeDeleted?: boolean }): Promise<CrmList | null>;
  /** Live lists, oldest first, optionally of one object type. */
  listLists(workspaceId: string, opts?: { object_type_slug?: string }): Promise<CrmList[]>;
  updateList(workspaceId: string, listId: string, patch: ListPatch, events: NewEvent[]): Promise<CrmList>;
  /**
   * Soft delete; entries stay but the list is gone from get/list. `conflict` (listInUse) while live
   * views name the list, checked in the deleting transaction.
   */
  deleteList(workspaceId: string, listId: string, events: NewEvent[]): Promise<CrmList>;
  /**
   * Adds all entries in one transaction or none. `conflict` (details {param: `entries[<i>].record_id`,
   * index}) when a record is already in the list, or appears twice in the batch.
   */
  addListEntries(workspaceId: string, listId: string, entries: NewListEntry[], createdBy: string | null, events: NewEvent[]): Promise<ListEntry[]>;
  getListEntry(workspaceId: string, entryId: string): Promise<ListEntry | null>;
  /** The entries of these records in the list (to find duplicates before writing). */
  findListEntries(workspaceId: string, listId: string, recordIds: readonly string[]): Promise<ListEntry[]>;
  /**
   * Entries of a live list whose record is live, filtered on entry data (system fields record_id,
   * created_at, updated_at map to the entry), sorted and paged like listRecords.
   */
  listEntries(workspaceId: string, listId: string, query: EntryQuery): Promise<{ items: ListEntry[]; total: number }>;
  /**
   * Replaces the entry's data as a whole; with `unchangedSince` (the updated_at the caller read),
   * `conflict` (changedMeanwhile) if another write came between, as updateRecord.
   */
  updateListEntry(workspaceId: string, entryId: string, data: RecordData, events: NewEvent[], unchangedSince?: string): Promise<ListEntry>;
  /** Removes the entry (the removal itself stays on the timeline). */
  removeListEntry(workspaceId: string, entryId: string, events: NewEvent[]): Promise<ListEntry>;

  // Views
  /** `not_found` when the object type or the list given is not live, read in the creating transaction. */
  createView(workspaceId: string, input: NewView, events: NewEvent[]): Promise<SavedView>;
  getView(workspaceId: string, viewId: string): Promise<SavedView | null>;
  /** Live views, oldest first, optionally of one object type and/or list. */
  listViews(workspaceId: string, opts?: { object_type_slug?: string; list_id?: string }): Promise<SavedView[]>;
  updateView(workspaceId: string, viewId: string, patch: ViewPatch, events: NewEvent[]): Promise<SavedView>;
  deleteView(workspaceId: string, viewId: string, events: NewEvent[]): Promise<SavedView>;

  // Notes
  createNote(workspaceId: string, input: NewNote, events: NewEvent[]): Promise<Note>;
  getNote(workspaceId: string, noteId: string): Promise<Note | null>;
  /** Live notes, newest first, optionally attached to a record and/or of a kind. */
  listNotes(workspaceId: string, query: NoteQuery): Promise<{ items: Note[]; total: number }>;
  /** `record_ids`, when given, replaces the attachments. */
  updateNote(workspaceId: string, noteId: string, patch: NotePatch, events: NewEvent[]): Promise<Note>;
  deleteNote(workspaceId: string, noteId: string, events: NewEvent[]): Promise<Note>;

  // Tasks
  createTask(workspaceId: string, input: NewTask, events: NewEvent[]): Promise<Task>;
  getTask(workspaceId: string, taskId: string): Promise<Task | null>;
  /**
   * Live tasks matching every given criterion, ordered by due_at ascending (no due date last), then
   * created_at, then id.
   */
  listTasks(workspaceId: string, query: TaskQuery): Promise<{ items: Task[]; total: number }>;
  /** `record_ids`, when given, replaces the links; completed_at is set when status becomes done and cleared otherwise. */
  updateTask(workspaceId: string, taskId: string, patch: TaskPatch, events: NewEvent[]): Promise<Task>;
  deleteTask(workspaceId: string, taskId: string, events: NewEvent[]): Promise<Task>;

  // Timeline
  /** Events newest first (by id, which sorts by time), optionally about one record, after a cursor. */
  listEvents(workspaceId: string, query: EventQuery): Promise<{ items: TimelineEvent[]; total: number }>;
}

/** An event as the domain states it; the adapter assigns its id (monotonic), workspace and time. */
export type NewEvent = Omit<TimelineEvent, 'id' | 'workspace_id' | 'at'>;

export interface NewList {
  id?: string;
  object_type_slug: string;
  name: string;
  description?: string | null;
  fields: NewField[];
  created_by: string | null;
}

export interface ListPatch {
  name?: string;
  description?: string | null;
}

export interface NewListEntry {
  id?: string;
  record_id: string;
  data: RecordData;
}

export interface EntryQuery {
  filter?: FilterNode;
  sort: SortSpec;
  offset: number;
  limit: number;
}

export interface NewView {
  id?: string;
  name: string;
  object_type_slug: string;
  list_id?: string | null;
  filters?: Record<string, unknown> | null;
  sorts?: ViewSort[];
  visible_fields?: string[];
  created_by: string | null;
}

export interface ViewPatch {
  name?: string;
  filters?: Record<string, unknown> | null;
  sorts?: ViewSort[];
  visible_fields?: string[];
}

type NoteValues = Pick<Note, 'kind' | 'title' | 'body' | 'format' | 'record_ids'>;

export type NewNote = NoteValues & Pick<Note, 'created_by'> & { id?: string };

export type NotePatch = Partial<NoteValues>;

export interface NoteQuery {
  record_id?: string;
  kind?: NoteKind;
  offset: number;
  limit: number;
}

type TaskValues = Pick<Task, 'title' | 'body' | 'status' | 'due_at' | 'assignee_id' | 'record_ids'>;

export type NewTask = TaskValues & Pick<Task, 'created_by'> & { id?: string };

export type TaskPatch = Partial<TaskValues>;

export interface TaskQuery {
  assignee_id?: string;
  status?: TaskStatus[];
  /** Inclusive bounds on due_at (ISO timestamps); tasks without a due date never match a bound. */
  due_after?: string;
  due_before?: string;
  record_id?: string;
  offset: number;
  limit: number;
}

export interface EventQuery {
  record_id?: string;
  /** An event id: only events after it (newer) are returned. */
  since?: string;
  /** An event id: only events before it (older) are returned; with `since`, the events between. */
  before?: string;
  offset: number;
  limit: number;
}
