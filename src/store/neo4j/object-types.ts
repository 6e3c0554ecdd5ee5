import { notFound, objectTypeInUse } from '../../domain/errors.ts';
import { newId } from '../../domain/ids.ts';
import { claimChange, fieldClaims } from '../../domain/fields.ts';
import type { FieldDef, ObjectType, RecordData } from '../../domain/types.ts';
import type { FieldPatch, NewEvent, NewField, NewObjectType, ObjectTypePatch } from '../../domain/store/port.ts';
import { fieldSlugTaken, objectSlugTaken } from './conflicts.ts';
import type { Connection, Tx } from './connection.ts';
import * as Q from './cypher/object-types.ts';
import { COUNT_RECORDS, HELD_VALUES, RELEASE_FIELD_CLAIMS, WRITE_CLAIMS } from './cypher/records.ts';
import { toObjectType } from './rows.ts';
import { idFor, now } from './stamps.ts';
import { definedOnly } from './settings.ts';
import { bind } from './statement.ts';
import { writeWithEvents } from './timeline.ts';

function fieldParams(field: NewField) {
  return {
    name: field.name, type: field.type, description: field.description ?? null,
    required: field.required ?? false, unique: field.unique ?? false, config: JSON.stringify(field.config ?? {}),
  };
}

/** Writes an object type and its fields inside the caller's transaction; returns its id. */
export async function insertObjectType(tx: Tx, workspaceId: string, input: NewObjectType, at: string): Promise<string> {
  const row = await tx.first(bind(Q.CREATE_OBJECT_TYPE, {
    workspace_id: workspaceId, id: idFor('objectType', input), slug: input.slug, name: input.name, icon: input.icon ?? null,
    color: input.color ?? null, description: input.description ?? null, standard: input.standard ?? false, now: at,
    fields: input.fields.map((field, position) => ({ id: newId('field'), slug: field.slug, ...fieldParams(field), position })),
  }));
  if (!row) throw notFound('workspace', workspaceId);
  return String(row.id);
}

/** The live object type with the slug, read inside the caller's transaction. */
export async function findObjectType(tx: Tx, workspaceId: string, slug: string): Promise<ObjectType | null> {
  const row = await tx.first(bind(Q.GET_OBJECT_TYPE, { workspace_id: workspaceId, slug }));
  return row ? toObjectType(row) : null;
}

/** The live object type with the slug; `not_found` otherwise. */
export async function requireObjectType(tx: Tx, workspaceId: string, slug: string): Promise<ObjectType> {
  const found = await findObjectType(tx, workspaceId, slug);
  if (!found) throw notFound('object type', slug);
  return found;
}

/**
 * Keeps a field's unique claims in step with a patch, in its transaction, as the SQLite adapter
 * does: a field that starts claiming values claims those its live records hold (a conflict when
 * two hold one), one that stops releases them.
 */
async function reclaimValues(tx: Tx, type: ObjectType, before: FieldDef, patch: FieldPatch): Promise<void> {
  const change = claimChange(before, patch);
  if (change === 'none') return;
  await tx.rows(bind(RELEASE_FIELD_CLAIMS, { object_type_id: type.id, field: before.slug }));
  if (change === 'release') return;
  const held = (await tx.rows(bind(HELD_VALUES, { object_type_id: type.id })))
    .map((r) => ({ record_id: String(r.record_id), value: (JSON.parse(String(r.data)) as RecordData)[before.slug] }));
  const claims = fieldClaims(type.slug, before, held, change);
  if (claims.length > 0) await tx.rows(bind(WRITE_CLAIMS, { claims: claims.map((claim) => ({ ...claim, field: before.slug })) }));
}

/** Object type and field methods of the Store. */
export function objectTypeMethods(conn: Connection) {
  const reread = async (tx: Tx, workspaceId: string, id: string): Promise<ObjectType> =>
    toObjectType((await tx.first(bind(Q.GET_OBJECT_TYPE_BY_ID, { workspace_id: workspaceId, id })))!);

  return {
    async listObjectTypes(workspaceId: string): Promise<ObjectType[]> {
      const rows = await conn.read((tx) => tx.rows(bind(Q.LIST_OBJECT_TYPES, { workspace_id: workspaceId })));
      return rows.map(toObjectType);
    },

    async getObjectType(workspaceId: string, slug: string): Promise<ObjectType | null> {
      return conn.read((tx) => findObjectType(tx, workspaceId, slug));
    },

    async createObjectType(workspaceId: string, input: NewObjectType, events?: NewEvent[]): Promise<ObjectType> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => reread(tx, workspaceId, await insertObjectType(tx, workspaceId, input, now())), () => objectSlugTaken(input.slug));
    },

    async updateObjectType(workspaceId: string, slug: string, patch: ObjectTypePatch, events?: NewEvent[]): Promise<ObjectType> {
      const set = definedOnly({ name: patch.name, icon: patch.icon, color: patch.color, description: patch.description });
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const row = await tx.first(bind(Q.UPDATE_OBJECT_TYPE, { workspace_id: workspaceId, slug, patch: set, now: now() }));
        if (!row) throw notFound('object type', slug);
        return toObjectType(row);
      });
    },

    async deleteObjectType(workspaceId: string, slug: string, events?: NewEvent[]): Promise<ObjectType> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const row = await tx.first(bind(Q.DELETE_OBJECT_TYPE, { workspace_id: workspaceId, slug, now: now() }));
        if (!row) throw notFound('object type', slug);
        // Under the lock the delete took (createList and createView take it first): a refusal rolls it back.
        const uses = await tx.first(bind(Q.COUNT_OBJECT_TYPE_USES, { workspace_id: workspaceId, slug }));
        const lists = Number(uses?.lists ?? 0);
        const views = Number(uses?.views ?? 0);
        if (lists > 0 || views > 0) throw objectTypeInUse(slug, lists, views);
        return toObjectType(row);
      });
    },

    async addField(workspaceId: string, objectSlug: string, field: NewField, events?: NewEvent[]): Promise<ObjectType> {
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const row = await tx.first(bind(Q.ADD_FIELD, {
          workspace_id: workspaceId, slug: objectSlug, id: newId('field'), ...fieldParams(field), field_slug: field.slug, now: now(),
        }));
        if (!row) throw notFound('object type', objectSlug);
        return reread(tx, workspaceId, String(row.id));
      }, () => fieldSlugTaken(field.slug));
    },

    async updateField(workspaceId: string, objectSlug: string, fieldSlug: string, patch: FieldPatch, events?: NewEvent[]): Promise<ObjectType> {
      const set = definedOnly({
        name: patch.name, description: patch.description, required: patch.required, unique: patch.unique,
        archived: patch.archived, config: patch.config === undefined ? undefined : JSON.stringify(patch.config),
      });
      return writeWithEvents(conn, workspaceId, events, async (tx) => {
        const type = await requireObjectType(tx, workspaceId, objectSlug);
        const row = await tx.first(bind(Q.UPDATE_FIELD, { workspace_id: workspaceId, slug: objectSlug, field_slug: fieldSlug, patch: set, now: now() }));
        if (!row) throw notFound('field', `${objectSlug}.${fieldSlug}`);
        const before = type.fields.find((f) => f.slug === fieldSlug);
        if (before) await reclaimValues(tx, type, before, patch);
        return reread(tx, workspaceId, type.id);
      });
    },

    async countRecords(workspaceId: string, objectSlug: string): Promise<number> {
      return conn.read(async (tx) => {
        const type = await requireObjectType(tx, workspaceId, objectSlug);
        const row = await tx.first(bind(COUNT_RECORDS, { object_type_id: type.id }));
        return Number(row?.total ?? 0);
      });
    },
  };
}
