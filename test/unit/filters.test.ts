import { describe, expect, it } from 'vitest';
import type { ComparisonNode } from '../../src/domain/filter-ast.ts';
import { parseFilter, parseSort } from '../../src/domain/filters.ts';
import { failure, projects, REC_A, REC_B, standardType, USR_A } from './domain-fixtures.ts';

const deals = standardType('deals');
const contacts = standardType('contacts');

const cmp = (field: string, op: ComparisonNode['op'], value: ComparisonNode['value'], extra: Partial<ComparisonNode> = {}): ComparisonNode => ({
  kind: 'cmp', field, system: false, op, value, valueKind: 'text', multi: false, ...extra,
});
const parse = (input: unknown) => parseFilter(projects, input);
const details = (input: unknown, type = projects) => failure(() => parseFilter(type, input)).details;

describe('parseFilter: the shape of the language', () => {
  it('has nothing to filter by for undefined, null and {}', () => {
    expect(parseFilter(deals, undefined)).toBeUndefined();
    expect(parseFilter(deals, null)).toBeUndefined();
    expect(parseFilter(deals, {})).toBeUndefined();
  });

  it('rejects a filter that is not an object', () => {
    for (const input of ['stage=won', [{ stage: 'won' }], 5]) {
      expect(details(input, deals)).toMatchObject({ param: 'filters', rule: 'type' });
    }
  });

  it('reads a scalar as eq, an array as in and null as is_empty', () => {
    expect(parseFilter(deals, { stage: 'won' })).toEqual(cmp('stage', 'eq', 'won'));
    expect(parseFilter(deals, { stage: ['won', 'lost', 'won'] })).toEqual(cmp('stage', 'in', ['won', 'lost']));
    expect(parseFilter(deals, { close_date: null })).toEqual(cmp('close_date', 'is_empty', null));
  });

  it('ANDs several keys and several operators', () => {
    expect(parseFilter(deals, { stage: 'won', amount: { gte: 100, lt: 500 } })).toEqual({
      kind: 'and',
      nodes: [
        cmp('stage', 'eq', 'won'),
        cmp('amount', 'gte', 100, { valueKind: 'number' }),
        cmp('amount', 'lt', 500, { valueKind: 'number' }),
      ],
    });
  });

  it('builds nested $and / $or and flattens groups of the same kind', () => {
    expect(parseFilter(deals, {
      $or: [{ stage: 'won' }, { $and: [{ amount: { gt: 1000 } }, { $and: [{ close_date: { lt: '2026-07-01' } }] }] }],
    })).toEqual({
      kind: 'or',
      nodes: [
        cmp('stage', 'eq', 'won'),
        { kind: 'and', nodes: [cmp('amount', 'gt', 1000, { valueKind: 'number' }), cmp('close_date', 'lt', '2026-07-01')] },
      ],
    });
  });

  it('rejects malformed groups', () => {
    expect(details({ $or: { stage: 'won' } }, deals)).toMatchObject({ param: 'filters.$or', rule: 'type' });
    expect(details({ $or: [] }, deals)).toMatchObject({ param: 'filters.$or', rule: 'min_items' });
    expect(details({ $or: [{ stage: 'won' }, 'lost'] }, deals)).toMatchObject({ param: 'filters.$or[1]', rule: 'type' });
    expect(details({ $and: [{}] }, deals)).toMatchObject({ param: 'filters.$and[0]', rule: 'min_items' });
    expect(details({ stage: {} }, deals)).toMatchObject({ param: 'filters.stage', rule: 'min_items' });
  });
});

describe('parseFilter: fields', () => {
  it('filters by the system fields, with id as an alias of record_id', () => {
    expect(parseFilter(deals, { id: REC_A })).toEqual(cmp('record_id', 'eq', REC_A, { system: true }));
    expect(parseFilter(deals, { created_at: { gte: '2026-01-01T01:00:00+01:00' } }))
      .toEqual(cmp('created_at', 'gte', '2026-01-01T00:00:00.000Z', { system: true }));
    expect(parseFilter(deals, { updated_at: { lt: '2026-02-01' } })).toEqual(cmp('updated_at', 'lt', '2026-02-01T00:00:00.000Z', { system: true }));
    expect(details({ record_id: 'abc' }, deals)).toMatchObject({ param: 'filters.record_id', rule: 'format' });
    expect(details({ record_id: { contains: 'rec' } }, deals)).toMatchObject({ rule: 'unsupported_operator' });
  });

  it('reads a bare date on a timestamp field as that whole day in UTC, one comparison of the budget', () => {
    const at = (op: ComparisonNode['op'], value: ComparisonNode['value']) => cmp('created_at', op, value, { system: true });
    const start = '2026-01-15T00:00:00.000Z';
    const end = '2026-01-15T23:59:59.999Z';
    const within = { kind: 'and', nodes: [at('gte', start), at('lte', end)] };
    const outside = { kind: 'or', nodes: [at('lt', start), at('gt', end), at('is_empty', null)] };
    expect(parseFilter(deals, { created_at: '2026-01-15' })).toEqual(within);
    expect(parseFilter(deals, { created_at: { eq: '2026-01-15' } })).toEqual(within);
    expect(parseFilter(deals, { created_at: { ne: '2026-01-15' } })).toEqual(outside);
    expect(parseFilter(deals, { created_at: { gt: '2026-01-15' } })).toEqual(at('gt', end));
    expect(parseFilter(deals, { created_at: { gte: '2026-01-15' } })).toEqual(at('gte', start));
    expect(parseFilter(deals, { created_at: { lt: '2026-01-15' } })).toEqual(at('lt', start));
    expect(parseFilter(deals, { created_at: { lte: '2026-01-15' } })).toEqual(at('lte', end));
    // in / not_in take days beside exact instants.
    expect(parseFilter(deals, { created_at: ['2026-01-15', '2026-01-20T10:00:00+01:00'] }))
      .toEqual({ kind: 'or', nodes: [within, at('in', ['2026-01-20T09:00:00.000Z'])] });
    expect(parseFilter(deals, { created_at: { not_in: ['2026-01-15'] } })).toEqual(outside);
    // An exact instant is compared as before; a date that is no day is refused, naming it.
    expect(parseFilter(deals, { created_at: { lte: '2026-01-15T00:00:00Z' } })).toEqual(at('lte', start));
    expect(details({ created_at: { in: ['2026-01-15', '2026-02-30'] } }, deals)).toMatchObject({ param: 'filters.created_at.in[1]', rule: 'format' });
    // A day costs one comparison: fifty of them pass, as fifty instants would.
    const fifty = Array.from({ length: 50 }, (_, i) => ({ created_at: { gte: `2026-01-${String((i % 28) + 1).padStart(2, '0')}` } }));
    expect(() => parseFilter(deals, { $and: fifty })).not.toThrow();
    expect(details({ $and: [...fifty, { created_at: '2026-01-01' }] }, deals)).toMatchObject({ rule: 'too_complex' });
    // In a list each day is one too, the exact instants together one: a list stays within what stores compile.
    const days = (n: number) => Array.from({ length: n }, (_, i) => `2026-0${1 + Math.floor(i / 28)}-${String((i % 28) + 1).padStart(2, '0')}`);
    expect(() => parseFilter(deals, { created_at: { not_in: days(50) } })).not.toThrow();
    expect(() => parseFilter(deals, { $or: [{ created_at: days(25) }, { created_at: [...days(24), '2026-05-01T10:00:00Z', '2026-05-02T10:00:00Z'] }] })).not.toThrow();
    expect(details({ created_at: days(51) }, deals)).toMatchObject({ param: 'filters', rule: 'too_complex' });
    expect(details({ $or: Array.from({ length: 6 }, () => ({ created_at: days(10) })) }, deals)).toMatchObject({ rule: 'too_complex' });
  });

  it('names an unknown field with its nested path and the nearest field', () => {
    const error = failure(() => parseFilter(deals, { $or: [{ stage: 'won' }, { stgae: 'lost' }] }));
    expect(error.code).toBe('validation_error');
    expect(error.message).toBe('filters.$or[1].stgae is not a field of deals; did you mean "stage"?');
    expect(error.details).toMatchObject({ param: 'filters.$or[1].stgae', rule: 'unknown_field', suggestion: 'stage' });
    expect(error.details?.allowed).toEqual(expect.arrayContaining(['stage', 'amount', 'record_id', 'created_at', '$and', '$or']));
  });

  it('suggests $or for a misspelt group keyword', () => {
    expect(details({ $OR: [{ stage: 'won' }] }, deals)).toMatchObject({ rule: 'unknown_field', suggestion: '$or' });
  });

  it('rejects archived fields', () => {
    expect(details({ legacy_code: 'X' })).toMatchObject({ param: 'filters.legacy_code', rule: 'archived_field' });
  });

  it('uses the given parameter name', () => {
    expect(failure(() => parseFilter(deals, { stag: 'won' }, 'config.filters')).details?.param).toBe('config.filters.stag');
  });
});

describe('parseFilter: operators', () => {
  it('suggests the nearest operator valid for the field type', () => {
    const error = failure(() => parseFilter(deals, { amount: { gtt: 5 } }));
    expect(error.details).toEqual({
      param: 'filters.amount.gtt', rule: 'unknown_operator', suggestion: 'gt',
      allowed: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'is_empty', 'is_not_empty'],
    });
    expect(details({ name: { containz: 'x' } })).toMatchObject({ rule: 'unknown_operator', suggestion: 'contains' });
  });

  it('bounds the text of a partial match as a text value is bounded, and refuses NUL in it', () => {
    expect(parseFilter(deals, { name: { contains: '%'.repeat(10_000) } })).toEqual(cmp('name', 'contains', '%'.repeat(10_000)));
    expect(details({ name: { starts_with: '%'.repeat(10_001) } })).toMatchObject({ param: 'filters.name.starts_with', rule: 'max_length', max: 10_000 });
    expect(details({ name: { ends_with: 't1\u0000zzz' } })).toMatchObject({ param: 'filters.name.ends_with', rule: 'unicode' });
  });

  it('accepts operators written with a leading $', () => {
    expect(parseFilter(deals, { amount: { $gt: 5 } })).toEqual(cmp('amount', 'gt', 5, { valueKind: 'number' }));
  });

  it.each([
    ['active', 'gt', true, ['eq', 'ne', 'is_empty', 'is_not_empty']],
    ['headcount', 'starts_with', '1', ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'is_empty', 'is_not_empty']],
    ['priority', 'contains', 'hi', ['eq', 'ne', 'in', 'not_in', 'is_empty', 'is_not_empty']],
    ['tags', 'gt', 'alpha', ['eq', 'contains', 'in', 'not_in', 'ne', 'is_empty', 'is_not_empty']],
    ['members', 'starts_with', 'rec_', ['eq', 'contains', 'in', 'not_in', 'ne', 'is_empty', 'is_not_empty']],
    ['company', 'contains', REC_A, ['eq', 'ne', 'in', 'not_in', 'is_empty', 'is_not_empty']],
    ['lead', 'lt', USR_A, ['eq', 'ne', 'in', 'not_in', 'is_empty', 'is_not_empty']],
    ['name', 'gte', 'a', ['eq', 'ne', 'in', 'not_in', 'contains', 'starts_with', 'ends_with', 'is_empty', 'is_not_empty']],
  ])('rejects %s.%s as an unsupported operator', (field, op, value, allowed) => {
    expect(details({ [field]: { [op]: value } })).toEqual({
      param: `filters.${field}.${op}`, rule: 'unsupported_operator', allowed,
    });
  });

  it('compares dates, timestamps and ratings by order', () => {
    expect(parse({ starts_on: { gt: '2026-01-01' } })).toEqual(cmp('starts_on', 'gt', '2026-01-01'));
    expect(parse({ kicked_off_at: { lte: '2026-01-01T12:00:00-02:00' } })).toEqual(cmp('kicked_off_at', 'lte', '2026-01-01T14:00:00.000Z'));
    expect(parse({ score: { gte: 8 } })).toEqual(cmp('score', 'gte', 8, { valueKind: 'number' }));
  });

  it('compares checkboxes as booleans', () => {
    expect(parse({ active: false })).toEqual(cmp('active', 'eq', false, { valueKind: 'boolean' }));
  });

  it('reads eq and contains on multi-valued fields as "has this element"', () => {
    expect(parse({ tags: 'beta' })).toEqual(cmp('tags', 'eq', 'beta', { multi: true }));
    expect(parse({ members: { contains: REC_B } })).toEqual(cmp('members', 'contains', REC_B, { multi: true }));
    expect(details({ tags: { contains: 'bet' } })).toMatchObject({ param: 'filters.tags.contains', rule: 'enum', suggestion: 'beta' });
  });

  it('takes partial text on emails and urls without requiring a full address', () => {
    expect(parse({ contact_email: { ends_with: '@Acme.com' } })).toEqual(cmp('contact_email', 'ends_with', '@Acme.com'));
    expect(parse({ website: { contains: 'acme' } })).toEqual(cmp('website', 'contains', 'acme'));
    expect(details({ name: { contains: '' } })).toMatchObject({ param: 'filters.name.contains', rule: 'min_length' });
    expect(details({ name: { starts_with: 3 } })).toMatchObject({ param: 'filters.name.starts_with', rule: 'type' });
  });

  it('treats is_empty and is_not_empty values as flags, false negating them, and refuses any other value', () => {
    expect(parse({ lead: { is_empty: true } })).toEqual(cmp('lead', 'is_empty', null));
    expect(parse({ lead: { is_not_empty: null } })).toEqual(cmp('lead', 'is_not_empty', null));
    for (const value of ['yes', 'false', 0, 1, '', []]) {
      expect(details({ lead: { is_empty: value } })).toMatchObject({ param: 'filters.lead.is_empty', rule: 'type', expected: 'true or false' });
    }
    expect(parse({ lead: { is_empty: false } })).toEqual(cmp('lead', 'is_not_empty', null));
    expect(parse({ tags: { is_not_empty: false } })).toEqual(cmp('tags', 'is_empty', null, { multi: true }));
  });

  it('takes 1 to 100 values for in and not_in', () => {
    expect(parse({ priority: { not_in: ['low'] } })).toEqual(cmp('priority', 'not_in', ['low']));
    expect(details({ priority: { in: [] } })).toMatchObject({ param: 'filters.priority.in', rule: 'min_items' });
    expect(details({ headcount: { in: Array.from({ length: 101 }, (_, i) => i) } })).toMatchObject({ rule: 'max_items' });
    expect(details({ priority: { in: 'low' } })).toMatchObject({ param: 'filters.priority.in', rule: 'type' });
    expect(details({ priority: { in: ['low', 'hgh'] } })).toMatchObject({ param: 'filters.priority.in[1]', suggestion: 'high' });
    expect(details({ priority: ['low', 'hgh'] })).toMatchObject({ param: 'filters.priority[1]', suggestion: 'high' });
  });
});

describe('parseFilter: values go through the field validators', () => {
  it('suggests the nearest option', () => {
    const error = failure(() => parseFilter(deals, { stage: 'wonn' }));
    expect(error.details).toMatchObject({ param: 'filters.stage', rule: 'enum', suggestion: 'won' });
  });

  it('takes an option the field retired, since records may still hold it', () => {
    const retired = {
      ...deals,
      fields: deals.fields.map((f) => (f.slug === 'stage' ? { ...f, config: { options: ['qualified', 'won', 'lost'], retired_options: ['lead', 'proposal'] } } : f)),
    };
    expect(parseFilter(retired, { stage: 'lead' })).toEqual(cmp('stage', 'eq', 'lead'));
    expect(parseFilter(retired, { stage: { not_in: ['proposal', 'won'] } })).toEqual(cmp('stage', 'not_in', ['proposal', 'won']));
    // Neither offered nor retired: refused, with the nearest of both as the suggestion.
    expect(failure(() => parseFilter(retired, { stage: 'leed' })).details)
      .toMatchObject({ param: 'filters.stage', rule: 'enum', allowed: ['qualified', 'won', 'lost', 'lead', 'proposal'], suggestion: 'lead' });
    expect(failure(() => parseFilter(deals, { stage: 'urgent' })).details).toMatchObject({ rule: 'enum' });
  });

  it('takes any rating from 1 to 10, since a max lowered after rating leaves higher ones held', () => {
    expect(parse({ stars: 7 })).toEqual(cmp('stars', 'eq', 7, { valueKind: 'number' }));
    expect(parse({ stars: { in: [4, 10] } })).toEqual(cmp('stars', 'in', [4, 10], { valueKind: 'number' }));
    expect(details({ stars: 11 })).toMatchObject({ param: 'filters.stars', rule: 'range', min: 1, max: 10 });
    expect(details({ stars: 2.5 })).toMatchObject({ param: 'filters.stars' });
  });

  it('normalises emails and urls for exact comparisons', () => {
    expect(parseFilter(contacts, { email: ' ANN@Acme.COM' })).toEqual(cmp('email', 'eq', 'ann@acme.com'));
    const jobs = ['acme.com/Jobs', 'acme.com/Jobs/', 'http://acme.com/Jobs', 'http://acme.com/Jobs/', 'https://acme.com/Jobs', 'https://acme.com/Jobs/'];
    expect(parse({ website: { ne: 'HTTPS://Acme.com/Jobs' } })).toEqual(cmp('website', 'not_in', jobs));
    // A url is the same value whatever its scheme and trailing slash, as its uniqueness says.
    expect(parse({ website: 'acme.com/Jobs/' })).toEqual(cmp('website', 'in', jobs));
    expect(parse({ website: { eq: 'http://acme.com/Jobs' } })).toEqual(cmp('website', 'in', jobs));
    expect(parse({ website: ['acme.com', 'https://globex.io/'] })).toEqual(cmp('website', 'in', [
      'acme.com', 'acme.com/', 'http://acme.com', 'http://acme.com/', 'https://acme.com', 'https://acme.com/',
      'globex.io', 'globex.io/', 'http://globex.io', 'http://globex.io/', 'https://globex.io', 'https://globex.io/',
    ]));
    // A key ending in "/" has no spelling without it: acme.com/ would be the key acme.com.
    expect(parse({ website: 'https://acme.com//' })).toEqual(cmp('website', 'in', ['acme.com//', 'http://acme.com//', 'https://acme.com//']));
    // Partial comparisons stay on the text as stored.
    expect(parse({ website: { starts_with: 'https://' } })).toEqual(cmp('website', 'starts_with', 'https://'));
  });

  it('rejects invalid dates, numbers as strings and bad ids', () => {
    expect(details({ close_date: { gt: '2026-02-30' } }, deals)).toMatchObject({ param: 'filters.close_date.gt', rule: 'format' });
    expect(details({ amount: { gt: '100' } }, deals)).toMatchObject({ param: 'filters.amount.gt', rule: 'type' });
    expect(details({ company: 'acme' }, deals)).toMatchObject({ param: 'filters.company', rule: 'format' });
    expect(details({ kicked_off_at: '2026-01-01T10:00:00' })).toMatchObject({ param: 'filters.kicked_off_at', rule: 'format' });
  });
});

describe('parseFilter: guards', () => {
  const nest = (depth: number): Record<string, unknown> => (depth === 0 ? { stage: 'won' } : { $and: [nest(depth - 1)] });

  it('allows five levels of $and / $or and refuses a sixth', () => {
    expect(parseFilter(deals, nest(5))).toEqual(cmp('stage', 'eq', 'won'));
    const error = failure(() => parseFilter(deals, nest(6)));
    expect(error.details).toMatchObject({ rule: 'too_complex', param: 'filters.$and[0].$and[0].$and[0].$and[0].$and[0].$and' });
  });

  it('allows 50 comparisons and refuses a 51st', () => {
    const many = (n: number) => ({ $or: Array.from({ length: n }, (_, i) => ({ amount: i })) });
    const node = parseFilter(deals, many(50));
    expect(node?.kind === 'or' && node.nodes.length).toBe(50);
    expect(details(many(51), deals)).toMatchObject({ param: 'filters', rule: 'too_complex' });
  });
});

describe('parseSort', () => {
  it('defaults to created_at ascending', () => {
    expect(parseSort(deals, undefined, undefined)).toEqual({ field: 'created_at', system: true, valueKind: 'text', ascending: true });
    expect(parseSort(deals, '', false)).toEqual({ field: 'created_at', system: true, valueKind: 'text', ascending: false });
  });

  it('sorts by data fields with their value kind', () => {
    expect(parseSort(deals, 'amount', false)).toEqual({ field: 'amount', system: false, valueKind: 'number', ascending: false, multi: false });
    expect(parseSort(projects, 'active', true)).toEqual({ field: 'active', system: false, valueKind: 'boolean', ascending: true, multi: false });
    expect(parseSort(deals, 'stage', undefined)).toEqual({ field: 'stage', system: false, valueKind: 'text', ascending: true, multi: false });
  });

  it('sorts by system fields, with id as record_id', () => {
    expect(parseSort(deals, 'updated_at', true)).toEqual({ field: 'updated_at', system: true, valueKind: 'text', ascending: true, multi: false });
    expect(parseSort(deals, 'id', true)).toMatchObject({ field: 'record_id', system: true });
  });

  it('suggests the nearest field for an unknown one', () => {
    const error = failure(() => parseSort(deals, 'amout', true));
    expect(error.message).toBe('sort_field "amout" is not a field of deals; did you mean "amount"?');
    expect(error.details).toMatchObject({ param: 'sort_field', rule: 'unknown_field', suggestion: 'amount' });
  });

  it('refuses multi-valued and archived fields', () => {
    expect(failure(() => parseSort(deals, 'contacts', true)).details).toMatchObject({ param: 'sort_field', rule: 'unsupported' });
    expect(failure(() => parseSort(projects, 'tags', true)).details?.rule).toBe('unsupported');
    expect(failure(() => parseSort(projects, 'legacy_code', true)).details?.rule).toBe('archived_field');
  });

  it('rejects a non-boolean direction', () => {
    expect(failure(() => parseSort(deals, 'amount', 'desc' as never)).details).toMatchObject({ param: 'ascending', rule: 'type' });
  });
});

describe('a filter read more than once', () => {
  /** A filter whose `stage` value counts its reads. */
  const counted = (stage: unknown) => {
    let reads = 0;
    const filter = {};
    Object.defineProperty(filter, 'stage', { enumerable: true, get: () => { reads += 1; return stage; } });
    return { filter, reads: () => reads };
  };

  it('is read once per object type and parameter, as one operation hands one variable to many fields', () => {
    const { filter, reads } = counted('won');
    const first = parseFilter(deals, filter);
    expect(parseFilter(deals, filter)).toBe(first);
    expect(reads()).toBe(1);
    // Another type (or the same type changed, which is a new object) or another parameter reads it again.
    expect(parseFilter({ ...deals }, filter)).toEqual(first);
    parseFilter(deals, filter, 'view.filters');
    expect(reads()).toBe(3);
  });

  it('is refused again with the same error, without being read again', () => {
    const { filter, reads } = counted('nope');
    const error = failure(() => parseFilter(deals, filter));
    expect(failure(() => parseFilter(deals, filter))).toBe(error);
    expect(reads()).toBe(1);
  });
});
