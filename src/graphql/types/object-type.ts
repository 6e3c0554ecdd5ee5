import type { NewField } from '../../domain/store/port.ts';
import { FIELD_TYPES, type FieldDef, type FieldType, type ObjectType } from '../../domain/types.ts';
import { builder } from '../builder.ts';

/** Object types and their fields: type, inputs, queries and mutations together. */

export const FieldTypeEnum = builder.enumType('FieldType', { values: FIELD_TYPES });

export const FieldRef = builder.objectRef<FieldDef>('Field').implement({
  description: 'A field definition. Per-type settings are flattened: options, retired_options, target, many, currency_code, max.',
  fields: (t) => ({
    id: t.exposeString('id'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    type: t.expose('type', { type: FieldTypeEnum }),
    description: t.exposeString('description', { nullable: true }),
    required: t.exposeBoolean('required'),
    unique: t.exposeBoolean('unique'),
    archived: t.exposeBoolean('archived'),
    options: t.stringList({ nullable: true, resolve: (f) => f.config.options ?? null }),
    retired_options: t.stringList({
      nullable: true,
      description: 'select, multi_select, status: options removed from `options` that records may still hold; filters take them, no record takes one anew. Empty when none.',
      resolve: (f) => (f.config.options === undefined ? null : (f.config.retired_options ?? [])),
    }),
    target: t.string({ nullable: true, resolve: (f) => f.config.target ?? null }),
    many: t.boolean({ nullable: true, resolve: (f) => (f.type === 'record_reference' ? (f.config.many ?? false) : null) }),
    currency_code: t.string({ nullable: true, resolve: (f) => f.config.currency_code ?? null }),
    max: t.int({ nullable: true, resolve: (f) => f.config.max ?? null }),
    position: t.exposeInt('position'),
    created_at: t.exposeString('created_at'),
  }),
});

export const ObjectTypeRef = builder.objectRef<ObjectType>('ObjectType').implement({
  description: 'A kind of record, such as companies, contacts or deals, referenced by its slug.',
  fields: (t) => ({
    id: t.exposeString('id'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    icon: t.exposeString('icon', { nullable: true }),
    color: t.exposeString('color', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    standard: t.exposeBoolean('standard'),
    fields: t.field({
      type: [FieldRef],
      args: { include_archived: t.arg.boolean({ defaultValue: true }) },
      resolve: (o, args) => (args.include_archived ? o.fields : o.fields.filter((f) => !f.archived)),
    }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
  }),
});

const fieldSettings = (t: Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0]) => ({
  description: t.string(),
  required: t.boolean(),
  unique: t.boolean(),
  options: t.stringList(),
  currency_code: t.string(),
  max: t.int(),
});

export const FieldInput = builder.inputType('FieldInput', {
  fields: (t) => ({
    slug: t.string({ required: true }),
    name: t.string({ required: true }),
    type: t.field({ type: FieldTypeEnum, required: true }),
    ...fieldSettings(t),
    target: t.string(),
    many: t.boolean(),
  }),
});

export const FieldPatchInput = builder.inputType('FieldPatchInput', {
  fields: (t) => ({ name: t.string(), archived: t.boolean(), ...fieldSettings(t) }),
});

type FieldInputShape = {
  slug?: string | null; name?: string | null; type?: FieldType | null; description?: string | null;
  required?: boolean | null; unique?: boolean | null; archived?: boolean | null; options?: readonly string[] | null;
  target?: string | null; many?: boolean | null; currency_code?: string | null; max?: number | null;
};

/** Folds the flattened per-type settings of a GraphQL field input back into FieldConfig. */
export function toFieldConfig(input: FieldInputShape): NewField['config'] | undefined {
  const config: NonNullable<NewField['config']> = {};
  if (input.options != null) config.options = [...input.options];
  if (input.target != null) config.target = input.target;
  if (input.many != null) config.many = input.many;
  if (input.currency_code != null) config.currency_code = input.currency_code;
  if (input.max != null) config.max = input.max;
  return Object.keys(config).length ? config : undefined;
}

export function toNewField(input: FieldInputShape): NewField {
  return defined({
    slug: input.slug ?? '', name: input.name ?? '', type: input.type as FieldType,
    description: input.description ?? undefined, required: input.required ?? undefined, unique: input.unique ?? undefined,
    config: toFieldConfig(input),
  });
}

/** Drops undefined keys so "not given" and "given" stay distinct in patches. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

builder.queryFields((t) => ({
  objectTypes: t.field({
    type: [ObjectTypeRef],
    description: 'The live object types of the workspace with their fields.',
    authScopes: { tool: 'objects' },
    resolve: (_root, _args, ctx) => ctx.services.objects.list(),
  }),
  objectType: t.field({
    type: ObjectTypeRef,
    authScopes: { tool: 'objects' },
    args: { slug: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.objects.get(args.slug),
  }),
}));

builder.mutationFields((t) => ({
  createObjectType: t.field({
    type: ObjectTypeRef,
    authScopes: { tool: 'objects', writer: true },
    args: {
      slug: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
      icon: t.arg.string(),
      color: t.arg.string(),
      description: t.arg.string(),
      fields: t.arg({ type: [FieldInput], required: true }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.objects.create({
        slug: args.slug, name: args.name, icon: args.icon ?? null, color: args.color ?? null,
        description: args.description ?? null, fields: args.fields.map(toNewField),
      }),
  }),
  updateObjectType: t.field({
    type: ObjectTypeRef,
    authScopes: { tool: 'objects', writer: true },
    args: {
      slug: t.arg.string({ required: true }),
      name: t.arg.string(),
      icon: t.arg.string(),
      color: t.arg.string(),
      description: t.arg.string(),
    },
    resolve: (_root, { slug, ...patch }, ctx) => ctx.services.objects.update(slug, defined({
      name: patch.name ?? undefined, icon: patch.icon, color: patch.color, description: patch.description,
    })),
  }),
  deleteObjectType: t.field({
    type: ObjectTypeRef,
    authScopes: { tool: 'objects', writer: true },
    args: { slug: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.objects.delete(args.slug),
  }),
  addField: t.field({
    type: ObjectTypeRef,
    authScopes: { tool: 'objects', writer: true },
    args: { slug: t.arg.string({ required: true }), field: t.arg({ type: FieldInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.services.objects.addField(args.slug, toNewField(args.field)),
  }),
  updateField: t.field({
    type: ObjectTypeRef,
    authScopes: { tool: 'objects', writer: true },
    args: {
      slug: t.arg.string({ required: true }),
      field_slug: t.arg.string({ required: true }),
      patch: t.arg({ type: FieldPatchInput, required: true }),
    },
    resolve: (_root, args, ctx) => ctx.services.objects.updateField(args.slug, args.field_slug, defined({
      name: args.patch.name ?? undefined, description: args.patch.description, required: args.patch.required ?? undefined,
      unique: args.patch.unique ?? undefined, archived: args.patch.archived ?? undefined, config: toFieldConfig(args.patch),
    })),
  }),
}));
