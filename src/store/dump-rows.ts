import { meansNoPlan } from '../domain/actor.ts';
import { checkStoredData, checkStoredField } from '../domain/fields.ts';
import { CrmError, type ErrorCode } from '../domain/errors.ts';
import {
  CALL_STYLES, EVENT_ACTIONS, FIELD_TYPES, NOTE_FORMATS, NOTE_KINDS, RESOURCE_TYPES, ROLES, SCOPES, TASK_STATUSES,
  type ApiKey, type CrmList, type FieldDef, type ListEntry, type Note, type ObjectType, type Relation, type SavedView,
  type StoredRecord, type Task, type TimelineEvent, type User, type ViewSort, type Workspace,
} from '../domain/types.ts';
import { DUMP_ORDER, type DumpKind, type DumpRow } from '../domain/store/port-dump.ts';
import type { SavedReport } from '../domain/reports/types.ts';
import { COMM_KINDS, type Comm, type UsageCount } from '../domain/store/port-comms.ts';
import { CATEGORIES, STRENGTHS, type Classification, type Link, type Reason } from '../domain/graph/types.ts';

/**
 * The shape check of dump rows on their way in. A dump file is outside input: every row must be
 * exactly its domain type (every key present, no other key, values of the right JSON type and
 * vocabulary), so what is loaded is what a later dump writes back. Pure (no store), so any adapter
 * can use it. Cross-row references (a key's user, an entry's list and record) are the loader's.
 */

/** Throws a message fragment ("must be ...") for the value at `path`, or returns nothing. */
type Check = (value: unknown, path: string) => void;

class ShapeError extends Error {
  constructor(readonly path: string, message: string) {
    super(message);
  }
}

const fail = (path: string, expected: string, value: unknown): never => {
  throw new ShapeError(path, `${path} must be ${expected}, not ${value === undefined ? 'missing' : JSON.stringify(value)}`);
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text: Check = (v, path) => {
  if (typeof v !== 'string' || v === '') fail(path, 'a non-empty string', v);
};
/** Names, bodies and descriptions may be empty strings. */
const anyText: Check = (v, path) => {
  if (typeof v !== 'string') fail(path, 'a string', v);
};
/** ISO-8601 timestamps as the stores write them. */
const time: Check = (v, path) => {
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) fail(path, 'an ISO-8601 timestamp', v);
};
const flag: Check = (v, path) => {
  if (typeof v !== 'boolean') fail(path, 'true or false', v);
};
const integer: Check = (v, path) => {
  if (!Number.isInteger(v)) fail(path, 'an integer', v);
};
const number: Check = (v, path) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(path, 'a number', v);
};
const object: Check = (v, path) => {
  if (!isObject(v)) fail(path, 'an object', v);
};

function nullable(check: Check): Check {
  return (v, path) => {
    if (v !== null) check(v, path);
  };
}

function oneOf(allowed: readonly string[]): Check {
  return (v, path) => {
    if (typeof v !== 'string' || !allowed.includes(v)) fail(path, `one of ${allowed.join(', ')}`, v);
  };
}

function arrayOf(check: Check): Check {
  return (v, path) => {
    if (!Array.isArray(v)) fail(path, 'an array', v);
    (v as unknown[]).forEach((item, i) => check(item, `${path}[${i}]`));
  };
}

/** One check per key of T, no more, no fewer: the compiler keeps the shapes in step with the domain types. */
type Shape<T> = { readonly [K in keyof T]-?: Check };

function shape<T>(keys: Shape<T>): Check {
  const known = Object.keys(keys);
  return (v, path) => {
    if (!isObject(v)) fail(path, 'an object', v);
    const row = v as Record<string, unknown>;
    for (const key of known) (keys as Record<string, Check>)[key]!(row[key], `${path}.${key}`);
    const extra = Object.keys(row).find((key) => !Object.hasOwn(keys, key));
    if (extra !== undefined) throw new ShapeError(`${path}.${extra}`, `${path}.${extra} is not a key of this row; allowed: ${known.join(', ')}`);
  };
}

const nullableText = nullable(text);
const nullableTime = nullable(time);
const ids = arrayOf(text);

const FIELD = shape<FieldDef>({
  id: text, slug: text, name: anyText, type: oneOf(FIELD_TYPES), description: nullable(anyText), required: flag, unique: flag,
  archived: flag, config: object, position: integer, created_at: time,
});

/** `detail` is optional in a reason, so it is checked by hand. */
const REASON: Check = (v, path) => {
  const { detail, ...rest } = (isObject(v) ? v : {}) as Record<string, unknown>;
  if (!isObject(v)) fail(path, 'an object', v);
  shape<Omit<Reason, 'detail'>>({ signal: text, value: number, contribution: number })(rest, path);
  if (detail !== undefined) anyText(detail, `${path}.detail`);
};

const ROWS: { readonly [K in DumpKind]: Check } = {
  workspace: shape<Workspace>({ id: text, name: anyText, plan: nullableText, trial_ends_at: nullableTime, created_at: time, updated_at: time }),
  user: shape<User>({ id: text, workspace_id: text, email: text, name: nullable(anyText), role: oneOf(ROLES), created_at: time }),
  api_key: shape<ApiKey>({
    id: text, workspace_id: text, user_id: text, name: anyText, scopes: arrayOf(oneOf(SCOPES)), hash: text, last_four: anyText,
    created_at: time, last_used_at: nullableTime, revoked_at: nullableTime,
  }),
  object_type: shape<ObjectType>({
    id: text, workspace_id: text, slug: text, name: anyText, icon: nullable(anyText), color: nullable(anyText), description: nullable(anyText),
    standard: flag, fields: arrayOf(FIELD), created_at: time, updated_at: time, deleted_at: nullableTime,
  }),
  record: shape<StoredRecord>({
    id: text, workspace_id: text, object_type_slug: text, data: object, assignee_id: nullableText, created_by: nullableText,
    created_at: time, updated_at: time, deleted_at: nullableTime,
  }),
  relation: shape<Relation & { workspace_id: string }>({
    workspace_id: text, type: text, source: oneOf(['field']), from_id: text, from_object: text, to_id: text, to_object: text,
    created_at: time,
  }),
  link: shape<Link>({
    id: text, workspace_id: text, from_id: text, to_id: text, type: text, properties: object, created_by: nullableText, created_at: time,
  }),
  classification: shape<Classification>({
    record_id: text, workspace_id: text, category: oneOf(CATEGORIES), strength: oneOf(STRENGTHS), score: integer,
    reasons: arrayOf(REASON), classified_at: time,
  }),
  list: shape<CrmList>({
    id: text, workspace_id: text, object_type_slug: text, name: anyText, description: nullable(anyText), fields: arrayOf(FIELD),
    created_by: nullableText, created_at: time, updated_at: time, deleted_at: nullableTime,
  }),
  entry: shape<ListEntry>({
    id: text, workspace_id: text, list_id: text, record_id: text, data: object, created_by: nullableText, created_at: time, updated_at: time,
  }),
  view: shape<SavedView>({
    id: text, workspace_id: text, name: anyText, object_type_slug: text, list_id: nullableText, filters: nullable(object),
    sorts: arrayOf(shape<ViewSort>({ field: text, ascending: flag })), visible_fields: ids, created_by: nullableText,
    created_at: time, updated_at: time, deleted_at: nullableTime,
  }),
  note: shape<Note>({
    id: text, workspace_id: text, kind: oneOf(NOTE_KINDS), title: anyText, body: anyText, format: oneOf(NOTE_FORMATS), record_ids: ids,
    created_by: nullableText, created_at: time, updated_at: time, deleted_at: nullableTime,
  }),
  task: shape<Task>({
    id: text, workspace_id: text, title: anyText, body: anyText, status: oneOf(TASK_STATUSES), due_at: nullableTime,
    assignee_id: nullableText, record_ids: ids, created_by: nullableText, completed_at: nullableTime, created_at: time,
    updated_at: time, deleted_at: nullableTime,
  }),
  report: shape<SavedReport>({
    id: text, workspace_id: text, name: anyText, config: object, created_by: nullableText, created_at: time, updated_at: time,
    deleted_at: nullableTime,
  }),
  comm: shape<Comm>({
    id: text, workspace_id: text, kind: oneOf(COMM_KINDS), status: text, tag: nullableText, thread_id: nullableText, at: time, data: object,
    record_ids: ids, attempts: integer, next_attempt_at: nullableTime, created_by: nullableText, created_at: time, updated_at: time,
    deleted_at: nullableTime,
  }),
  usage: shape<UsageCount>({ workspace_id: text, period: text, style: oneOf(CALL_STYLES), count: integer }),
  event: shape<TimelineEvent>({
    id: text, workspace_id: text, at: time, actor_id: nullableText, key_id: nullableText, via: nullable(oneOf(CALL_STYLES)),
    tool: nullableText, action: oneOf(EVENT_ACTIONS), resource_type: oneOf(RESOURCE_TYPES), resource_id: text, record_ids: ids,
    diff: nullable(object),
  }),
};

/** An error (by default `validation_error`) about the `position`-th row (1-based) of a dump, naming its kind and id when known. */
export function dumpRowError(
  position: number, row: unknown, message: string, details: Record<string, unknown> = {}, code: ErrorCode = 'validation_error',
): CrmError {
  const kind = isObject(row) && typeof row['kind'] === 'string' ? row['kind'] : undefined;
  const id = isObject(row) && isObject(row['row']) && typeof row['row']['id'] === 'string' ? row['row']['id'] : undefined;
  const what = [kind, id].filter((part) => part !== undefined).join(' ');
  return new CrmError(code, `dump row ${position}${what ? ` (${what})` : ''}: ${message}`, {
    param: 'rows', row: position, ...(kind === undefined ? {} : { kind }), ...(id === undefined ? {} : { id }), ...details,
  });
}

/**
 * The object type a record belongs to, of the types of the dump with its slug (in dump order).
 * Slugs are reused after a soft delete, and types sharing a slug were live one after another, so
 * it is the newest of them created at or before the record (the first, should the clock have
 * stepped back).
 */
export function typeOfRecord(types: readonly ObjectType[], record: StoredRecord): ObjectType {
  const before = types.filter((type) => type.created_at <= record.created_at);
  return before.length > 0 ? before.reduce((a, b) => (b.created_at >= a.created_at ? b : a)) : types[0]!;
}

/**
 * The record ids a record's data refers to (its record_reference fields' values, archived fields
 * included), each with its path in the row. Every one must be a record of the dump: a store
 * rewrites a record's field edges from its data on every write, and an update of any field of a
 * record referring to no record was refused with not_found, so the record could not be changed.
 * A record may refer to one later in the dump (it was changed after that one was made), so the
 * loaders check these once the dump's records are all in.
 */
export function referencesOf(fields: readonly FieldDef[], data: StoredRecord['data']): Array<{ path: string; id: string }> {
  const found: Array<{ path: string; id: string }> = [];
  for (const field of fields) {
    if (field.type !== 'record_reference') continue;
    const value = data[field.slug];
    if (typeof value === 'string') found.push({ path: `row.data.${field.slug}`, id: value });
    else if (Array.isArray(value)) value.forEach((id, i) => typeof id === 'string' && found.push({ path: `row.data.${field.slug}[${i}]`, id }));
  }
  return found;
}

/**
 * Follows a dump row by row: the first row is the one workspace, kinds come in DUMP_ORDER, every row
 * has its kind's exact shape and belongs to the workspace, and field definitions and the data of
 * records and entries are what a store could hold (#follow). Returns the checked row; throws a
 * `validation_error` naming the row (`dumpRowError`) otherwise.
 */
export class DumpChecker {
  #position = 0;
  #rank = 0;
  #workspaceId: string | null = null;
  /** What records and entries are checked against: object types by slug in dump order, lists by id. */
  readonly #types = new Map<string, ObjectType[]>();
  readonly #lists = new Map<string, CrmList>();

  get workspaceId(): string | null {
    return this.#workspaceId;
  }

  get rows(): number {
    return this.#position;
  }

  check(input: unknown): DumpRow {
    const position = ++this.#position;
    const error = (message: string, details?: Record<string, unknown>) => dumpRowError(position, input, message, details);
    if (!isObject(input) || typeof input['kind'] !== 'string') throw error('a dump row is {"kind": ..., "row": {...}}');
    const kind = input['kind'] as DumpKind;
    const rank = DUMP_ORDER.indexOf(kind);
    if (rank < 0) throw error(`unknown kind ${JSON.stringify(kind)}`, { allowed: DUMP_ORDER });
    if (Object.keys(input).some((key) => key !== 'kind' && key !== 'row')) throw error('a dump row has only the keys kind and row');
    if (this.#workspaceId === null && kind !== 'workspace') throw error('the first row of a dump must be the workspace');
    if (this.#workspaceId !== null && kind === 'workspace') throw error('a dump holds one workspace');
    if (rank < this.#rank) throw error(`${kind} rows must come before ${DUMP_ORDER[this.#rank]} rows`);
    this.#rank = rank;
    try {
      ROWS[kind](input['row'], 'row');
    } catch (err) {
      if (err instanceof ShapeError) throw error(err.message, { field: err.path });
      throw err;
    }
    const row = input as DumpRow;
    if (row.kind === 'workspace' && row.row.plan !== null && meansNoPlan(row.row.plan)) row.row.plan = null;
    if (row.kind === 'workspace') this.#workspaceId = row.row.id;
    else if (row.row.workspace_id !== this.#workspaceId) {
      throw error(`row.workspace_id must be the dump's workspace ${JSON.stringify(this.#workspaceId)}`, { field: 'row.workspace_id' });
    }
    try {
      this.#follow(row);
    } catch (err) {
      if (err instanceof CrmError) throw error(err.message, { ...err.details, field: err.details?.param });
      throw err;
    }
    return row;
  }

  /**
   * Checks the field definitions of object types and lists and keeps them, and checks a record's
   * or entry's data against the ones it was written under (checkStoredField, checkStoredData), so
   * what a load indexes is of the types its readers rely on. A record of a type, or an entry of a
   * list, that the dump does not hold is left to the loader to name.
   */
  #follow(row: DumpRow): void {
    switch (row.kind) {
      case 'object_type':
        row.row.fields.forEach((field, i) => checkStoredField(field, `row.fields[${i}]`));
        this.#types.set(row.row.slug, [...(this.#types.get(row.row.slug) ?? []), row.row]);
        return;
      case 'list':
        row.row.fields.forEach((field, i) => checkStoredField(field, `row.fields[${i}]`));
        this.#lists.set(row.row.id, row.row);
        return;
      case 'record': {
        const types = this.#types.get(row.row.object_type_slug);
        if (types) checkStoredData(typeOfRecord(types, row.row).fields, row.row.data, 'row.data', row.row.object_type_slug);
        return;
      }
      case 'entry': {
        const list = this.#lists.get(row.row.list_id);
        if (list) checkStoredData(list.fields, row.row.data, 'row.data', `the list ${JSON.stringify(list.name)}`);
        return;
      }
    }
  }
}
