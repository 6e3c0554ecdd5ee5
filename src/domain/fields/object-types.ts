import { CrmError, validationError } from '../errors.ts';
import type { NewField, NewObjectType, ObjectTypePatch } from '../store/port.ts';
import { expectName, isPlainObject, joinParam, optionalText, rejectOtherKeys, typeError } from './checks.ts';
import { validateNewField, validateSlug } from './definitions.ts';

/**
 * Rules for object types (objects.create, objects.update):
 * - slug: `SLUG_PATTERN`, not already a live object type (`conflict`, as the store would say).
 * - name: non-empty, at most 100 characters; icon and color at most 50, description 1,000.
 * - fields: 1 to 200 definitions with distinct slugs; a record_reference may target the new
 *   type itself or any existing one. No field is mandatory (a `name` text field is conventional).
 * - `standard` is kept only when it is literally true; callers must not forward it from users.
 */

export const MAX_FIELDS = 200;
const SHORT_TEXT = 50;
const DESCRIPTION_MAX_LENGTH = 1000;
const NEW_KEYS = ['slug', 'name', 'icon', 'color', 'description', 'standard', 'fields'];
const PATCH_KEYS = ['name', 'icon', 'color', 'description'];

/** The presentation properties shared by a new object type and a patch; absent ones stay absent. */
function presentation(input: Record<string, unknown>, param: string): ObjectTypePatch {
  const at = (key: string): string => joinParam(param, key);
  const out: ObjectTypePatch = {};
  if (input['name'] !== undefined) out.name = expectName(input['name'], at('name'));
  const icon = optionalText(input['icon'], at('icon'), SHORT_TEXT);
  if (icon !== undefined) out.icon = icon;
  const color = optionalText(input['color'], at('color'), SHORT_TEXT);
  if (color !== undefined) out.color = color;
  const description = optionalText(input['description'], at('description'), DESCRIPTION_MAX_LENGTH);
  if (description !== undefined) out.description = description;
  return out;
}

/** A new object type with its fields, normalised (icon, color, description null when absent). */
export function validateNewObjectType(input: NewObjectType, ctx: { param: string; existingSlugs: readonly string[] }): NewObjectType {
  const { param } = ctx;
  const at = (key: string): string => joinParam(param, key);
  if (!isPlainObject(input)) throw typeError(param || 'object_type', 'an object type definition', input);
  rejectOtherKeys(input, NEW_KEYS, param, 'an object type');
  const slug = validateSlug(input.slug, at('slug'));
  if (ctx.existingSlugs.includes(slug)) {
    throw new CrmError('conflict', `${at('slug')} ${JSON.stringify(slug)} is already an object type`, { param: at('slug'), rule: 'unique' });
  }
  const name = expectName(input.name, at('name'));
  const looks = presentation(input, param);

  const fields: unknown = input.fields;
  if (!Array.isArray(fields)) throw typeError(at('fields'), 'an array of field definitions', fields);
  if (fields.length === 0 || fields.length > MAX_FIELDS) {
    throw validationError(at('fields'), `${at('fields')} must hold 1 to ${MAX_FIELDS} field definitions, got ${fields.length}`, {
      rule: fields.length === 0 ? 'min_items' : 'max_items',
    });
  }
  const objectSlugs = [...ctx.existingSlugs, slug];
  const seen = new Set<string>();
  const validated = fields.map((raw: NewField, i): NewField => {
    const field = validateNewField(raw, { param: `${at('fields')}[${i}]`, objectSlugs });
    if (seen.has(field.slug)) {
      const p = `${at('fields')}[${i}].slug`;
      throw validationError(p, `${p} repeats the field slug ${JSON.stringify(field.slug)}`, { rule: 'duplicate' });
    }
    seen.add(field.slug);
    return field;
  });

  return {
    slug,
    name,
    icon: looks.icon ?? null,
    color: looks.color ?? null,
    description: looks.description ?? null,
    standard: input.standard === true,
    fields: validated,
  };
}

/** A change to an object type's presentation; the slug cannot change. At least one key is required. */
export function validateObjectTypePatch(patch: ObjectTypePatch, param: string): ObjectTypePatch {
  const label = param || 'patch';
  if (!isPlainObject(patch)) throw typeError(label, 'an object', patch);
  if ('slug' in patch) throw validationError(joinParam(param, 'slug'), `${joinParam(param, 'slug')} of an object type cannot change`, { rule: 'immutable' });
  rejectOtherKeys(patch, PATCH_KEYS, param, 'an object type patch');
  const out = presentation(patch, param);
  if (Object.keys(out).length === 0) {
    // Unnested (objects.update takes the patch's keys as its own parameters), the first of them is named.
    throw validationError(param || PATCH_KEYS[0]!, `${param ? `${param} must change` : 'give'} at least one of ${PATCH_KEYS.join(', ')}${param ? '' : ' to change'}`, { rule: 'required', allowed: PATCH_KEYS });
  }
  return out;
}
