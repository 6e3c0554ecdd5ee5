import { CrmError } from '../../src/domain/errors.ts';
import { newId } from '../../src/domain/ids.ts';
import { STANDARD_OBJECT_TYPES } from '../../src/domain/standard-objects.ts';
import type { ObjectType } from '../../src/domain/types.ts';
import type { NewObjectType } from '../../src/domain/store/port.ts';

/** An ObjectType as a store would return it for a NewObjectType; `archived` lists fields to archive. */
export function objectTypeOf(input: NewObjectType, archived: readonly string[] = []): ObjectType {
  const now = '2026-01-01T00:00:00.000Z';
  return {
    id: newId('objectType'), workspace_id: newId('workspace'), slug: input.slug, name: input.name,
    icon: input.icon ?? null, color: input.color ?? null, description: input.description ?? null,
    standard: input.standard ?? false, created_at: now, updated_at: now, deleted_at: null,
    fields: input.fields.map((f, position) => ({
      id: newId('field'), slug: f.slug, name: f.name, type: f.type, description: f.description ?? null,
      required: f.required ?? false, unique: f.unique ?? false, archived: archived.includes(f.slug),
      config: f.config ?? {}, position, created_at: now,
    })),
  };
}

export function standardType(slug: 'companies' | 'contacts' | 'deals'): ObjectType {
  return objectTypeOf(STANDARD_OBJECT_TYPES.find((t) => t.slug === slug)!);
}

/** A custom type with one field of every type, a unique text, and an archived field `legacy_code`. */
export const projects = objectTypeOf({
  slug: 'projects',
  name: 'Projects',
  fields: [
    { slug: 'name', name: 'Name', type: 'text', required: true },
    { slug: 'code', name: 'Code', type: 'text', unique: true },
    { slug: 'headcount', name: 'Headcount', type: 'number' },
    { slug: 'budget', name: 'Budget', type: 'currency', config: { currency_code: 'EUR' } },
    { slug: 'active', name: 'Active', type: 'checkbox' },
    { slug: 'starts_on', name: 'Starts on', type: 'date' },
    { slug: 'kicked_off_at', name: 'Kicked off at', type: 'timestamp' },
    { slug: 'priority', name: 'Priority', type: 'select', config: { options: ['low', 'medium', 'high'] } },
    { slug: 'tags', name: 'Tags', type: 'multi_select', config: { options: ['alpha', 'beta', 'gamma'] } },
    { slug: 'phase', name: 'Phase', type: 'status', config: { options: ['planned', 'running', 'done'] } },
    { slug: 'contact_email', name: 'Contact email', type: 'email' },
    { slug: 'hotline', name: 'Hotline', type: 'phone' },
    { slug: 'website', name: 'Website', type: 'url', unique: true },
    { slug: 'score', name: 'Score', type: 'rating', config: { max: 10 } },
    { slug: 'stars', name: 'Stars', type: 'rating' },
    { slug: 'company', name: 'Company', type: 'record_reference', config: { target: 'companies', many: false } },
    { slug: 'members', name: 'Members', type: 'record_reference', config: { target: 'contacts', many: true } },
    { slug: 'lead', name: 'Lead', type: 'user' },
    { slug: 'legacy_code', name: 'Legacy code', type: 'text' },
    { slug: 'legacy_ref', name: 'Legacy ref', type: 'record_reference', config: { target: 'companies' } },
  ],
}, ['legacy_code', 'legacy_ref']);

export const REC_A = 'rec_01ARZ3NDEKTSV4RRFFQ69G5FAV';
export const REC_B = 'rec_01BX5ZZKBKACTAV9WEVGEMMVRZ';
export const REC_C = 'rec_01CX5ZZKBKACTAV9WEVGEMMVS0';
export const USR_A = 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV';

/** Runs `fn`, expects it to throw a CrmError and returns it for assertions. */
export function failure(fn: () => unknown): CrmError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CrmError) return error;
    throw error;
  }
  throw new Error('expected a CrmError, but nothing was thrown');
}
