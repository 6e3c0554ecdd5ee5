import { describe, expect, it } from 'vitest';
import { validateFieldValue } from '../../src/domain/fields.ts';
import { characterCount, longerThan } from '../../src/domain/fields/checks.ts';
import type { FieldDef } from '../../src/domain/types.ts';
import { failure, projects, REC_A, REC_B, USR_A } from './domain-fixtures.ts';

function field(slug: string): FieldDef {
  const found = projects.fields.find((f) => f.slug === slug);
  if (!found) throw new Error(`no fixture field ${slug}`);
  return found;
}

const accept = (slug: string, value: unknown): unknown => validateFieldValue(field(slug), value, `data.${slug}`);
const reject = (slug: string, value: unknown) => failure(() => accept(slug, value));

describe('each field type accepts and normalises valid values', () => {
  it.each([
    ['name', 'Apollo', 'Apollo'],
    ['name', '  spaced  ', '  spaced  '],
    ['name', 'x'.repeat(10_000), 'x'.repeat(10_000)],
    ['headcount', 12, 12],
    ['headcount', -3.5, -3.5],
    ['budget', 1999.99, 1999.99],
    ['budget', -1e15, -1e15],
    ['active', false, false],
    ['starts_on', '2024-02-29', '2024-02-29'],
    ['kicked_off_at', '2026-01-31T09:30:00Z', '2026-01-31T09:30:00.000Z'],
    ['kicked_off_at', '2026-01-31T10:30:00.5+01:00', '2026-01-31T09:30:00.500Z'],
    ['kicked_off_at', '2026-01-31t09:30z', '2026-01-31T09:30:00.000Z'],
    ['priority', 'high', 'high'],
    ['phase', 'running', 'running'],
    ['tags', ['beta', 'alpha', 'beta'], ['beta', 'alpha']],
    ['contact_email', '  Ann.Lee+crm@Example.CO.uk ', 'ann.lee+crm@example.co.uk'],
    ['hotline', ' +1 (555) 010-2030 ', '+1 (555) 010-2030'],
    ['hotline', '555.010.2030', '555.010.2030'],
    ['website', 'acme.com', 'acme.com'],
    ['website', ' Acme.COM/Pricing?Plan=A ', 'acme.com/Pricing?Plan=A'],
    ['website', 'HTTPS://WWW.Acme.com/Team', 'https://www.acme.com/Team'],
    ['website', 'http://shop.acme.io:8080', 'http://shop.acme.io:8080'],
    ['score', 10, 10],
    ['stars', 1, 1],
    ['company', REC_A, REC_A],
    ['members', [REC_A, REC_B, REC_A], [REC_A, REC_B]],
    ['members', [], []],
    ['lead', USR_A, USR_A],
  ])('%s accepts %j as %j', (slug, value, stored) => {
    expect(accept(slug, value)).toEqual(stored);
  });
});

describe('each field type rejects invalid values with a rule an agent can act on', () => {
  it.each([
    ['name', 42, 'type'],
    ['name', 'x'.repeat(10_001), 'max_length'],
    ['name', 'nul\u0000byte', 'unicode'],
    ['headcount', '12', 'type'],
    ['headcount', Number.NaN, 'type'],
    ['headcount', Number.POSITIVE_INFINITY, 'type'],
    ['headcount', 1e308, 'max'],
    ['budget', -1.5e15, 'min'],
    ['budget', '10.00', 'type'],
    ['active', 'true', 'type'],
    ['active', 1, 'type'],
    ['starts_on', '2023-02-29', 'format'],
    ['starts_on', '2026-13-01', 'format'],
    ['starts_on', '2026-1-5', 'format'],
    ['starts_on', '2026-01-05T00:00:00Z', 'format'],
    ['starts_on', 20260105, 'type'],
    ['kicked_off_at', '2026-01-31T09:30:00', 'format'],
    ['kicked_off_at', '2026-01-31', 'format'],
    ['kicked_off_at', '2026-02-30T09:30:00Z', 'format'],
    ['kicked_off_at', '2026-01-31T24:00:00Z', 'format'],
    ['kicked_off_at', 'yesterday', 'format'],
    ['kicked_off_at', 1767254400000, 'type'],
    ['priority', 'High', 'enum'],
    ['priority', 2, 'type'],
    ['priority', ['low'], 'type'],
    ['tags', 'alpha', 'type'],
    ['tags', ['alpha', 'delta'], 'enum'],
    ['contact_email', 'ann@example', 'format'],
    ['contact_email', 'ann example.com', 'format'],
    ['contact_email', '@example.com', 'format'],
    ['hotline', '12345', 'format'],
    ['hotline', '+1 555 CALL NOW', 'format'],
    ['hotline', '1+555 010 2030', 'format'],
    ['hotline', '1'.repeat(21), 'format'],
    ['hotline', 5550102030, 'type'],
    ['website', 'localhost', 'format'],
    ['website', 'ftp://acme.com', 'format'],
    ['website', 'https://acme com', 'format'],
    ['website', 'javascript:alert(1)', 'format'],
    ['score', 11, 'range'],
    ['score', 0, 'range'],
    ['stars', 6, 'range'],
    ['stars', 2.5, 'range'],
    ['stars', '3', 'type'],
    ['company', 'acme', 'format'],
    ['company', 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'format'],
    ['company', [REC_A], 'type'],
    ['members', REC_A, 'type'],
    ['members', [REC_A, 'nope'], 'format'],
    ['lead', REC_A, 'format'],
    ['lead', 7, 'type'],
  ])('%s rejects %j with rule %s', (slug, value, rule) => {
    const error = reject(slug, value);
    expect(error.code).toBe('validation_error');
    expect(error.details?.rule).toBe(rule);
    expect(error.details?.param).toMatch(new RegExp(`^data\\.${slug}(\\[\\d+\\])?$`));
  });

  it('names the parameter, the expected type and what was given', () => {
    const error = failure(() => validateFieldValue(field('headcount'), '12', 'data.employee_count'));
    expect(error.message).toBe('data.employee_count must be a number, got string "12"');
    expect(error.details).toMatchObject({ param: 'data.employee_count', rule: 'type', expected: 'a number' });
  });

  it('names the currency of an amount', () => {
    expect(reject('budget', '10').message).toBe('data.budget must be a number (an amount in EUR), got string "10"');
  });

  it('offers the allowed options and the nearest one for a misspelt option', () => {
    const error = reject('priority', 'hihg');
    expect(error.details).toMatchObject({ rule: 'enum', allowed: ['low', 'medium', 'high'], suggestion: 'high' });
    expect(error.message).toContain('did you mean "high"?');
  });

  it('refuses a retired option, saying it was retired, and offers the current ones', () => {
    const retiring = (slug: string): FieldDef => ({ ...field(slug), config: { ...field(slug).config, retired_options: ['urgent'] } });
    const error = failure(() => validateFieldValue(retiring('priority'), 'urgent', 'data.priority'));
    expect(error.message).toBe('data.priority "urgent" is a retired option: records may keep it, but it cannot be written; allowed: low, medium, high');
    expect(error.details).toMatchObject({ param: 'data.priority', rule: 'enum', allowed: ['low', 'medium', 'high'], retired: true });
    expect(failure(() => validateFieldValue(retiring('tags'), ['alpha', 'urgent'], 'data.tags')).details).toMatchObject({ param: 'data.tags[1]', retired: true });
    expect(validateFieldValue(retiring('priority'), 'low', 'data.priority')).toBe('low');
  });

  it('points at the failing element of a multi-valued field', () => {
    expect(reject('tags', ['alpha', 'gamme']).details).toMatchObject({ param: 'data.tags[1]', suggestion: 'gamma' });
    expect(reject('members', [REC_A, REC_B, 'bad']).details?.param).toBe('data.members[2]');
  });

  it('gives the rating bounds of the field', () => {
    expect(reject('score', 11).details).toMatchObject({ min: 1, max: 10 });
    expect(reject('stars', 6).message).toBe('data.stars must be an integer from 1 to 5, got 6');
  });
});

describe('text lengths count characters as the published schemas do', () => {
  it('counts a surrogate pair as one character and a lone surrogate as one', () => {
    expect(characterCount('😀'.repeat(51))).toBe(51);
    expect(characterCount('aé日😀')).toBe(4);
    expect(characterCount('\ud800x')).toBe(2);
    expect(longerThan('😀'.repeat(100), 100)).toBe(false);
    expect(longerThan('😀'.repeat(101), 100)).toBe(true);
  });

  it('takes 10,000 emoji as a text value, as 10,000 characters', () => {
    expect(accept('name', '😀'.repeat(10_000))).toBe('😀'.repeat(10_000));
    expect(() => accept('name', '😀'.repeat(10_001))).toThrow(/at most 10000 characters, got 10001/);
  });
});
