import { notFound, objectTypeInUse } from '../../domain/errors.ts';
import { claimChange, fieldClaims } from '../../domain/fields.ts';
import type { FieldDef, ObjectType } from '../../domain/types.ts';
import type { FieldPatch, NewEvent, NewField, NewObjectType, ObjectTypePatch } from '../../domain/store/port.ts';
import { assignments, insertSql, perConnection, type Connection, type SqlParam } from './connection.ts';
import { guard } from './errors.ts';
import {
  FIELD_COLUMNS, idFor, newFieldDef, now, OBJECT_TYPE_COLUMNS, toField, toObjectType, type FieldRow, type ObjectTypeRow,
} from './rows.ts';
import { withEvents } from './timeline.ts';

const flag = (value: boolean | undefined): number => (value ? 1 : 0);

/** The live object type with the slug, or undefined. */
export function findObjectType(c: Connection, workspaceId: string, slug: string): ObjectTypeRow | undefined {
  return c.get<ObjectTypeRow>(
    `SELECT ${OBJECT_TYPE_COLUMNS} FROM object_types WHERE workspace_id = ? AND slug = ? AND deleted_at IS NULL`,
    workspaceId, slug,
  );
}

/** The live object type with the slug; `not_found` otherwise. */
export function requireObjectType(c: Connection, workspaceId: string, slug: string): ObjectTypeRow {
  const row = findObjectType(c, workspaceId, slug);
  if (!row) throw notFound('object type', slug);
  return row;
}

/**
 * Keeps a field's unique claims in step with a patch, in its transaction: a field that starts
 * claiming values (made unique, or a unique field taken out of the archive) claims those its live
 * records hold, refused as a conflict when two hold one (fieldClaims); one that stops releases
 * them, so none is left behind to refuse a write after the flag comes back.
 */
function reclaimValues(c: Connection, type: ObjectTypeRow, before: FieldDef, patch: FieldPatch): void {
  const change = claimChange(before, patch);
  if (change === 'none') return;
  c.run('DELETE FROM record_uniques WHERE object_type_pk = ? AND field = ?', type.pk, before.slug);
  if (change === 'release') return;
  const held = c.all<{ pk: number; record_id: string; value: unknown }>(
    'SELECT pk, id AS record_id, json_extract(data, ?) AS value FROM records WHERE object_type_pk = ? AND deleted_at IS NULL AND json_extract(data, ?) IS NOT NULL',
    `$.${before.slug}`, type.pk, `$.${before.slug}`,
  );
  const pks = new Map(held.map((r) => [r.record_id, r.pk]));
  for (const claim of fieldClaims(type.slug, before, held, change)) {
    c.run('INSERT INTO record_uniques (object_type_pk, field, value, record_pk) VALUES (?, ?, ?, ?)', type.pk, before.slug, claim.value, pks.get(claim.record_id)!);
  }
}

/** Writes a new object type and its fields; the caller provides the transaction. */
export function insertObjectType(c: Connection, workspaceId: string, input: NewObjectType, at: string): void {
  insertObjectTypeRow(c, {
    id: idFor('objectType', input), workspace_id: workspaceId, slug: input.slug, name: input.name, icon: input.icon ?? null,
    color: input.color ?? null, description: input.description ?? null, standard: input.standard ?? false,
    fields: input.fields.map((field, position) => newFieldDef(field, position, at)), created_at: at, updated_at: at, deleted_at: null,
  });
}

/** Writes an object type and its fields as given (create and load alike); returns its pk. */
export function insertObjectTypeRow(c: Connection, type: ObjectType): number {
  const { lastInsertRowid } = guard(() => c.run(
    insertSql('object_types', 'id, workspace_id, slug, name, icon, color, description, standard, created_at, updated_at, deleted_at'),
    type.id, type.workspace_id, type.slug, type.name, type.icon, type.color, type.description, flag(type.standard),
    type.created_at, type.updated_at, type.deleted_at,
  ), { slug: type.slug });
  const pk = Number(lastInsertRowid);
  for (const field of type.fields) insertField(c, pk, field);
  return pk;
}

function insertField(c: Connection, objectTypePk: number, field: FieldDef): void {
  guard(() => c.run(
    insertSql('fields', FIELD_COLUMNS), field.id, objectTypePk, field.slug, field.name, field.type, field.description,
    flag(field.required), flag(field.unique), flag(field.archived), JSON.stringify(field.config), field.position, field.created_at,
  ), { slug: field.slug });
}

function withFields(c: Connection, row: ObjectTypeRow): ObjectType {
  const fields = c.all<FieldRow>(`SELECT ${FIELD_COLUMNS} FROM fields WHERE object_type_pk = ? ORDER BY position`, row.pk);
  return toObjectType(row, fields.map(toField));
}

/** Sets the given columns (undefined = unchanged) and bumps updated_at. */
function patchObjectType(c: Connection, row: ObjectTypeRow, columns: Record<string, SqlParam | undefined>): ObjectType {
  const set = assignments({ ...columns, updated_at: now() });
  c.run(`UPDATE object_types SET ${set.sql.join(', ')} WHERE pk = ?`, ...set.params, row.pk);
  return withFields(c, c.get<ObjectTypeRow>(`SELECT ${OBJECT_TYPE_COLUMNS} FROM object_types WHERE pk = ?`, row.pk)!);
}

/**
 * Object types are read on every record call and change rarely, so reads are cached. An entry is
 * valid while nothing changed the data model: this connection's writes bump `generation` (so does
 * a group of writes that failed to commit, Connection.onLostGroup), and `Connection.othersVersion`
 * (`PRAGMA data_version`) moves when another connection (the CLI, another process) commits or the
 * database is opened again (with calls in flight, checked once per call begun:
 * Connection.beginCall). Cached values are frozen because requests share them.
 */
class ObjectTypeCache {
  #generation = 0;
  #entries = new Map<string, { version: string; type: ObjectType | null }>();

  constructor(private readonly c: Connection) {
    c.onLostGroup(() => this.invalidate());
  }

  get(workspaceId: string, slug: string, load: () => ObjectType | null): ObjectType | null {
    const version = `${this.#generation}:${this.c.othersVersion()}`;
    const key = `${workspaceId}\u0000${slug}`;
    const hit = this.#entries.get(key);
    if (hit && hit.version === version) return hit.type;
    const type = load();
    if (this.#entries.size > 10_000) this.#entries.clear();
    this.#entries.set(key, { version, type: type && deepFreeze(type) });
    return type;
  }

  /** Called by every write that can change object types or fields. */
  invalidate(): void {
    this.#generation++;
    this.#entries.clear();
  }
}

/** Freezes a value and everything it holds: for cached values that calls share. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The object type cache of a connection; other modules invalidate it when they write object types. */
export const objectTypeCache = perConnection((c) => new ObjectTypeCache(c));

/** The live object type with the slug and its fields, through the connection's object type cache. */
export function cachedObjectType(c: Connection, workspaceId: string, slug: string): ObjectType | null {
  return objectTypeCache(c).get(workspaceId, slug, () => {
    const row = findObjectType(c, workspaceId, slug);
    return row ? withFields(c, row) : null;
  });
}

/** Synchronous object type and field methods of the Store. */
export function objectTypeMethods(c: Connection) {
  const cache = objectTypeCache(c);
  /** Runs a data-model write and drops cached object types, whether it commits or not. */
  const changing = <T>(write: () => T): T => {
    try {
      return write();
    } finally {
      cache.invalidate();
    }
  };
  return {
    listObjectTypes(workspaceId: string): ObjectType[] {
      const rows = c.all<ObjectTypeRow>(
        `SELECT ${OBJECT_TYPE_COLUMNS} FROM object_types WHERE workspace_id = ? AND deleted_at IS NULL ORDER BY pk`, workspaceId,
      );
      const fields = c.all<FieldRow>(
        `SELECT ${FIELD_COLUMNS} FROM fields WHERE object_type_pk IN
           (SELECT pk FROM object_types WHERE workspace_id = ? AND deleted_at IS NULL)
         ORDER BY position`,
        workspaceId,
      );
      return rows.map((row) => toObjectType(row, fields.filter((f) => f.object_type_pk === row.pk).map(toField)));
    },

    getObjectType: (workspaceId: string, slug: string): ObjectType | null => cachedObjectType(c, workspaceId, slug),

    createObjectType(workspaceId: string, input: NewObjectType, events?: NewEvent[]): ObjectType {
      return changing(() => withEvents(c, workspaceId, events, () => {
        if (!c.get('SELECT 1 FROM workspaces WHERE id = ?', workspaceId)) throw notFound('workspace', workspaceId);
        insertObjectType(c, workspaceId, input, now());
        return withFields(c, requireObjectType(c, workspaceId, input.slug));
      }));
    },

    updateObjectType(workspaceId: string, slug: string, patch: ObjectTypePatch, events?: NewEvent[]): ObjectType {
      return changing(() => withEvents(c, workspaceId, events, () => patchObjectType(c, requireObjectType(c, workspaceId, slug), {
        name: patch.name, icon: patch.icon, color: patch.color, description: patch.description,
      })));
    },

    deleteObjectType(workspaceId: string, slug: string, events?: NewEvent[]): ObjectType {
      return changing(() => withEvents(c, workspaceId, events, () => {
        const row = requireObjectType(c, workspaceId, slug);
        // In the write transaction (immediate: writers take turns), so no list or view created meanwhile is left behind.
        const uses = c.get<{ lists: number; views: number }>(
          `SELECT (SELECT COUNT(*) FROM lists WHERE workspace_id = ? AND object_type_slug = ? AND deleted_at IS NULL) AS lists,
                  (SELECT COUNT(*) FROM views WHERE workspace_id = ? AND object_type_slug = ? AND deleted_at IS NULL) AS views`, workspaceId, slug, workspaceId, slug,
        )!;
        if (uses.lists > 0 || uses.views > 0) throw objectTypeInUse(slug, uses.lists, uses.views);
        return patchObjectType(c, row, { deleted_at: now() });
      }));
    },

    addField(workspaceId: string, objectSlug: string, field: NewField, events?: NewEvent[]): ObjectType {
      return changing(() => withEvents(c, workspaceId, events, () => {
        const row = requireObjectType(c, workspaceId, objectSlug);
        const { next } = c.get<{ next: number }>('SELECT COALESCE(MAX(position) + 1, 0) AS next FROM fields WHERE object_type_pk = ?', row.pk)!;
        insertField(c, row.pk, newFieldDef(field, next, now()));
        return patchObjectType(c, row, {});
      }));
    },

    updateField(workspaceId: string, objectSlug: string, fieldSlug: string, patch: FieldPatch, events?: NewEvent[]): ObjectType {
      return changing(() => withEvents(c, workspaceId, events, () => {
        const row = requireObjectType(c, workspaceId, objectSlug);
        const found = c.get<FieldRow>(`SELECT ${FIELD_COLUMNS} FROM fields WHERE object_type_pk = ? AND slug = ?`, row.pk, fieldSlug);
        if (!found) throw notFound('field', `${objectSlug}.${fieldSlug}`);
        const field = toField(found);
        const set = assignments({
          name: patch.name,
          description: patch.description,
          required: patch.required === undefined ? undefined : flag(patch.required),
          is_unique: patch.unique === undefined ? undefined : flag(patch.unique),
          archived: patch.archived === undefined ? undefined : flag(patch.archived),
          config: patch.config === undefined ? undefined : JSON.stringify(patch.config),
        });
        if (set.sql.length > 0) c.run(`UPDATE fields SET ${set.sql.join(', ')} WHERE id = ?`, ...set.params, field.id);
        reclaimValues(c, row, field, patch);
        return patchObjectType(c, row, {});
      }));
    },

    countRecords(workspaceId: string, objectSlug: string): number {
      const row = requireObjectType(c, workspaceId, objectSlug);
      return c.get<{ n: number }>('SELECT COUNT(*) AS n FROM records WHERE object_type_pk = ? AND deleted_at IS NULL', row.pk)!.n;
    },
  };
}
