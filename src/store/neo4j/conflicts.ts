import { CrmError } from '../../domain/errors.ts';
import type { UniqueClaim } from '../../domain/store/port.ts';

/**
 * The conflicts the adapter reports, worded and detailed exactly as the SQLite adapter words them,
 * so callers cannot tell the stores apart. Each is used twice: by the in-transaction check that
 * normally finds the clash, and by `translateNeo4jError` when a uniqueness constraint catches a
 * concurrent writer the check could not see.
 */

export function emailTaken(email: string): CrmError {
  return new CrmError('conflict', `A member with email ${JSON.stringify(email)} already exists in this workspace`, { param: 'email', email });
}

export function objectSlugTaken(slug: string): CrmError {
  return new CrmError('conflict', `An object type with slug ${JSON.stringify(slug)} already exists`, { param: 'slug', slug });
}

export function fieldSlugTaken(slug: string): CrmError {
  return new CrmError('conflict', `The object type already has a field with slug ${JSON.stringify(slug)}`, { param: 'slug', slug });
}

export function uniqueValueTaken(field: string): CrmError {
  return new CrmError('conflict', `Another record already has this ${field} value`, { param: `data.${field}`, field, rule: 'unique' });
}

/**
 * For a failed UniqueClaim constraint: the claim whose field the driver's message names
 * (`... \`field\` = 'email' ...`), else the first claim written.
 */
export function claimConflict(claims: readonly UniqueClaim[]): (driverMessage: string) => CrmError {
  return (driverMessage) => {
    const named = /`field` = '((?:[^'\\]|\\.)*)'/.exec(driverMessage)?.[1];
    const claim = claims.find((c) => c.field === named) ?? claims[0];
    return uniqueValueTaken(claim?.field ?? 'unique');
  };
}

/** A batch entry whose record is already in the list, or earlier in the same batch. */
export function entryTaken(index: number, recordId: string, where: 'already in the list' | 'in this batch twice'): CrmError {
  const param = `entries[${index}].record_id`;
  return new CrmError('conflict', `${param}: the record ${JSON.stringify(recordId)} is ${where}`, { param, index, record_id: recordId });
}

/**
 * For a failed ListEntry (list_id, record_id) constraint: a writer the batch check could not see
 * put one of the records into the list meanwhile; names the entry whose record the driver names
 * (another constraint, such as a given entry id already in use, is a plain conflict).
 */
export function entryConflict(recordIds: readonly string[]): (driverMessage: string) => CrmError {
  return (driverMessage) => {
    const named = /`record_id` = '((?:[^'\\]|\\.)*)'/.exec(driverMessage)?.[1];
    const index = recordIds.findIndex((id) => id === named);
    return index >= 0 ? entryTaken(index, recordIds[index]!, 'already in the list') : new CrmError('conflict', 'The value is already taken', { rule: 'unique' });
  };
}
