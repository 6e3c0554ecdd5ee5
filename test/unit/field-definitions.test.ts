import { describe, expect, it } from 'vitest';
import {
  SLUG_PATTERN, validateFieldPatch, validateNewField, validateNewObjectType, validateObjectTypePatch,
} from '../../src/domain/fields.ts';
import { STANDARD_OBJECT_TYPES } from '../../src/domain/standard-objects.ts';
import type { FieldDef } from '../../src/domain/types.ts';
import type { NewField, NewObjectType } from '../../src/domain/store/port.ts';
import { failure, projects } from './domain-fixtures.ts';

const ctx = { param: 'field', objectSlugs: ['companies', 'contacts', 'deals'] };
const newField = (input: unknown) => validateNewField(input as NewField, ctx);
const ruleOf = (fn: () => unknown) => failure(fn).details;
const fieldOf = (slug: string): FieldDef => projects.fields.find((f) => f.slug === slug)!;

describe('validateNewField', () => {
  it('fills in the defaults', () => {
    expect(newField({ slug: 'nickname', name: ' Nickname ', type: 'text' })).toEqual({
      slug: 'nickname', name: 'Nickname', type: 'text', description: null, required: false, unique: false, config: {},
    });
    expect(newField({ slug: 'deal_value', type: 'currency' })).toMatchObject({ name: 'Deal value', config: { currency_code: 'USD' } });
    expect(newField({ slug: 'fit', name: 'Fit', type: 'rating' }).config).toEqual({ max: 5 });
    expect(newField({ slug: 'account', name: 'Account', type: 'record_reference', config: { target: 'companies' } }).config)
      .toEqual({ target: 'companies', many: false });
  });

  it('trims options and keeps their order', () => {
    expect(newField({ slug: 'tier', name: 'Tier', type: 'select', config: { options: [' gold', 'silver ', 'bronze'] } }).config)
      .toEqual({ options: ['gold', 'silver', 'bronze'] });
  });

  it.each(['Name', '1st', 'job-title', '', 'a'.repeat(64), '_x'])('rejects the slug %j', (slug) => {
    expect(ruleOf(() => newField({ slug, name: 'X', type: 'text' }))).toMatchObject({ param: 'field.slug', rule: 'format' });
  });

  it('matches slugs of up to 63 characters', () => {
    expect(SLUG_PATTERN.test('a'.repeat(63))).toBe(true);
    expect(SLUG_PATTERN.test('job_title_2')).toBe(true);
  });

  it('reserves the system field names', () => {
    for (const slug of ['id', 'record_id', 'created_at', 'updated_at']) {
      expect(ruleOf(() => newField({ slug, name: 'X', type: 'text' }))).toMatchObject({ param: 'field.slug', rule: 'reserved' });
    }
  });

  it('suggests the nearest type for an unknown one', () => {
    expect(ruleOf(() => newField({ slug: 'x', name: 'X', type: 'multiselect' })))
      .toMatchObject({ param: 'field.type', rule: 'enum', suggestion: 'multi_select' });
    expect(ruleOf(() => newField({ slug: 'x', name: 'X', type: 'emial' }))).toMatchObject({ suggestion: 'email' });
  });

  it('rejects an empty or overlong name', () => {
    expect(ruleOf(() => newField({ slug: 'x', name: '  ', type: 'text' }))).toMatchObject({ param: 'field.name', rule: 'required' });
    expect(ruleOf(() => newField({ slug: 'x', name: 'n'.repeat(101), type: 'text' }))).toMatchObject({ rule: 'max_length' });
  });

  it('allows unique only on text, email, phone, url and number', () => {
    expect(newField({ slug: 'x', name: 'X', type: 'phone', unique: true }).unique).toBe(true);
    expect(ruleOf(() => newField({ slug: 'x', name: 'X', type: 'checkbox', unique: true })))
      .toMatchObject({ param: 'field.unique', rule: 'unsupported', allowed: ['text', 'email', 'phone', 'url', 'number'] });
  });

  it('requires options for choice fields, 1 to 500, unique and non-empty', () => {
    const choice = (config: unknown) => () => newField({ slug: 'x', name: 'X', type: 'status', config });
    expect(ruleOf(choice(undefined))).toMatchObject({ param: 'field.options', rule: 'required' });
    expect(ruleOf(choice({ options: [] }))).toMatchObject({ param: 'field.options', rule: 'min_items' });
    expect(ruleOf(choice({ options: Array.from({ length: 501 }, (_, i) => `o${i}`) }))).toMatchObject({ rule: 'max_items' });
    expect(ruleOf(choice({ options: ['a', 'b', 'a'] }))).toMatchObject({ param: 'field.options[2]', rule: 'duplicate' });
    expect(ruleOf(choice({ options: ['a', ''] }))).toMatchObject({ param: 'field.options[1]', rule: 'required' });
    expect(ruleOf(choice({ options: ['a', 3] }))).toMatchObject({ param: 'field.options[1]', rule: 'type' });
    expect(ruleOf(choice({ options: 'a,b' }))).toMatchObject({ param: 'field.options', rule: 'type' });
  });

  it('requires a reference target among the object types and suggests the nearest', () => {
    const ref = (config: unknown) => () => newField({ slug: 'x', name: 'X', type: 'record_reference', config });
    expect(ruleOf(ref({}))).toMatchObject({ param: 'field.target', rule: 'required' });
    expect(ruleOf(ref({ target: 'company' }))).toMatchObject({ param: 'field.target', rule: 'enum', suggestion: 'companies' });
    expect(ruleOf(ref({ target: 'contacts', many: 'yes' }))).toMatchObject({ param: 'field.many', rule: 'type' });
  });

  it('checks currency codes and rating maxima', () => {
    expect(ruleOf(() => newField({ slug: 'x', name: 'X', type: 'currency', config: { currency_code: 'usd' } })))
      .toMatchObject({ param: 'field.currency_code', rule: 'format' });
    expect(ruleOf(() => newField({ slug: 'x', name: 'X', type: 'rating', config: { max: 11 } })))
      .toMatchObject({ param: 'field.max', rule: 'range' });
    expect(ruleOf(() => newField({ slug: 'x', name: 'X', type: 'rating', config: { max: 2.5 } }))).toMatchObject({ rule: 'range' });
  });

  it('rejects config keys that do not apply to the type', () => {
    expect(ruleOf(() => newField({ slug: 'x', name: 'X', type: 'text', config: { options: ['a'] } })))
      .toMatchObject({ param: 'field.options', rule: 'unsupported', allowed: [] });
    expect(ruleOf(() => newField({ slug: 'x', name: 'X', type: 'currency', config: { max: 3 } })))
      .toMatchObject({ param: 'field.max', allowed: ['currency_code'] });
  });

  it('rejects properties a field definition does not have, pointing at the right one', () => {
    expect(ruleOf(() => newField({ slug: 'x', name: 'X', type: 'text', requried: true })))
      .toMatchObject({ param: 'field.requried', rule: 'unsupported', suggestion: 'required' });
  });
});

describe('validateFieldPatch', () => {
  it('returns only the keys given, normalised', () => {
    expect(validateFieldPatch(fieldOf('name'), { name: ' Title ', description: '' }, 'patch')).toEqual({ name: 'Title', description: null });
    expect(validateFieldPatch(fieldOf('legacy_code'), { archived: false }, 'patch')).toEqual({ archived: false });
  });

  it('replaces options with a new unique list and returns the whole config', () => {
    expect(validateFieldPatch(fieldOf('priority'), { config: { options: ['p1', 'p2'] } }, 'patch'))
      .toEqual({ config: { options: ['p1', 'p2'], retired_options: ['low', 'medium', 'high'] } });
    expect(validateFieldPatch(fieldOf('members'), { config: { target: 'contacts' } }, 'patch'))
      .toEqual({ config: { target: 'contacts', many: true } });
    expect(ruleOf(() => validateFieldPatch(fieldOf('priority'), { config: { options: ['p1', 'p1'] } }, 'patch'))).toMatchObject({ rule: 'duplicate' });
  });

  it('keeps the options a patch drops as retired_options, which the caller cannot set', () => {
    const priority = fieldOf('priority');
    const dropped = validateFieldPatch(priority, { config: { options: ['low', 'high', 'urgent'] } }, 'patch');
    expect(dropped).toEqual({ config: { options: ['low', 'high', 'urgent'], retired_options: ['medium'] } });

    // Retired before, then dropped now: oldest first; an option offered again leaves the list.
    const later = { ...priority, config: dropped.config! };
    expect(validateFieldPatch(later, { config: { options: ['medium', 'urgent'] } }, 'patch').config)
      .toEqual({ options: ['medium', 'urgent'], retired_options: ['low', 'high'] });
    expect(validateFieldPatch(later, { config: { options: ['low', 'medium', 'high', 'urgent'] } }, 'patch').config)
      .toEqual({ options: ['low', 'medium', 'high', 'urgent'] });

    expect(ruleOf(() => validateFieldPatch(priority, { config: { retired_options: ['low'] } } as never, 'patch')))
      .toMatchObject({ param: 'patch.retired_options', rule: 'unsupported' });
  });

  it('keeps at most 500 retired options, the most recently dropped', () => {
    const many = (prefix: string) => Array.from({ length: 500 }, (_, i) => `${prefix}${i}`);
    const field = { ...fieldOf('priority'), config: { options: many('b'), retired_options: many('a') } };
    const retired = validateFieldPatch(field, { config: { options: ['c'] } }, 'patch').config!.retired_options!;
    expect(retired).toEqual(many('b'));
  });

  it('refuses to change the type, the target or many', () => {
    expect(ruleOf(() => validateFieldPatch(fieldOf('name'), { type: 'number' } as never, 'patch'))).toMatchObject({ param: 'patch.type', rule: 'immutable' });
    expect(ruleOf(() => validateFieldPatch(fieldOf('company'), { config: { target: 'deals' } }, 'patch')))
      .toMatchObject({ param: 'patch.target', rule: 'immutable' });
    expect(ruleOf(() => validateFieldPatch(fieldOf('company'), { config: { many: true } }, 'patch')))
      .toMatchObject({ param: 'patch.many', rule: 'immutable' });
  });

  it('applies the same unique and config rules as a new field', () => {
    expect(ruleOf(() => validateFieldPatch(fieldOf('active'), { unique: true }, 'patch'))).toMatchObject({ rule: 'unsupported' });
    expect(ruleOf(() => validateFieldPatch(fieldOf('name'), { config: { max: 3 } }, 'patch'))).toMatchObject({ param: 'patch.max', rule: 'unsupported' });
    expect(validateFieldPatch(fieldOf('score'), { config: { max: 7 } }, 'patch')).toEqual({ config: { max: 7 } });
  });

  it('rejects a patch that changes nothing', () => {
    expect(ruleOf(() => validateFieldPatch(fieldOf('name'), {}, 'patch'))).toMatchObject({ param: 'patch', rule: 'required' });
  });
});

describe('validateNewObjectType', () => {
  const existingSlugs = ['companies', 'contacts', 'deals'];
  const base: NewObjectType = { slug: 'projects', name: 'Projects', fields: [{ slug: 'name', name: 'Name', type: 'text', required: true }] };
  const create = (input: unknown) => validateNewObjectType(input as NewObjectType, { param: 'object_type', existingSlugs });

  it('accepts every standard object type', () => {
    for (const type of STANDARD_OBJECT_TYPES) {
      const others = existingSlugs.filter((s) => s !== type.slug);
      expect(validateNewObjectType(type, { param: '', existingSlugs: others }).fields).toHaveLength(type.fields.length);
    }
  });

  it('normalises presentation and fields', () => {
    expect(create({ ...base, icon: 'rocket' })).toEqual({
      slug: 'projects', name: 'Projects', icon: 'rocket', color: null, description: null, standard: false,
      fields: [{ slug: 'name', name: 'Name', type: 'text', description: null, required: true, unique: false, config: {} }],
    });
  });

  it('lets a reference target the new type itself', () => {
    const selfRef = { ...base, fields: [...base.fields, { slug: 'parent', name: 'Parent', type: 'record_reference', config: { target: 'projects' } }] };
    expect(create(selfRef).fields[1]?.config).toEqual({ target: 'projects', many: false });
  });

  it('reports a taken slug as a conflict', () => {
    const error = failure(() => create({ ...base, slug: 'deals' }));
    expect(error.code).toBe('conflict');
    expect(error.details?.param).toBe('object_type.slug');
  });

  it('requires at least one field and distinct field slugs', () => {
    expect(ruleOf(() => create({ ...base, fields: [] }))).toMatchObject({ param: 'object_type.fields', rule: 'min_items' });
    expect(ruleOf(() => create({ ...base, fields: [...base.fields, { slug: 'name', name: 'Again', type: 'text' }] })))
      .toMatchObject({ param: 'object_type.fields[1].slug', rule: 'duplicate' });
  });

  it('points into the failing field', () => {
    expect(ruleOf(() => create({ ...base, fields: [{ slug: 'ref', name: 'Ref', type: 'record_reference', config: { target: 'dealz' } }] })))
      .toMatchObject({ param: 'object_type.fields[0].target', suggestion: 'deals' });
  });

  it('checks the slug and the name', () => {
    expect(ruleOf(() => create({ ...base, slug: 'My Projects' }))).toMatchObject({ param: 'object_type.slug', rule: 'format' });
    expect(ruleOf(() => create({ ...base, name: '' }))).toMatchObject({ param: 'object_type.name', rule: 'required' });
    expect(ruleOf(() => create({ ...base, name: 'n'.repeat(101) }))).toMatchObject({ param: 'object_type.name', rule: 'max_length' });
  });
});

describe('validateObjectTypePatch', () => {
  it('keeps the keys given and clears blank ones to null', () => {
    expect(validateObjectTypePatch({ name: ' Accounts ', color: '' }, 'patch')).toEqual({ name: 'Accounts', color: null });
  });

  it('refuses a slug change, unknown keys and an empty patch', () => {
    expect(ruleOf(() => validateObjectTypePatch({ slug: 'x' } as never, 'patch'))).toMatchObject({ param: 'patch.slug', rule: 'immutable' });
    expect(ruleOf(() => validateObjectTypePatch({ colour: 'red' } as never, 'patch'))).toMatchObject({ param: 'patch.colour', suggestion: 'color' });
    expect(ruleOf(() => validateObjectTypePatch({}, 'patch'))).toMatchObject({ param: 'patch', rule: 'required' });
  });
});
