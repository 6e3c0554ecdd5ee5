import type { ViewView } from '../../domain/services/views.ts';
import type { ViewSort } from '../../domain/types.ts';
import { builder } from '../builder.ts';

/** Saved views: type, queries and mutations together. */

const ViewSortRef = builder.objectRef<ViewSort>('ViewSort').implement({
  fields: (t) => ({ field: t.exposeString('field'), ascending: t.exposeBoolean('ascending') }),
});

const ViewSortInput = builder.inputType('ViewSortInput', {
  fields: (t) => ({ field: t.string({ required: true }), ascending: t.boolean() }),
});

export const ViewRef = builder.objectRef<ViewView>('View').implement({
  description: 'A saved view of an object type or a list: filters, sorts and visible fields.',
  fields: (t) => ({
    view_id: t.exposeString('view_id'),
    id: t.exposeString('id'),
    name: t.exposeString('name'),
    object_type_slug: t.exposeString('object_type_slug'),
    list_id: t.exposeString('list_id', { nullable: true }),
    filters: t.expose('filters', { type: 'JSON', nullable: true }),
    sorts: t.expose('sorts', { type: [ViewSortRef] }),
    visible_fields: t.exposeStringList('visible_fields'),
    created_by: t.exposeString('created_by', { nullable: true }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
    deleted_at: t.exposeString('deleted_at', { nullable: true }),
  }),
});

const ViewPageRef = builder.objectRef<{ items: ViewView[]; total: number }>('ViewPage').implement({
  fields: (t) => ({ items: t.expose('items', { type: [ViewRef] }), total: t.exposeInt('total') }),
});

const sorts = (input: ReadonlyArray<{ field: string; ascending?: boolean | null }> | null | undefined) =>
  input == null ? undefined : input.map((s) => ({ field: s.field, ascending: s.ascending ?? true }));

builder.queryFields((t) => ({
  views: t.field({
    type: ViewPageRef,
    authScopes: { tool: 'views' },
    args: { object_type_slug: t.arg.string(), list_id: t.arg.string() },
    resolve: (_r, args, ctx) => ctx.services.views.list({ object_type_slug: args.object_type_slug ?? undefined, list_id: args.list_id ?? undefined }),
  }),
  view: t.field({
    type: ViewRef,
    authScopes: { tool: 'views' },
    args: { view_id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.views.get(args.view_id),
  }),
}));

builder.mutationFields((t) => ({
  createView: t.field({
    type: ViewRef,
    authScopes: { tool: 'views' },
    args: {
      name: t.arg.string({ required: true }), object_type_slug: t.arg.string(), list_id: t.arg.string(),
      filters: t.arg({ type: 'JSON' }), sorts: t.arg({ type: [ViewSortInput] }), visible_fields: t.arg.stringList(),
    },
    resolve: (_r, args, ctx) => ctx.services.views.create({
      name: args.name, object_type_slug: args.object_type_slug ?? undefined, list_id: args.list_id ?? null,
      filters: (args.filters as Record<string, unknown> | null | undefined) ?? undefined, sorts: sorts(args.sorts),
      visible_fields: args.visible_fields ?? undefined,
    }),
  }),
  updateView: t.field({
    type: ViewRef,
    authScopes: { tool: 'views' },
    args: {
      view_id: t.arg.string({ required: true }), name: t.arg.string(), filters: t.arg({ type: 'JSON' }),
      sorts: t.arg({ type: [ViewSortInput] }), visible_fields: t.arg.stringList(),
    },
    resolve: (_r, args, ctx) => ctx.services.views.update({
      view_id: args.view_id, name: args.name ?? undefined, filters: args.filters as Record<string, unknown> | null | undefined,
      sorts: sorts(args.sorts), visible_fields: args.visible_fields ?? undefined,
    }),
  }),
  deleteView: t.field({
    type: ViewRef,
    authScopes: { tool: 'views' },
    args: { view_id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.views.delete(args.view_id),
  }),
}));
