import { notFound } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import type { ObjectType } from '../../domain/types.ts';
import type { FieldPatch, NewField, NewObjectType, ObjectTypePatch } from '../port.ts';
import { assignments, type Connection, type SqlParam } from './connection.ts';
import { guard } from './errors.ts';
import {
  FIELD_COLUMNS, idFor, now, OBJECT_TYPE_COLUMNS, toField, toObjectType, type FieldRow, type ObjectTypeRow,
} from './rows.ts';

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

/** Writes an object type and its fields; the caller provides the transaction. */
export function insertObjectType(c: Connection, workspaceId: string, input: NewObjectType, at: string): void {
  const { lastInsertRowid } = guard(() => c.run(
    `INSERT INTO object_types (id, workspace_id, slug, name, icon, color, description, standard, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    idFor('objectType', input), workspaceId, input.slug, input.name, input.icon ?? null, input.color ?? null,
    input.description ?? null, flag(input.standard), at, at,
  ), { slug: input.slug });
  input.fields.forEach((field, position) => insertField(c, Number(lastInsertRowid), field, position, at));
}

function insertField(c: Connection, objectTypePk: number, field: NewField, position: number, at: string): void {
  guard(() => c.run(
    `INSERT INTO fields (id, object_type_pk, slug, name, type, description, required, is_unique, config, position, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    newId('field'), objectTypePk, field.slug, field.name, field.type, field.description ?? null,
    flag(field.required), flag(field.unique), JSON.stringify(field.config ?? {}), position, at,
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

/** Synchronous object type and field methods of the Store. */
export function objectTypeMethods(c: Connection) {
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

    getObjectType(workspaceId: string, slug: string): ObjectType | null {
      const row = findObjectType(c, workspaceId, slug);
      return row ? withFields(c, row) : null;
    },

    createObjectType(workspaceId: string, input: NewObjectType): ObjectType {
      return c.tx(() => {
        if (!c.get('SELECT 1 FROM workspaces WHERE id = ?', workspaceId)) throw notFound('workspace', workspaceId);
        insertObjectType(c, workspaceId, input, now());
        return withFields(c, requireObjectType(c, workspaceId, input.slug));
      });
    },

    updateObjectType(workspaceId: string, slug: string, patch: ObjectTypePatch): ObjectType {
      return c.tx(() => patchObjectType(c, requireObjectType(c, workspaceId, slug), {
        name: patch.name, icon: patch.icon, color: patch.color, description: patch.description,
      }));
    },

    deleteObjectType(workspaceId: string, slug: string): ObjectType {
      return c.tx(() => patchObjectType(c, requireObjectType(c, workspaceId, slug), { deleted_at: now() }));
    },

    addField(workspaceId: string, objectSlug: string, field: NewField): ObjectType {
      return c.tx(() => {
        const row = requireObjectType(c, workspaceId, objectSlug);
        const { next } = c.get<{ next: number }>('SELECT COALESCE(MAX(position) + 1, 0) AS next FROM fields WHERE object_type_pk = ?', row.pk)!;
        insertField(c, row.pk, field, next, now());
        return patchObjectType(c, row, {});
      });
    },

    updateField(workspaceId: string, objectSlug: string, fieldSlug: string, patch: FieldPatch): ObjectType {
      return c.tx(() => {
        const row = requireObjectType(c, workspaceId, objectSlug);
        const field = c.get<{ id: string }>('SELECT id FROM fields WHERE object_type_pk = ? AND slug = ?', row.pk, fieldSlug);
        if (!field) throw notFound('field', `${objectSlug}.${fieldSlug}`);
        const set = assignments({
          name: patch.name,
          description: patch.description,
          required: patch.required === undefined ? undefined : flag(patch.required),
          is_unique: patch.unique === undefined ? undefined : flag(patch.unique),
          archived: patch.archived === undefined ? undefined : flag(patch.archived),
          config: patch.config === undefined ? undefined : JSON.stringify(patch.config),
        });
        if (set.sql.length > 0) c.run(`UPDATE fields SET ${set.sql.join(', ')} WHERE id = ?`, ...set.params, field.id);
        return patchObjectType(c, row, {});
      });
    },

    countRecords(workspaceId: string, objectSlug: string): number {
      const row = requireObjectType(c, workspaceId, objectSlug);
      return c.get<{ n: number }>('SELECT COUNT(*) AS n FROM records WHERE object_type_pk = ? AND deleted_at IS NULL', row.pk)!.n;
    },
  };
}
