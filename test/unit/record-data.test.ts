import { describe, expect, it } from 'vitest';
import { claimChange, displayName, fieldClaims, liveFields, uniqueClaims, validateRecordData } from '../../src/domain/fields.ts';
import { failure, objectTypeOf, projects, REC_A, REC_B, REC_C, standardType, USR_A } from './domain-fixtures.ts';

const contacts = standardType('contacts');
const deals = standardType('deals');
const companies = standardType('companies');

describe('validateRecordData on create', () => {
  it('returns the normalised data without empty values', () => {
    const result = validateRecordData(contacts, { name: 'Ann Lee', email: ' ANN@Acme.com ', phone: null, job_title: '', company: REC_A });
    expect(result.data).toEqual({ name: 'Ann Lee', email: 'ann@acme.com', company: REC_A });
  });

  it('rejects data that is not an object', () => {
    for (const input of [null, 'name=Ann', [{ name: 'Ann' }], 3]) {
      const error = failure(() => validateRecordData(contacts, input));
      expect(error.details).toMatchObject({ param: 'data', rule: 'type' });
    }
  });

  it('names an unknown field and suggests the nearest live one', () => {
    const error = failure(() => validateRecordData(contacts, { name: 'Ann', emial: 'ann@acme.com' }));
    expect(error.code).toBe('validation_error');
    expect(error.message).toBe('data.emial is not a field of contacts; did you mean "email"?');
    expect(error.details).toEqual({
      param: 'data.emial', rule: 'unknown_field', allowed: ['name', 'email', 'phone', 'job_title', 'company'], suggestion: 'email',
    });
  });

  it('lists the fields when nothing is close to an unknown field', () => {
    const error = failure(() => validateRecordData(contacts, { name: 'Ann', revenue: 3 }));
    expect(error.details?.suggestion).toBeUndefined();
    expect(error.message).toContain('allowed: name, email, phone, job_title, company');
  });

  it('does not offer archived fields as the allowed ones', () => {
    const error = failure(() => validateRecordData(projects, { name: 'P', legacy_cod: 'x' }));
    expect(error.details?.allowed).not.toContain('legacy_code');
    expect(error.details?.allowed).toContain('website');
  });

  it('rejects writing an archived field', () => {
    const error = failure(() => validateRecordData(projects, { name: 'P', legacy_code: 'X-1' }));
    expect(error.details).toMatchObject({ param: 'data.legacy_code', rule: 'archived_field' });
  });

  it('requires required fields, also when given as null or a blank string', () => {
    for (const input of [{}, { name: null }, { name: '' }, { name: '   ' }, { email: 'a@b.co' }]) {
      const error = failure(() => validateRecordData(contacts, input));
      expect(error.details).toMatchObject({ param: 'data.name', rule: 'required' });
      expect(error.message).toBe('data.name is required for contacts');
    }
  });

  it('reports a type error naming the parameter and what was given', () => {
    const error = failure(() => validateRecordData(companies, { name: 'Acme', employee_count: '12' }));
    expect(error.message).toBe('data.employee_count must be a number, got string "12"');
    expect(error.details).toMatchObject({ param: 'data.employee_count', rule: 'type' });
  });

  it('suggests the nearest stage for a misspelt status', () => {
    const error = failure(() => validateRecordData(deals, { name: 'Big deal', stage: 'qualifed' }));
    expect(error.details).toMatchObject({ param: 'data.stage', rule: 'enum', suggestion: 'qualified' });
  });

  it('claims each unique field that has a value, normalised', () => {
    const result = validateRecordData(projects, { name: 'P', code: 'P-1', website: 'HTTPS://Acme.com/' });
    expect(result.data['website']).toBe('https://acme.com/');
    expect(result.uniques).toEqual([{ field: 'code', value: 'P-1' }, { field: 'website', value: 'acme.com' }]);
    expect(validateRecordData(contacts, { name: 'Ann', email: 'Ann@Acme.com' }).uniques).toEqual([{ field: 'email', value: 'ann@acme.com' }]);
    expect(validateRecordData(contacts, { name: 'Ann' }).uniques).toEqual([]);
  });

  it('extracts a relation per referenced record and the targets to check', () => {
    const result = validateRecordData(deals, { name: 'D', company: REC_A, contacts: [REC_B, REC_C, REC_B], owner: USR_A });
    expect(result.refs).toEqual([
      { field: 'company', to_id: REC_A },
      { field: 'contacts', to_id: REC_B },
      { field: 'contacts', to_id: REC_C },
    ]);
    expect(result.refTargets).toEqual([
      { field: 'company', target: 'companies', ids: [REC_A] },
      { field: 'contacts', target: 'contacts', ids: [REC_B, REC_C] },
    ]);
    expect(result.userRefs).toEqual([{ field: 'owner', ids: [USR_A] }]);
  });

  it('treats an empty array on a multi-valued field as no value', () => {
    const result = validateRecordData(deals, { name: 'D', contacts: [] });
    expect(result.data).toEqual({ name: 'D' });
    expect(result.refs).toEqual([]);
  });
});

describe('validateRecordData on update (patch semantics)', () => {
  const existing = { name: 'D', stage: 'lead', company: REC_A, contacts: [REC_B] };

  it('overlays the input on the existing data', () => {
    const result = validateRecordData(deals, { stage: 'won', amount: 5000 }, { existing });
    expect(result.data).toEqual({ name: 'D', stage: 'won', company: REC_A, contacts: [REC_B], amount: 5000 });
  });

  it('removes a key given as null', () => {
    const result = validateRecordData(deals, { company: null }, { existing });
    expect(result.data).not.toHaveProperty('company');
    expect(result.refs).toEqual([{ field: 'contacts', to_id: REC_B }]);
  });

  it('rejects removing a required field', () => {
    const error = failure(() => validateRecordData(deals, { name: null }, { existing }));
    expect(error.details).toMatchObject({ param: 'data.name', rule: 'required' });
  });

  it('keeps every relation but only asks to check the ids the write adds', () => {
    const result = validateRecordData(deals, { contacts: [REC_B, REC_C] }, { existing });
    expect(result.refs).toEqual([
      { field: 'company', to_id: REC_A },
      { field: 'contacts', to_id: REC_B },
      { field: 'contacts', to_id: REC_C },
    ]);
    expect(result.refTargets).toEqual([{ field: 'contacts', target: 'contacts', ids: [REC_C] }]);
  });

  it('carries archived values over untouched and keeps their relations', () => {
    const stored = { name: 'P', legacy_code: 42, legacy_ref: REC_C };
    const result = validateRecordData(projects, { headcount: 3 }, { existing: stored });
    expect(result.data).toEqual({ name: 'P', legacy_code: 42, legacy_ref: REC_C, headcount: 3 });
    expect(result.refs).toEqual([{ field: 'legacy_ref', to_id: REC_C }]);
    expect(result.refTargets).toEqual([]);
  });

  it('accepts an archived value echoed back unchanged but not a changed one', () => {
    const stored = { name: 'P', legacy_code: 'X-1' };
    expect(validateRecordData(projects, { ...stored, headcount: 1 }, { existing: stored }).data['legacy_code']).toBe('X-1');
    const error = failure(() => validateRecordData(projects, { legacy_code: 'X-2' }, { existing: stored }));
    expect(error.details).toMatchObject({ param: 'data.legacy_code', rule: 'archived_field' });
  });

  it('does not claim archived unique fields', () => {
    const archivedEmail = objectTypeOf({
      slug: 'people', name: 'People', fields: [{ slug: 'name', name: 'Name', type: 'text' }, { slug: 'email', name: 'Email', type: 'email', unique: true }],
    }, ['email']);
    expect(uniqueClaims(archivedEmail, { name: 'A', email: 'a@b.co' })).toEqual([]);
  });
});

describe('displayName', () => {
  it('uses the name field', () => {
    expect(displayName(contacts, { name: 'Ann Lee', email: 'ann@acme.com' })).toBe('Ann Lee');
  });

  it('falls back to the first text or email value', () => {
    expect(displayName(contacts, { email: 'ann@acme.com', job_title: 'CTO' })).toBe('ann@acme.com');
    const tickets = objectTypeOf({ slug: 'tickets', name: 'Tickets', fields: [
      { slug: 'priority', name: 'Priority', type: 'number' }, { slug: 'subject', name: 'Subject', type: 'text' },
    ] });
    expect(displayName(tickets, { priority: 1, subject: 'Printer on fire' })).toBe('Printer on fire');
  });

  it('is empty when there is no text', () => {
    expect(displayName(deals, { amount: 5 })).toBe('');
  });
});

/**
 * Validation keeps what it works out from a frozen object type's fields (the store's cached types
 * are frozen and shared); a type that is not frozen can still change, so it is read afresh.
 */
describe('field lookups kept per object type', () => {
  const frozen = (type: typeof contacts): typeof contacts => {
    for (const field of type.fields) Object.freeze(field);
    Object.freeze(type.fields);
    return Object.freeze(type);
  };

  it('answers the same for a frozen type on every call', () => {
    const type = frozen(standardType('contacts'));
    for (let i = 0; i < 3; i++) {
      expect(validateRecordData(type, { name: 'Ann', email: 'ann@acme.com', company: REC_A })).toEqual(
        validateRecordData(standardType('contacts'), { name: 'Ann', email: 'ann@acme.com', company: REC_A }),
      );
      expect(failure(() => validateRecordData(type, { emial: 'x' })).details?.suggestion).toBe('email');
    }
  });

  it('sees a field added to a type that is not frozen after it was validated once', () => {
    const type = standardType('contacts');
    expect(failure(() => validateRecordData(type, { name: 'Ann', nickname: 'A' })).details?.rule).toBe('unknown_field');
    type.fields.push({ ...type.fields[0]!, slug: 'nickname', name: 'Nickname', required: false, unique: true, position: 99 });
    expect(validateRecordData(type, { name: 'Ann', nickname: 'A' }).data).toEqual({ name: 'Ann', nickname: 'A' });
    expect(uniqueClaims(type, { name: 'Ann', nickname: 'A' }).map((claim) => claim.field)).toContain('nickname');
  });

  it('gives every caller of liveFields its own array', () => {
    const type = frozen(standardType('deals'));
    const first = liveFields(type);
    first.pop();
    expect(liveFields(type)).toHaveLength(first.length + 1);
  });
});

describe('claims of a field whose flags change', () => {
  const plain = { unique: false, archived: false };
  const unique = { unique: true, archived: false };
  const archived = { unique: true, archived: true };

  it('claims when a field starts claiming, releases when it stops, and does nothing otherwise', () => {
    expect(claimChange(plain, { unique: true })).toBe('unique');
    expect(claimChange(archived, { archived: false })).toBe('archived');
    expect(claimChange({ unique: false, archived: true }, { unique: true, archived: false })).toBe('unique');
    expect(claimChange(unique, { unique: false })).toBe('release');
    expect(claimChange(unique, { archived: true })).toBe('release');
    expect(claimChange(unique, { unique: true })).toBe('none');
    expect(claimChange(plain, { archived: true })).toBe('none');
    expect(claimChange({ unique: false, archived: true }, { unique: true })).toBe('none');
  });

  it('claims each held value by its unique key, and refuses two holders of one', () => {
    const url = { slug: 'site', type: 'url' as const, config: {} };
    expect(fieldClaims('companies', url, [{ record_id: REC_A, value: 'https://a.com/' }, { record_id: REC_B, value: '' }, { record_id: REC_C, value: 'b.com' }], 'unique'))
      .toEqual([{ record_id: REC_A, value: 'a.com' }, { record_id: REC_C, value: 'b.com' }]);
    const refused = failure(() => fieldClaims('companies', url, [{ record_id: REC_A, value: 'https://a.com/' }, { record_id: REC_B, value: 'a.com' }], 'archived'));
    expect(refused.code).toBe('conflict');
    expect(refused.details).toMatchObject({ param: 'archived', field: 'site', value: 'a.com', record_ids: [REC_A, REC_B] });
    // An archived field's values cannot be changed, so the way out is unique off first.
    expect(refused.message).toContain('take it out of the archive with unique: false');
    const made = failure(() => fieldClaims('companies', url, [{ record_id: REC_A, value: 'https://a.com/' }, { record_id: REC_B, value: 'a.com' }], 'unique'));
    expect(made.message).toContain('change or clear one of them first');
  });
});
