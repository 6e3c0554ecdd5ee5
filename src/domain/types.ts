/**
 * Entities and closed vocabularies shared by every layer. Pure types and constants: no I/O.
 * Timestamps are ISO-8601 strings in UTC (`2026-11-22T03:05:50.123Z`).
 */

/** Scopes an API key may carry (README.md, "Keys, scopes, roles, billing"). A key with no scopes may call every tool. */
export const SCOPES = [
  'objects', 'records', 'lists', 'views', 'notes', 'tasks', 'analytics', 'reports', 'timeline',
  'graph', 'integrations', 'email', 'messages', 'meetings', 'billing', 'support',
] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** How a call reached the service; recorded for provenance. */
export const CALL_STYLES = ['rest', 'bridge', 'mcp', 'graphql', 'cli'] as const;
export type CallStyle = (typeof CALL_STYLES)[number];

export const FIELD_TYPES = [
  'text', 'number', 'currency', 'checkbox', 'date', 'timestamp', 'select', 'multi_select', 'status',
  'email', 'phone', 'url', 'rating', 'record_reference', 'user',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface Workspace {
  id: string;
  name: string;
  /** Active paid plan, or null while on trial. */
  plan: string | null;
  /** When the trial ends; null means no trial limit. */
  trial_ends_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface User {
  id: string;
  workspace_id: string;
  email: string;
  name: string | null;
  role: Role;
  created_at: string;
}

export interface ApiKey {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  scopes: Scope[];
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  hash: string;
  last_four: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Per-type settings of a field. Only the keys that apply to the field's type are set. */
export interface FieldConfig {
  /** select, multi_select, status: the allowed values, in order (status stages are ordered). */
  options?: string[];
  /**
   * select, multi_select, status: options removed by a field patch, which records may still hold.
   * Filters take them; no record takes one anew. Derived by the patch, oldest first, at most 500.
   */
  retired_options?: string[];
  /** record_reference: slug of the target object type. */
  target?: string;
  /** record_reference: whether the field holds many references (an array of record ids). */
  many?: boolean;
  /** currency: ISO-4217 code of amounts; default USD. */
  currency_code?: string;
  /** rating: the highest rating; default 5. */
  max?: number;
}

export interface FieldDef {
  id: string;
  slug: string;
  name: string;
  type: FieldType;
  description: string | null;
  required: boolean;
  unique: boolean;
  archived: boolean;
  config: FieldConfig;
  /** Order of the field within its object type. */
  position: number;
  created_at: string;
}

export interface ObjectType {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  icon: string | null;
  color: string | null;
  description: string | null;
  /** One of the standard types every workspace starts with (companies, contacts, deals). */
  standard: boolean;
  fields: FieldDef[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A record's field values keyed by field slug. Values are JSON (validated per field type). */
export type RecordData = Record<string, unknown>;

export interface StoredRecord {
  id: string;
  workspace_id: string;
  object_type_slug: string;
  data: RecordData;
  /** The user a Member must be to write the record. Records a user creates are assigned to them. */
  assignee_id: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/**
 * A directed edge between two records. Edges from record_reference fields have
 * `source: 'field'` and `type` = the field's slug; later graph tools add `source: 'link'` edges.
 */
export interface Relation {
  type: string;
  source: 'field' | 'link';
  from_id: string;
  from_object: string;
  to_id: string;
  to_object: string;
  created_at: string;
}

// ---- The everyday work surface: lists, views, notes, tasks, the timeline ----

export const NOTE_KINDS = ['note', 'call', 'meeting', 'email'] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

export const NOTE_FORMATS = ['plain', 'markdown'] as const;
export type NoteFormat = (typeof NOTE_FORMATS)[number];

export const TASK_STATUSES = ['open', 'in_progress', 'done'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A list of records of one object type, with entry fields of its own (a status field makes it a pipeline). */
export interface CrmList {
  id: string;
  workspace_id: string;
  object_type_slug: string;
  name: string;
  description: string | null;
  fields: FieldDef[];
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A record's membership of a list; `data` is keyed by the list's field slugs. */
export interface ListEntry {
  id: string;
  workspace_id: string;
  list_id: string;
  record_id: string;
  data: RecordData;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface ViewSort {
  field: string;
  ascending: boolean;
}

/** A saved view of an object type, or of a list (then `list_id` is set). */
export interface SavedView {
  id: string;
  workspace_id: string;
  name: string;
  object_type_slug: string;
  list_id: string | null;
  /** The public filter object as saved (validated against the fields when saved). */
  filters: Record<string, unknown> | null;
  sorts: ViewSort[];
  visible_fields: string[];
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface Note {
  id: string;
  workspace_id: string;
  kind: NoteKind;
  title: string;
  body: string;
  format: NoteFormat;
  record_ids: string[];
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface Task {
  id: string;
  workspace_id: string;
  title: string;
  body: string;
  status: TaskStatus;
  /** ISO-8601 timestamp (UTC) or null. */
  due_at: string | null;
  assignee_id: string | null;
  record_ids: string[];
  created_by: string | null;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export const EVENT_ACTIONS = ['create', 'update', 'delete', 'restore', 'add', 'remove', 'classify'] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];

export const RESOURCE_TYPES = [
  'record', 'object_type', 'field', 'list', 'entry', 'view', 'note', 'task', 'link', 'report',
  'email', 'message', 'meeting', 'integration', 'ticket',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** One field's change: absent `before` means it was set, absent `after` that it was cleared. */
export interface FieldChange {
  before?: unknown;
  after?: unknown;
}

/** An append-only history entry: who (user, key, call style, tool) did what to which resource, when. */
export interface TimelineEvent {
  id: string;
  workspace_id: string;
  at: string;
  actor_id: string | null;
  key_id: string | null;
  via: CallStyle | null;
  tool: string | null;
  action: EventAction;
  resource_type: ResourceType;
  resource_id: string;
  /** The records the event concerns (a record's own events, notes and tasks on it, its list entries). */
  record_ids: string[];
  /** Field-level changes; null where there is no field data (e.g. a delete). */
  diff: Record<string, FieldChange> | null;
}
