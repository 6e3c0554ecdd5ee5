import type { FilterNode, SortSpec } from '../filter-ast.ts';
import type { CommsStore } from './port-comms.ts';
import type { DumpStore } from './port-dump.ts';
import type { GraphStore } from './port-graph.ts';
import type { IdempotencyStore } from './port-idempotency.ts';
import type { NewEvent, WorkStore } from './port-work.ts';
import type { PerformanceStore } from './port-performance.ts';
import type { ReportStore } from './port-reports.ts';
import type {
  ApiKey, FieldConfig, FieldDef, FieldType, ObjectType, RecordData, Relation, Role, Scope, StoredRecord, User, Workspace,
} from '../types.ts';

/**
 * The one storage port. Adapters (sqlite/, neo4j/) implement it and pass the conformance suite in
 * test/store/. Rules:
 * - Every method that takes a workspace id only ever sees that workspace's data.
 * - The domain validates before calling; adapters do not re-validate values, they persist them.
 * - Adapters raise CrmError: `conflict` for a taken unique value or slug, `not_found` for a
 *   missing target, `unavailable` when the database cannot be reached.
 * - Ids and timestamps are assigned by the adapter (ids via domain/ids.ts newId), except that a
 *   create input may carry its `id` (the domain pre-assigns ids so a creation's timeline event can
 *   name the new resource; import keeps ids).
 * - Soft-deleted records are invisible to get/list/search/relations unless `includeDeleted`.
 * - Mutators take the timeline events of the change (`events`) and write them in the same
 *   transaction as the change; a failed change writes no event (port-work.ts has the timeline).
 */
export interface Store extends WorkStore, DumpStore, ReportStore, CommsStore, GraphStore, PerformanceStore, IdempotencyStore {
  readonly kind: 'sqlite' | 'neo4j';

  /** Creates or migrates the schema; idempotent. */
  init(): Promise<void>;
  close(): Promise<void>;
  health(): Promise<{ ok: boolean; detail?: string }>;

  // Workspaces, users, keys (workspace settings)
  /** Creates the workspace together with its initial object types, in one transaction. */
  createWorkspace(input: NewWorkspace): Promise<Workspace>;
  getWorkspace(id: string): Promise<Workspace | null>;
  listWorkspaces(): Promise<Workspace[]>;
  updateWorkspace(id: string, patch: WorkspacePatch): Promise<Workspace>;

  /** `conflict` when the email is already a member of the workspace (emails compare lower-cased). */
  createUser(input: NewUser): Promise<User>;
  getUser(workspaceId: string, userId: string): Promise<User | null>;
  listUsers(workspaceId: string): Promise<User[]>;
  /** The workspace's users among these ids, in listUsers' order; an id of no such user is left out. */
  getUsers(workspaceId: string, userIds: readonly string[]): Promise<User[]>;
  updateUserRole(workspaceId: string, userId: string, role: Role): Promise<User>;

  createApiKey(input: NewApiKey): Promise<ApiKey>;
  /** Looks a key up by the SHA-256 of its value, revoked keys included (the caller decides). */
  findApiKeyByHash(hash: string): Promise<ApiKey | null>;
  listApiKeys(workspaceId: string): Promise<ApiKey[]>;
  /** Returns the revoked key, or null when no such key exists. Revoking twice keeps the first time. */
  revokeApiKey(keyId: string): Promise<ApiKey | null>;
  touchApiKey(keyId: string, at: string): Promise<void>;

  // Object types and their fields
  /** Live object types with their fields (archived fields included), ordered by creation. */
  listObjectTypes(workspaceId: string): Promise<ObjectType[]>;
  /** A live object type by slug, or null. */
  getObjectType(workspaceId: string, slug: string): Promise<ObjectType | null>;
  /** `conflict` when a live object type has the slug. */
  createObjectType(workspaceId: string, input: NewObjectType, events?: NewEvent[]): Promise<ObjectType>;
  updateObjectType(workspaceId: string, slug: string, patch: ObjectTypePatch, events?: NewEvent[]): Promise<ObjectType>;
  /**
   * Soft delete. The slug becomes free for a new object type. `conflict` (objectTypeInUse) while
   * live lists or views name the type, checked in the deleting transaction, so a list or view
   * created meanwhile either makes the delete fail or finds the type gone (`not_found`).
   */
  deleteObjectType(workspaceId: string, slug: string, events?: NewEvent[]): Promise<ObjectType>;
  /** `conflict` when the object type already has a field with the slug. */
  addField(workspaceId: string, objectSlug: string, field: NewField, events?: NewEvent[]): Promise<ObjectType>;
  updateField(workspaceId: string, objectSlug: string, fieldSlug: string, patch: FieldPatch, events?: NewEvent[]): Promise<ObjectType>;
  /** Number of live records of an object type. */
  countRecords(workspaceId: string, objectSlug: string): Promise<number>;

  // Records
  /**
   * Writes the record, its unique-value claims and its field relations atomically.
   * `conflict` (details: {param: `data.<field>`, field}) when a unique value is taken by a live
   * record of the same object type.
   */
  createRecord(workspaceId: string, input: NewRecord, events?: NewEvent[]): Promise<StoredRecord>;
  /**
   * The bulk path (imports, benchmark datasets): writes many already-validated records with their
   * claims and relations in one transaction per call, all or none. Refs may point at records of
   * the same batch. Same conflicts as createRecord (details also carry the batch `index`).
   */
  createRecords(workspaceId: string, inputs: NewRecord[], events?: NewEvent[]): Promise<number>;
  getRecord(workspaceId: string, recordId: string, opts?: { includeDeleted?: boolean }): Promise<StoredRecord | null>;
  /** Live records among the ids, in no particular order; unknown ids are skipped. */
  getRecords(workspaceId: string, recordIds: readonly string[]): Promise<StoredRecord[]>;
  /**
   * How the live records among the ids are named in answers that mention them (graph nodes,
   * relations, entries, notes and tasks), in no particular order; unknown and deleted ids are
   * skipped. `display_name` is `displayName` of the record's data under its object type's current
   * fields. The objects are shared and frozen: callers copy, never change them.
   */
  recordSummaries(workspaceId: string, recordIds: readonly string[]): Promise<RecordSummary[]>;
  /**
   * Replaces data, unique claims and field relations as a whole. Same conflicts as create, and
   * `conflict` (changedMeanwhile) when `unchanged_since` is given and the record's updated_at is no
   * longer that: another write came between the caller's read and this one. Every write of a
   * record moves its updated_at forward (stampAfter), so no write goes unnoticed.
   */
  updateRecord(workspaceId: string, recordId: string, input: RecordUpdate, events?: NewEvent[]): Promise<StoredRecord>;
  /** Marks the record deleted and releases its unique claims. */
  softDeleteRecord(workspaceId: string, recordId: string, events?: NewEvent[]): Promise<StoredRecord>;
  /** Clears deleted_at and re-claims the given unique values (`conflict` if one was taken since). */
  restoreRecord(workspaceId: string, recordId: string, uniques: UniqueClaim[], events?: NewEvent[]): Promise<StoredRecord>;
  listRecords(workspaceId: string, query: RecordQuery): Promise<{ items: StoredRecord[]; total: number }>;
  /**
   * Full-text search over the text of live records (prefix match per word, all words must match):
   * hits holding every word whole first, then those with fewer words of text, ties by id.
   */
  searchRecords(workspaceId: string, query: SearchQuery): Promise<{ items: StoredRecord[]; total: number }>;
  /**
   * Relations in both directions whose other end is a live record of the workspace, each with
   * that record's summary, in stored order (created_at, from_id, type, to_id): what records.get shows.
   */
  getRelations(workspaceId: string, recordId: string): Promise<RelatedRecord[]>;
}

/** A record as answers name it (see recordSummaries). */
export interface RecordSummary {
  readonly record_id: string;
  readonly object_type_slug: string;
  readonly display_name: string;
}

/** An edge of a record, and how the live record at its other end is named (see recordSummaries). */
export interface RelatedRecord extends Relation {
  other: RecordSummary;
}

export interface NewWorkspace {
  name: string;
  plan?: string | null;
  trial_ends_at?: string | null;
  objectTypes: NewObjectType[];
}

export interface WorkspacePatch {
  name?: string;
  plan?: string | null;
  trial_ends_at?: string | null;
}

export interface NewUser {
  workspace_id: string;
  email: string;
  name?: string | null;
  role: Role;
}

/** What a caller gives for a new key; the adapter assigns id and timestamps. */
export type NewApiKey = Pick<ApiKey, 'workspace_id' | 'user_id' | 'name' | 'scopes' | 'hash' | 'last_four'>;

export interface NewField {
  slug: string;
  name: string;
  type: FieldType;
  description?: string | null;
  required?: boolean;
  unique?: boolean;
  config?: FieldConfig;
}

export interface FieldPatch {
  name?: string;
  description?: string | null;
  required?: boolean;
  unique?: boolean;
  archived?: boolean;
  config?: FieldConfig;
}

export interface NewObjectType {
  id?: string;
  slug: string;
  name: string;
  icon?: string | null;
  color?: string | null;
  description?: string | null;
  standard?: boolean;
  fields: NewField[];
}

export interface ObjectTypePatch {
  name?: string;
  icon?: string | null;
  color?: string | null;
  description?: string | null;
}

/** A unique field's value, normalised (e.g. lower-cased email) by the domain. */
export interface UniqueClaim {
  field: string;
  value: string;
}

/** An edge from a record_reference field of the written record to another record. */
export interface FieldRef {
  field: string;
  to_id: string;
}

export interface RecordWrite {
  data: RecordData;
  uniques: UniqueClaim[];
  refs: FieldRef[];
}

export interface RecordUpdate extends RecordWrite {
  /** Given: the new assignee (null: none). */
  assignee_id?: string | null;
  /** Given: the updated_at the caller read; the write happens only if the record still has it. */
  unchanged_since?: string;
}

export interface NewRecord extends RecordWrite {
  id?: string;
  object_type_slug: string;
  created_by: string | null;
  assignee_id: string | null;
}

export interface RecordQuery {
  object_type_slug: string;
  filter?: FilterNode;
  sort: SortSpec;
  offset: number;
  limit: number;
}

export interface SearchQuery {
  text: string;
  object_type_slug?: string;
  offset: number;
  limit: number;
}

export type { FieldDef };
export type * from './port-work.ts';
export type * from './port-reports.ts';
export type * from './port-comms.ts';
export type * from './port-graph.ts';
export type * from './port-idempotency.ts';
