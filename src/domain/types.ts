/**
 * Entities and closed vocabularies shared by every layer. Pure types and constants: no I/O.
 * Timestamps are ISO-8601 strings in UTC (`2026-11-22T03:05:50.123Z`).
 */

/** Scopes an API key may carry (SPEC.md §5). A key with no scopes may call every tool. */
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
