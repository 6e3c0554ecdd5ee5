import { newId, type IdKind } from '../../domain/ids.ts';
import type {
  ApiKey, FieldConfig, FieldDef, FieldType, ObjectType, Relation, Scope, StoredRecord, User, Workspace,
} from '../../domain/types.ts';
import type { NewField } from '../../domain/store/port.ts';

/** Row shapes as SQLite returns them, and their mapping to domain entities. */

export const WORKSPACE_COLUMNS = 'id, name, plan, trial_ends_at, created_at, updated_at';
export type WorkspaceRow = Workspace;

export const USER_COLUMNS = 'id, workspace_id, email, name, role, created_at';
export type UserRow = User;

export const API_KEY_COLUMNS = 'id, workspace_id, user_id, name, scopes, hash, last_four, created_at, last_used_at, revoked_at';
export interface ApiKeyRow extends Omit<ApiKey, 'scopes'> {
  scopes: string;
}

export const OBJECT_TYPE_COLUMNS = 'pk, id, workspace_id, slug, name, icon, color, description, standard, created_at, updated_at, deleted_at';
export interface ObjectTypeRow extends Omit<ObjectType, 'standard' | 'fields'> {
  pk: number;
  standard: number;
}

export const FIELD_COLUMNS = 'id, object_type_pk, slug, name, type, description, required, is_unique, archived, config, position, created_at';
export interface FieldRow {
  id: string;
  object_type_pk: number;
  slug: string;
  name: string;
  type: FieldType;
  description: string | null;
  required: number;
  is_unique: number;
  archived: number;
  config: string;
  position: number;
  created_at: string;
}

/** Prefixed with `r.` because record queries join other tables. */
export const RECORD_COLUMNS =
  'r.pk, r.id, r.workspace_id, r.object_type_pk, r.object_type_slug, r.data, r.assignee_id, r.created_by, r.created_at, r.updated_at, r.deleted_at';
export interface RecordRow extends Omit<StoredRecord, 'data'> {
  pk: number;
  object_type_pk: number;
  data: string;
}

/** The columns of a StoredRecord in the order of `RecordValues`, for reads of many records as arrays (Connection.rows). */
export const RECORD_VALUES = 'r.id, r.workspace_id, r.object_type_slug, r.data, r.assignee_id, r.created_by, r.created_at, r.updated_at, r.deleted_at';
export type RecordValues = [string, string, string, string, string | null, string | null, string, string, string | null];

export function recordOf([id, workspace_id, object_type_slug, data, assignee_id, created_by, created_at, updated_at, deleted_at]: RecordValues): StoredRecord {
  return { id, workspace_id, object_type_slug, data: JSON.parse(data) as StoredRecord['data'], assignee_id, created_by, created_at, updated_at, deleted_at };
}

export const RELATION_COLUMNS = 'type, source, from_id, from_object, to_id, to_object, created_at';
export type RelationRow = Relation;

export function toApiKey(row: ApiKeyRow): ApiKey {
  return { ...row, scopes: JSON.parse(row.scopes) as Scope[] };
}

export function toField(row: FieldRow): FieldDef {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    type: row.type,
    description: row.description,
    required: row.required === 1,
    unique: row.is_unique === 1,
    archived: row.archived === 1,
    config: JSON.parse(row.config) as FieldConfig,
    position: row.position,
    created_at: row.created_at,
  };
}

/** A new field's definition as stored (object types and lists alike): defaults filled in, a new id. */
export function newFieldDef(field: NewField, position: number, at: string): FieldDef {
  return {
    id: newId('field'), slug: field.slug, name: field.name, type: field.type, description: field.description ?? null,
    required: field.required ?? false, unique: field.unique ?? false, archived: false, config: field.config ?? {}, position, created_at: at,
  };
}

export function toObjectType(row: ObjectTypeRow, fields: FieldDef[]): ObjectType {
  const { pk: _pk, standard, ...rest } = row;
  return { ...rest, standard: standard === 1, fields };
}

export function toRecord(row: RecordRow): StoredRecord {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    object_type_slug: row.object_type_slug,
    data: JSON.parse(row.data) as StoredRecord['data'],
    assignee_id: row.assignee_id,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
  };
}

/** Timestamps are ISO-8601 in UTC, assigned by the adapter. */
export const now = (): string => new Date().toISOString();

/** The id a create input carries (the domain may pre-assign it for its timeline event), or a new one. */
export function idFor(kind: IdKind, input: object): string {
  const given = (input as { id?: unknown }).id;
  return typeof given === 'string' && given !== '' ? given : newId(kind);
}
