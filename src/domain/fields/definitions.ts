import { validationError } from '../errors.ts';
import { FIELD_TYPES, type FieldConfig, type FieldDef, type FieldType } from '../types.ts';
import type { FieldPatch, NewField } from '../store/port.ts';
import {
  enumError, expectBoolean, expectInteger, expectName, expectString, isPlainObject, joinParam, optionalText,
  rejectOtherKeys, suggestError, typeError,
} from './checks.ts';
import { DEFAULT_CURRENCY, DEFAULT_RATING_MAX, RATING_MAX_LIMIT } from './values.ts';

/**
 * Rules for field definitions (objects.create, objects.add_field, objects.update_field),
 * independent of the zod schemas at the edge so every caller gets the same answer:
 * - slug: `SLUG_PATTERN`; `id`, `record_id`, `created_at`, `updated_at` are reserved (filters
 *   and sorts use them for the record itself).
 * - name: non-empty, at most 100 characters; defaults to the slug in sentence case.
 * - unique: only text, email, phone, url, number.
 * - config, per type (other keys are `unsupported`): select/multi_select/status `options`
 *   (1–500 unique non-empty strings, trimmed); record_reference `target` (an object type slug)
 *   and `many` (default false); currency `currency_code` (three upper-case letters, default
 *   USD); rating `max` (integer 1–10, default 5).
 * - Options a patch drops are kept as `retired_options` (derived, never given): records may still
 *   hold them, filters take them, and no record takes one anew (record-data.ts).
 * - A patch cannot change the type, the slug, a reference's target or its `many`.
 */

export const SLUG_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;
export const RESERVED_FIELD_SLUGS: readonly string[] = ['id', 'record_id', 'created_at', 'updated_at'];
export const UNIQUE_FIELD_TYPES: readonly FieldType[] = ['text', 'email', 'phone', 'url', 'number'];
export const MAX_OPTIONS = 500;
const OPTION_MAX_LENGTH = 200;
const DESCRIPTION_MAX_LENGTH = 1000;

const CONFIG_KEYS: { readonly [T in FieldType]: readonly (keyof FieldConfig)[] } = {
  text: [], number: [], currency: ['currency_code'], checkbox: [], date: [], timestamp: [],
  select: ['options'], multi_select: ['options'], status: ['options'], email: [], phone: [], url: [],
  rating: ['max'], record_reference: ['target', 'many'], user: [],
};

const ALL_CONFIG_KEYS = [...new Set(Object.values(CONFIG_KEYS).flat())];

const NEW_FIELD_KEYS = ['slug', 'name', 'type', 'description', 'required', 'unique', 'config'];
const PATCH_KEYS = ['name', 'description', 'required', 'unique', 'archived', 'config'];
/** What a patch can change, as callers name it: the config keys beside the others (target and many never change). */
const CHANGEABLE = [...PATCH_KEYS.filter((k) => k !== 'config'), 'options', 'currency_code', 'max'];

/** A slug of the `SLUG_PATTERN` shape. */
export function validateSlug(value: unknown, param: string): string {
  const slug = expectString(value, param);
  if (!SLUG_PATTERN.test(slug)) {
    throw validationError(param, `${param} must start with a lower-case letter and hold only a-z, 0-9 and _ (at most 63 characters), got ${JSON.stringify(slug)}`, {
      rule: 'format', expected: SLUG_PATTERN.source,
    });
  }
  return slug;
}

function validateOptions(value: unknown, param: string): string[] {
  if (!Array.isArray(value)) throw typeError(param, 'an array of option strings', value);
  if (value.length === 0 || value.length > MAX_OPTIONS) {
    throw validationError(param, `${param} must hold 1 to ${MAX_OPTIONS} options, got ${value.length}`, { rule: value.length === 0 ? 'min_items' : 'max_items' });
  }
  const seen = new Set<string>();
  return value.map((raw, i) => {
    const option = expectName(raw, `${param}[${i}]`, OPTION_MAX_LENGTH);
    if (seen.has(option)) throw validationError(`${param}[${i}]`, `${param}[${i}] repeats the option ${JSON.stringify(option)}`, { rule: 'duplicate' });
    seen.add(option);
    return option;
  });
}

function validateCurrencyCode(value: unknown, param: string): string {
  const code = expectString(value, param);
  if (!/^[A-Z]{3}$/.test(code)) throw validationError(param, `${param} must be an ISO-4217 code of three upper-case letters such as USD, got ${JSON.stringify(code)}`, { rule: 'format' });
  return code;
}

function validateTarget(value: unknown, param: string, objectSlugs: readonly string[]): string {
  const target = expectString(value, param);
  if (!objectSlugs.includes(target)) throw suggestError(param, `${param} ${JSON.stringify(target)} is not an object type`, 'enum', target, objectSlugs);
  return target;
}

/**
 * The config object, with only the keys that apply to the type. Callers give its keys beside the
 * field's own (`{"type": "select", "options": [...]}`, as the tools and GraphQL take them), so
 * they are named from `param`, the field: `fields[1].options`, not `fields[1].config.options`.
 */
function configObject(type: FieldType, value: unknown, param: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw typeError(joinParam(param, 'config'), 'an object', value);
  const allowed = CONFIG_KEYS[type];
  for (const key of Object.keys(value)) {
    if ((allowed as readonly string[]).includes(key)) continue;
    const takes = allowed.length > 0 ? `a ${type} field takes ${allowed.join(', ')}` : `a ${type} field takes none of ${ALL_CONFIG_KEYS.join(', ')}`;
    throw validationError(joinParam(param, key), `${joinParam(param, key)} does not apply to a ${type} field; ${takes}`, { rule: 'unsupported', allowed });
  }
  return value;
}

function requireKey(config: Record<string, unknown>, key: string, param: string, type: FieldType): unknown {
  if (config[key] === undefined) throw validationError(joinParam(param, key), `${joinParam(param, key)} is required for a ${type} field`, { rule: 'required' });
  return config[key];
}

function validateConfig(type: FieldType, value: unknown, param: string, objectSlugs: readonly string[]): FieldConfig {
  const config = configObject(type, value, param);
  const at = (key: string): string => joinParam(param, key);
  switch (type) {
    case 'select':
    case 'multi_select':
    case 'status':
      return { options: validateOptions(requireKey(config, 'options', param, type), at('options')) };
    case 'record_reference':
      return {
        target: validateTarget(requireKey(config, 'target', param, type), at('target'), objectSlugs),
        many: config['many'] === undefined ? false : expectBoolean(config['many'], at('many')),
      };
    case 'currency':
      return { currency_code: config['currency_code'] === undefined ? DEFAULT_CURRENCY : validateCurrencyCode(config['currency_code'], at('currency_code')) };
    case 'rating':
      return { max: config['max'] === undefined ? DEFAULT_RATING_MAX : expectInteger(config['max'], at('max'), 1, RATING_MAX_LIMIT) };
    default:
      return {};
  }
}

/**
 * Checks a field definition a store holds (a dump's), whose shape is already known, for what the
 * code reading its config relies on, where a key is given: `options` and the `retired_options` a
 * patch derived are arrays of non-empty strings, `target` a non-empty string, `many` a boolean,
 * `currency_code` a string, `max` a whole number from 1. Not today's rules for a new field (an
 * option's length, the reserved slugs, which keys a type takes), which a definition made under
 * earlier ones need not meet.
 */
export function checkStoredField(field: FieldDef, param: string): void {
  const config = field.config as Record<string, unknown>;
  const at = (key: string): string => joinParam(param, `config.${key}`);
  for (const key of ['options', 'retired_options']) {
    const value = config[key];
    if (value === undefined) continue;
    if (!Array.isArray(value)) throw typeError(at(key), 'an array of option strings', value);
    value.forEach((option: unknown, i) => {
      if (typeof option !== 'string' || option === '') throw typeError(`${at(key)}[${i}]`, 'a non-empty string', option);
    });
  }
  const checks: Array<[key: string, expected: string, holds: (value: unknown) => boolean]> = [
    ['target', 'the slug of an object type', (v) => typeof v === 'string' && v !== ''],
    ['many', 'true or false', (v) => typeof v === 'boolean'],
    ['currency_code', 'a currency code', (v) => typeof v === 'string'],
    ['max', 'a whole number from 1', (v) => Number.isInteger(v) && (v as number) >= 1],
  ];
  for (const [key, expected, holds] of checks) {
    if (config[key] !== undefined && !holds(config[key])) throw typeError(at(key), expected, config[key]);
  }
}

function validateUnique(value: unknown, type: FieldType, param: string): boolean {
  const unique = value === undefined ? false : expectBoolean(value, param);
  if (unique && !UNIQUE_FIELD_TYPES.includes(type)) {
    throw validationError(param, `${param} is not supported for ${type} fields; unique fields are ${UNIQUE_FIELD_TYPES.join(', ')}`, { rule: 'unsupported', allowed: UNIQUE_FIELD_TYPES });
  }
  return unique;
}

function sentenceCase(slug: string): string {
  const words = slug.replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A new field definition, normalised: required/unique default false, description null, config with defaults. */
export function validateNewField(input: NewField, ctx: { param: string; objectSlugs: readonly string[] }): NewField {
  const { param } = ctx;
  const at = (key: string): string => joinParam(param, key);
  if (!isPlainObject(input)) throw typeError(param, 'a field definition object', input);
  rejectOtherKeys(input, NEW_FIELD_KEYS, param, 'a field definition');
  const slug = validateSlug(input.slug, at('slug'));
  if (RESERVED_FIELD_SLUGS.includes(slug)) {
    throw validationError(at('slug'), `${at('slug')} ${JSON.stringify(slug)} is reserved for the record itself; choose another slug`, { rule: 'reserved', reserved: RESERVED_FIELD_SLUGS });
  }
  const typeName = expectString(input.type, at('type'));
  if (!(FIELD_TYPES as readonly string[]).includes(typeName)) throw enumError(at('type'), typeName, FIELD_TYPES);
  const type = typeName as FieldType;
  return {
    slug,
    name: input.name === undefined ? sentenceCase(slug) : expectName(input.name, at('name')),
    type,
    description: optionalText(input.description, at('description'), DESCRIPTION_MAX_LENGTH) ?? null,
    required: input.required === undefined ? false : expectBoolean(input.required, at('required')),
    unique: validateUnique(input.unique, type, at('unique')),
    config: validateConfig(type, input.config, param, ctx.objectSlugs),
  };
}

function validateConfigPatch(field: FieldDef, value: unknown, param: string): FieldConfig {
  const patch = configObject(field.type, value, param);
  const at = (key: string): string => joinParam(param, key);
  const out: FieldConfig = { ...field.config };
  for (const key of ['target', 'many'] as const) {
    const current = key === 'many' ? (field.config.many ?? false) : field.config.target;
    if (patch[key] !== undefined && patch[key] !== current) {
      throw validationError(at(key), `${at(key)} cannot change (it is ${JSON.stringify(current)}); add a new field instead`, { rule: 'immutable' });
    }
  }
  if (patch['options'] !== undefined) {
    out.options = validateOptions(patch['options'], at('options'));
    const retired = retiredOptions(field.config, out.options);
    if (retired.length > 0) out.retired_options = retired;
    else delete out.retired_options;
  }
  if (patch['currency_code'] !== undefined) out.currency_code = validateCurrencyCode(patch['currency_code'], at('currency_code'));
  if (patch['max'] !== undefined) out.max = expectInteger(patch['max'], at('max'), 1, RATING_MAX_LIMIT);
  return out;
}

/**
 * The options a field no longer offers but records may still hold: those the new list drops,
 * after the ones retired before (an option offered again leaves the list), the most recent
 * MAX_OPTIONS kept. Filters take them, so the records holding one stay findable; no record takes one anew.
 */
function retiredOptions(before: FieldConfig, options: readonly string[]): string[] {
  const offered = new Set(options);
  const retired = [...(before.retired_options ?? []), ...(before.options ?? [])].filter((o) => !offered.has(o));
  return [...new Set(retired.reverse())].reverse().slice(-MAX_OPTIONS);
}

/**
 * A change to an existing field, normalised. Only the keys given are returned; `config`, when
 * given, is the field's whole new config (the current one with the patch applied).
 */
export function validateFieldPatch(field: FieldDef, patch: FieldPatch, param: string): FieldPatch {
  const label = param || 'patch';
  const at = (key: string): string => joinParam(param, key);
  if (!isPlainObject(patch)) throw typeError(label, 'an object', patch);
  for (const key of ['type', 'slug']) {
    if (key in patch) throw validationError(at(key), `${at(key)} of a field cannot change; add a new field instead`, { rule: 'immutable' });
  }
  rejectOtherKeys(patch, PATCH_KEYS, param, 'a field patch');
  const out: FieldPatch = {};
  if (patch.name !== undefined) out.name = expectName(patch.name, at('name'));
  if (patch.description !== undefined) out.description = optionalText(patch.description, at('description'), DESCRIPTION_MAX_LENGTH) ?? null;
  if (patch.required !== undefined) out.required = expectBoolean(patch.required, at('required'));
  if (patch.unique !== undefined) out.unique = validateUnique(patch.unique, field.type, at('unique'));
  if (patch.archived !== undefined) out.archived = expectBoolean(patch.archived, at('archived'));
  if (patch.config !== undefined) out.config = validateConfigPatch(field, patch.config, param);
  if (Object.keys(out).length === 0) {
    // Unnested (objects.update_field takes the patch's keys as its own parameters), the first of them is named.
    throw validationError(param || CHANGEABLE[0]!, `${param ? `${param} must change` : 'give'} at least one of ${CHANGEABLE.join(', ')}${param ? '' : ' to change'}`, { rule: 'required', allowed: CHANGEABLE });
  }
  return out;
}
