import type {
  ApiKey, CrmList, FieldConfig, FieldDef, FieldType, ListEntry, Note, NoteFormat, NoteKind, ObjectType, RecordData, Relation, Role,
  SavedView, Scope, StoredRecord, Task, TaskStatus, TimelineEvent, User, Workspace,
} from '../../domain/types.ts';
import { meansNoPlan } from '../../domain/actor.ts';
import type { Row } from './connection.ts';

/**
 * Maps the property maps the statements return (`n {.a, .b}` projections, so a missing property
 * arrives as null) to domain entities. JSON-encoded properties (`Field.config`, `Record.data`,
 * `ListEntry.data`, `List.fields`, `View.filters`, `View.sorts`, `Event.diff`) are decoded here and
 * nowhere else.
 */

export type Props = Record<string, unknown>;

const str = (value: unknown): string => String(value);
const strOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** The property map in a result column (a `n {.…}` projection). */
export function props(row: Row | undefined, column: string): Props | undefined {
  const value = row?.[column];
  return value === null || value === undefined ? undefined : (value as Props);
}

export function toWorkspace(p: Props): Workspace {
  const plan = strOrNull(p.plan);
  return {
    // As SQLite's migration 33 clears them.
    id: str(p.id), name: str(p.name), plan: meansNoPlan(plan) ? null : plan, trial_ends_at: strOrNull(p.trial_ends_at),
    created_at: str(p.created_at), updated_at: str(p.updated_at),
  };
}

export function toUser(p: Props): User {
  return {
    id: str(p.id), workspace_id: str(p.workspace_id), email: str(p.email), name: strOrNull(p.name),
    role: str(p.role) as Role, created_at: str(p.created_at),
  };
}

export function toApiKey(p: Props): ApiKey {
  return {
    id: str(p.id), workspace_id: str(p.workspace_id), user_id: str(p.user_id), name: str(p.name),
    scopes: ((p.scopes as unknown[] | null) ?? []).map(str) as Scope[], hash: str(p.hash), last_four: str(p.last_four),
    created_at: str(p.created_at), last_used_at: strOrNull(p.last_used_at), revoked_at: strOrNull(p.revoked_at),
  };
}

function toField(p: Props): FieldDef {
  return {
    id: str(p.id), slug: str(p.slug), name: str(p.name), type: str(p.type) as FieldType,
    description: strOrNull(p.description), required: p.required === true, unique: p.unique === true,
    archived: p.archived === true, config: JSON.parse(typeof p.config === 'string' ? p.config : '{}') as FieldConfig,
    position: Number(p.position), created_at: str(p.created_at),
  };
}

/** From a row with `object_type` and `fields` columns; fields ordered by position. */
export function toObjectType(row: Row): ObjectType {
  const p = row.object_type as Props;
  const fields = (row.fields as Props[]).map(toField).sort((a, b) => a.position - b.position);
  return {
    id: str(p.id), workspace_id: str(p.workspace_id), slug: str(p.slug), name: str(p.name), icon: strOrNull(p.icon),
    color: strOrNull(p.color), description: strOrNull(p.description), standard: p.standard === true, fields,
    created_at: str(p.created_at), updated_at: str(p.updated_at), deleted_at: strOrNull(p.deleted_at),
  };
}

export function toRecord(p: Props): StoredRecord {
  return {
    id: str(p.id), workspace_id: str(p.workspace_id), object_type_slug: str(p.object_type_slug),
    data: JSON.parse(str(p.data)) as RecordData, assignee_id: strOrNull(p.assignee_id), created_by: strOrNull(p.created_by),
    created_at: str(p.created_at), updated_at: str(p.updated_at), deleted_at: strOrNull(p.deleted_at),
  };
}

export function toRelation(p: Props): Relation {
  return {
    type: str(p.type), source: str(p.source) as Relation['source'], from_id: str(p.from_id), from_object: str(p.from_object),
    to_id: str(p.to_id), to_object: str(p.to_object), created_at: str(p.created_at),
  };
}

const strings = (value: unknown): string[] => ((value as unknown[] | null) ?? []).map(str);
/** The ids of `links` ({position, id}, see cypher/resources.ts) in link order. */
const linked = (value: unknown): string[] =>
  [...((value as Props[] | null) ?? [])].sort((a, b) => Number(a.position) - Number(b.position)).map((link) => str(link.id));
const json = <T>(value: unknown): T => JSON.parse(str(value)) as T;
const jsonOrNull = <T>(value: unknown): T | null => (value === null || value === undefined ? null : json<T>(value));

/** Created, updated and (soft) deleted stamps, shared by every soft-deletable resource. */
function stamps(p: Props): { created_at: string; updated_at: string; deleted_at: string | null } {
  return { created_at: str(p.created_at), updated_at: str(p.updated_at), deleted_at: strOrNull(p.deleted_at) };
}

export function toList(p: Props): CrmList {
  return {
    id: str(p.id), workspace_id: str(p.workspace_id), object_type_slug: str(p.object_type_slug), name: str(p.name),
    description: strOrNull(p.description), fields: json<FieldDef[]>(p.fields), created_by: strOrNull(p.created_by), ...stamps(p),
  };
}

export function toEntry(p: Props): ListEntry {
  return {
    id: str(p.id), workspace_id: str(p.workspace_id), list_id: str(p.list_id), record_id: str(p.record_id),
    data: json<RecordData>(p.data), created_by: strOrNull(p.created_by), created_at: str(p.created_at), updated_at: str(p.updated_at),
  };
}

export function toView(p: Props): SavedView {
  return {
    id: str(p.id), workspace_id: str(p.workspace_id), name: str(p.name), object_type_slug: str(p.object_type_slug),
    list_id: strOrNull(p.list_id), filters: jsonOrNull<Record<string, unknown>>(p.filters), sorts: json<SavedView['sorts']>(p.sorts),
    visible_fields: strings(p.visible_fields), created_by: strOrNull(p.created_by), ...stamps(p),
  };
}

/** From a note projection with its `links`. */
export function toNote(p: Props): Note {
  return {
    id: str(p.id), workspace_id: str(p.workspace_id), kind: str(p.kind) as NoteKind, title: str(p.title), body: str(p.body),
    format: str(p.format) as NoteFormat, record_ids: linked(p.links), created_by: strOrNull(p.created_by), ...stamps(p),
  };
}

/** From a task projection with its `links`. */
export function toTask(p: Props): Task {
  return {
    id: str(p.id), workspace_id: str(p.workspace_id), title: str(p.title), body: str(p.body), status: str(p.status) as TaskStatus,
    due_at: strOrNull(p.due_at), assignee_id: strOrNull(p.assignee_id), record_ids: linked(p.links),
    created_by: strOrNull(p.created_by), completed_at: strOrNull(p.completed_at), ...stamps(p),
  };
}

export function toEvent(p: Props): TimelineEvent {
  return {
    id: str(p.id), workspace_id: str(p.workspace_id), at: str(p.at), actor_id: strOrNull(p.actor_id), key_id: strOrNull(p.key_id),
    via: strOrNull(p.via) as TimelineEvent['via'], tool: strOrNull(p.tool), action: str(p.action) as TimelineEvent['action'],
    resource_type: str(p.resource_type) as TimelineEvent['resource_type'], resource_id: str(p.resource_id),
    record_ids: strings(p.record_ids), diff: jsonOrNull<NonNullable<TimelineEvent['diff']>>(p.diff),
  };
}
