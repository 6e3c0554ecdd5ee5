import { CrmError, validationError } from '../errors.ts';
import type { FieldDef, ObjectType, RecordData } from '../types.ts';
import type { FieldPatch, FieldRef, UniqueClaim } from '../store/port.ts';
import { isPlainObject, suggestError, typeError } from './checks.ts';
import { storedValueProblem, uniqueKey, validateFieldValue, type StoredValue } from './values.ts';

export interface ValidatedData {
  /** The full normalised data to store; keys without a value are omitted. */
  data: RecordData;
  /** One claim per live unique field that has a value. */
  uniques: UniqueClaim[];
  /** One edge per record id held by a record_reference field (archived fields included). */
  refs: FieldRef[];
  /** Per live reference field, the record ids this write adds, so the caller can check they exist. */
  refTargets: Array<{ field: string; target: string; ids: string[] }>;
  /** Per live user field, the user ids this write adds, so the caller can check membership. */
  userRefs: Array<{ field: string; ids: string[] }>;
}

/** null, undefined, a blank string or an empty array: the field has no value. */
function isNoValue(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function idsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** What validation looks up in an object type's fields, worked out once per frozen object type. */
interface FieldIndex {
  bySlug: Map<string, FieldDef>;
  /** Live fields in position order. */
  live: FieldDef[];
  liveUnique: FieldDef[];
  references: FieldDef[];
}

const indexes = new WeakMap<ObjectType, FieldIndex>();

function indexFields(objectType: ObjectType): FieldIndex {
  const live = objectType.fields.filter((f) => !f.archived).sort((a, b) => a.position - b.position);
  return {
    bySlug: new Map(objectType.fields.map((f) => [f.slug, f])),
    live,
    liveUnique: live.filter((f) => f.unique),
    references: objectType.fields.filter((f) => f.type === 'record_reference'),
  };
}

/**
 * The field index of an object type. Object types served from the store's cache are frozen and
 * shared by every call, so their index is kept with them (validating a create built it each
 * time: a tenth of what a create allocated); one that can still change is indexed afresh.
 */
function fieldIndex(objectType: ObjectType): FieldIndex {
  if (!Object.isFrozen(objectType)) return indexFields(objectType);
  let index = indexes.get(objectType);
  if (!index) indexes.set(objectType, (index = indexFields(objectType)));
  return index;
}

/** The live (not archived) fields of an object type, in position order. */
export function liveFields(objectType: ObjectType): FieldDef[] {
  return [...fieldIndex(objectType).live];
}

/**
 * The refusal of a field name that is no live field: an archived field is named as one (its
 * values are kept, it is only out of use), anything else gets the nearest of `candidates`.
 */
export function notALiveField(objectType: ObjectType, name: string, param: string, subject: string, candidates: readonly string[]): CrmError {
  if (objectType.fields.some((f) => f.slug === name && f.archived)) {
    return validationError(param, `${subject} is an archived field of ${objectType.slug}`, { rule: 'archived_field' });
  }
  return suggestError(param, `${subject} is not a field of ${objectType.slug}`, 'unknown_field', name, candidates);
}

/** The unique-value claims of stored data: one per live unique field with a value (also for restore). */
export function uniqueClaims(objectType: ObjectType, data: RecordData): UniqueClaim[] {
  const claims: UniqueClaim[] = [];
  for (const f of fieldIndex(objectType).liveUnique) {
    if (!isNoValue(data[f.slug])) claims.push({ field: f.slug, value: uniqueKey(f, data[f.slug] as StoredValue) });
  }
  return claims;
}

/** The slugs of the fields whose values the type's records claim: its live unique fields. */
export function claimingFields(objectType: ObjectType): Set<string> {
  return new Set(fieldIndex(objectType).liveUnique.map((f) => f.slug));
}

/**
 * Whether a write's claims, worked out from an earlier read of its object type, are out of date
 * by the time the write runs (in its transaction, given the fields that claim values then): a
 * field that claims now holds a value in `data` the claims leave out (made unique meanwhile, which
 * would leave a unique field with unclaimed duplicates), or the claims name a field that no longer
 * claims (released meanwhile, which would leave a claim nothing releases). The write is then
 * refused as changed meanwhile, to be validated again. A field's type never changes, so its
 * claim's key is the same either way.
 */
export function claimsOutdated(claimingNow: ReadonlySet<string>, data: RecordData, uniques: readonly UniqueClaim[]): boolean {
  const claimed = new Set(uniques.map((claim) => claim.field));
  for (const field of claimed) if (!claimingNow.has(field)) return true;
  for (const field of claimingNow) if (!claimed.has(field) && !isNoValue(data[field])) return true;
  return false;
}

/** Whether a field's values are claimed by the records holding them: a unique field that is not archived. */
function claimsValues(field: Pick<FieldDef, 'unique' | 'archived'>): boolean {
  return field.unique && !field.archived;
}

/**
 * What a field patch does to the field's unique claims, for the store to do in the patch's
 * transaction: nothing; `release` them all (unique off, or archived); or claim the values live
 * records hold (fieldClaims), named by the patch key that started it, `unique` or `archived`
 * (a unique field taken out of the archive). Claiming first releases what is left of earlier ones.
 */
export function claimChange(before: Pick<FieldDef, 'unique' | 'archived'>, patch: Pick<FieldPatch, 'unique' | 'archived'>): 'none' | 'release' | 'unique' | 'archived' {
  const claiming = claimsValues({ unique: patch.unique ?? before.unique, archived: patch.archived ?? before.archived });
  if (claiming === claimsValues(before)) return 'none';
  if (!claiming) return 'release';
  return patch.unique === true && !before.unique ? 'unique' : 'archived';
}

/**
 * The claims a field takes when it starts claiming values (made unique, or a unique field taken out
 * of the archive), one per live record holding a value; `param` is the patch key that started it.
 * Two records holding one value make the change a conflict naming both: the first to be written
 * would take the value and leave the other unable to save any change.
 */
export function fieldClaims(
  objectSlug: string, field: Pick<FieldDef, 'slug' | 'type' | 'config'>, held: Iterable<{ record_id: string; value: unknown }>, param: string,
): Array<{ record_id: string; value: string }> {
  const holders = new Map<string, string>();
  const claims: Array<{ record_id: string; value: string }> = [];
  for (const { record_id, value } of held) {
    if (isNoValue(value)) continue;
    const key = uniqueKey(field, value as StoredValue);
    const other = holders.get(key);
    if (other !== undefined) {
      // An archived field's values cannot be written: taking it out of the archive needs unique off first.
      const fix = param === 'archived'
        ? `take it out of the archive with unique: false, change or clear one of them, then set unique again`
        : 'change or clear one of them first';
      throw new CrmError('conflict', `${objectSlug}.${field.slug} cannot be unique while records ${other} and ${record_id} both hold ${JSON.stringify(value)}; ${fix}`, {
        param, field: field.slug, rule: 'unique', value: key, record_ids: [other, record_id],
      });
    }
    holders.set(key, record_id);
    claims.push({ record_id, value: key });
  }
  return claims;
}

/**
 * The field as a write of this record may use it: a retired option the record already holds may
 * be sent again (a read-modify-write round trip, or adding an option to a multi-select beside it),
 * though no record may take one anew.
 */
function keeping(field: FieldDef, held: unknown): FieldDef {
  const retired = field.config.retired_options;
  if (!retired?.length || held === undefined) return field;
  const kept = retired.filter((o) => (Array.isArray(held) ? held.includes(o) : held === o));
  return kept.length === 0 ? field : { ...field, config: { ...field.config, options: [...(field.config.options ?? []), ...kept] } };
}

/**
 * Validates a record's data against its object type and returns what the store needs.
 *
 * - `input` must be a plain object keyed by field slug. An unknown key is `unknown_field` (with the
 *   live slugs and the nearest one); writing an archived field is `archived_field`, except that an
 *   update may echo an archived field's stored value unchanged (a read-modify-write round trip),
 *   and may send again a retired option the record holds. Any field's stored value sent back
 *   unchanged is kept as it is, though a rule of the field tightened since (a lowered rating max).
 * - `null`, a blank string or an empty array means "no value": the key is omitted (on update,
 *   removed). `undefined` is ignored.
 * - With `opts.existing` (update, patch semantics) the result is the existing data overlaid with
 *   the input. Existing values are carried over without re-validation (an option removed from a
 *   select since stays until the field is written again).
 * - Every live required field must have a value in the result (`required`).
 */
export function validateRecordData(objectType: ObjectType, input: unknown, opts: { existing?: RecordData } = {}): ValidatedData {
  if (!isPlainObject(input)) throw typeError('data', 'an object of field values keyed by field slug', input);
  const { bySlug, live, references } = fieldIndex(objectType);
  const existing = opts.existing ?? {};
  const merged: RecordData = { ...existing };
  const written: FieldDef[] = [];

  for (const [key, raw] of Object.entries(input)) {
    if (raw === undefined) continue;
    const param = `data.${key}`;
    const field = bySlug.get(key);
    if (!field) {
      throw suggestError(param, `${param} is not a field of ${objectType.slug}`, 'unknown_field', key, live.map((f) => f.slug));
    }
    if (field.archived) {
      if (opts.existing && sameValue(existing[key], raw)) continue;
      throw validationError(param, `${param} is an archived field of ${objectType.slug} and cannot be written`, { rule: 'archived_field' });
    }
    // A value sent back as the record holds it stays, though the field's rules have tightened since
    // (a lowered rating max, a retired option): a read-modify-write round trip changes nothing there.
    if (opts.existing && key in existing && sameValue(existing[key], raw)) {
      written.push(field);
      continue;
    }
    const value = isNoValue(raw) ? null : validateFieldValue(keeping(field, existing[key]), raw, param);
    if (isNoValue(value)) delete merged[key];
    else merged[key] = value;
    written.push(field);
  }

  for (const field of live) {
    if (field.required && isNoValue(merged[field.slug])) {
      throw validationError(`data.${field.slug}`, `data.${field.slug} is required for ${objectType.slug}`, { rule: 'required' });
    }
  }

  const data: RecordData = {};
  for (const [key, value] of Object.entries(merged)) if (!isNoValue(value)) data[key] = value;

  const refs: FieldRef[] = [];
  for (const f of references) for (const to_id of idsOf(data[f.slug])) refs.push({ field: f.slug, to_id });

  const added = (f: FieldDef): string[] => {
    const before = new Set(idsOf(existing[f.slug]));
    return idsOf(data[f.slug]).filter((id) => !before.has(id));
  };
  const refTargets = written
    .filter((f) => f.type === 'record_reference')
    .map((f) => ({ field: f.slug, target: f.config.target ?? '', ids: added(f) }))
    .filter((t) => t.ids.length > 0);
  const userRefs = written
    .filter((f) => f.type === 'user')
    .map((f) => ({ field: f.slug, ids: added(f) }))
    .filter((t) => t.ids.length > 0);

  return { data, uniques: uniqueClaims(objectType, data), refs, refTargets, userRefs };
}

/**
 * Checks data a store holds (a dumped record's or list entry's) against the fields it was written
 * under, archived ones included: every key is one of `fields`, with a value (not null, "" or []),
 * of the JSON type and stored form its field's values take (storedValueProblem). Only what the
 * value index and the readers rely on: values written under earlier rules stay as they are, as
 * every later write keeps them. Throws a validation_error naming `${param}.<slug>`; `owner` names
 * what has the fields (an object type's slug, a list).
 */
export function checkStoredData(fields: readonly FieldDef[], data: RecordData, param: string, owner: string): void {
  for (const [key, held] of Object.entries(data)) {
    const at = `${param}.${key}`;
    const field = fields.find((f) => f.slug === key);
    if (!field) throw suggestError(at, `${at} is not a field of ${owner}`, 'unknown_field', key, fields.map((f) => f.slug));
    if (held === null || held === '' || (Array.isArray(held) && held.length === 0)) {
      throw validationError(at, `${at} is ${JSON.stringify(held)}, no value: stored data leaves such a key out`, { rule: 'type' });
    }
    const expected = storedValueProblem(field, held);
    if (expected !== null) throw typeError(at, `${expected} (a ${field.type} field)`, held);
  }
}

/** The record's name for lists and graphs: its `name` field, else the first text or email value, else ''. */
export function displayName(objectType: ObjectType, data: RecordData): string {
  const index = fieldIndex(objectType);
  const name = data['name'];
  if (typeof name === 'string' && name.trim() !== '' && index.bySlug.has('name')) return name;
  for (const field of index.live) {
    const value = data[field.slug];
    if ((field.type === 'text' || field.type === 'email') && typeof value === 'string' && value.trim() !== '') return value;
  }
  return '';
}
