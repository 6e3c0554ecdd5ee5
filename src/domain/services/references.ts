import type { Store } from '../store/port.ts';
import { validationError } from '../errors.ts';
import type { ValidatedData } from '../fields.ts';
import type { StoredRecord } from '../types.ts';

/**
 * Every record a write references must be live, in the workspace and of the field's target type;
 * every user it names must be a member. `prefix` places the parameter, e.g. `entries[2].`.
 */
export async function checkReferences(store: Store, workspaceId: string, valid: Pick<ValidatedData, 'refTargets' | 'userRefs'>, prefix = ''): Promise<void> {
  for (const ref of valid.refTargets) {
    if (ref.ids.length === 0) continue;
    const found = new Map((await store.getRecords(workspaceId, ref.ids)).map((r) => [r.id, r]));
    for (const id of ref.ids) {
      const target = found.get(id);
      if (!target || target.object_type_slug !== ref.target) {
        throw validationError(`${prefix}data.${ref.field}`, `${prefix}data.${ref.field} references ${id}, which is not a live ${ref.target} record`, {
          rule: 'reference_not_found', target: ref.target,
        });
      }
    }
  }
  for (const ref of valid.userRefs) {
    for (const id of ref.ids) {
      if (!(await store.getUser(workspaceId, id))) {
        throw validationError(`${prefix}data.${ref.field}`, `${prefix}data.${ref.field}: ${id} is not a user of this workspace`, { rule: 'user_not_found' });
      }
    }
  }
}

/**
 * The live records with these ids, in the given order; a missing one is a validation_error on
 * `${param}[i]` (records of another workspace are missing too).
 */
export async function requireRecords(store: Store, workspaceId: string, ids: readonly string[], param: string): Promise<StoredRecord[]> {
  const found = new Map((await store.getRecords(workspaceId, [...new Set(ids)])).map((r) => [r.id, r]));
  return ids.map((id, i) => {
    const record = found.get(id);
    if (!record) throw validationError(`${param}[${i}]`, `${param}[${i}]: record ${id} does not exist or was deleted`, { rule: 'reference_not_found' });
    return record;
  });
}

/**
 * The records a new `record_ids` of a note or task names, in order: an id it already holds may be
 * of a record in the trash (the list is sent back as it was read, to add or drop another), while
 * an id it gains must be of a live record of the workspace (`reference_not_found` naming its place
 * otherwise). Held records, trashed ones included, stay under the Member rule (attachedRecords).
 */
export async function keptOrLiveRecords(store: Store, workspaceId: string, ids: readonly string[], held: readonly string[], param: string): Promise<StoredRecord[]> {
  const holds = new Set(held);
  const gained = ids.flatMap((id, i) => (holds.has(id) ? [] : [{ id, i }]));
  const live = new Map((await store.getRecords(workspaceId, [...new Set(gained.map((g) => g.id))])).map((r) => [r.id, r]));
  for (const { id, i } of gained) {
    if (!live.has(id)) throw validationError(`${param}[${i}]`, `${param}[${i}]: record ${id} does not exist or was deleted`, { rule: 'reference_not_found' });
  }
  const kept = new Map((await attachedRecords(store, workspaceId, ids.filter((id) => holds.has(id)))).map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const record = live.get(id) ?? kept.get(id);
    return record ? [record] : [];
  });
}

/**
 * The records a note or task is already on, deleted ones included, for the Member rule: a record
 * in the trash is still its assignee's, and comes back with whatever was written on it meanwhile.
 * Purged records are gone and left out.
 */
export async function attachedRecords(store: Store, workspaceId: string, ids: readonly string[]): Promise<StoredRecord[]> {
  const found = await Promise.all(ids.map((id) => store.getRecord(workspaceId, id, { includeDeleted: true })));
  return found.filter((r): r is StoredRecord => r !== null);
}
