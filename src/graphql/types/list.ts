import type { EntryView, ListView } from '../../domain/services/lists.ts';
import { builder } from '../builder.ts';
import { FieldInput, FieldRef, toNewField } from './object-type.ts';
import { pageType } from './page.ts';
import { RelatedRecordRef } from './record.ts';

/** Lists and their entries: type, queries and mutations together. */

export const ListRef = builder.objectRef<ListView>('List').implement({
  description: 'A list of records of one object type, with entry fields of its own (a status field makes it a pipeline).',
  fields: (t) => ({
    list_id: t.exposeString('list_id'),
    id: t.exposeString('id'),
    object_type_slug: t.exposeString('object_type_slug'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    fields: t.expose('fields', { type: [FieldRef] }),
    created_by: t.exposeString('created_by', { nullable: true }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
    deleted_at: t.exposeString('deleted_at', { nullable: true }),
  }),
});

const ListPageRef = builder.objectRef<{ items: ListView[]; total: number }>('ListPage').implement({
  fields: (t) => ({ items: t.expose('items', { type: [ListRef] }), total: t.exposeInt('total') }),
});

export const EntryRef = builder.objectRef<EntryView>('ListEntry').implement({
  description: "A record's membership of a list; data is keyed by the list's field slugs.",
  fields: (t) => ({
    entry_id: t.exposeString('entry_id'),
    id: t.exposeString('id'),
    list_id: t.exposeString('list_id'),
    record_id: t.exposeString('record_id'),
    data: t.expose('data', { type: 'JSON' }),
    record: t.expose('record', { type: RelatedRecordRef }),
    created_by: t.exposeString('created_by', { nullable: true }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
  }),
});

const EntryPageRef = pageType('EntryPage', EntryRef);

const BulkAddRef = builder.objectRef<{ items: EntryView[]; added: number }>('BulkAddResult').implement({
  fields: (t) => ({ items: t.expose('items', { type: [EntryRef] }), added: t.exposeInt('added') }),
});

const EntryInput = builder.inputType('EntryInput', {
  fields: (t) => ({ record_id: t.string({ required: true }), data: t.field({ type: 'JSON' }) }),
});

builder.queryFields((t) => ({
  lists: t.field({
    type: ListPageRef,
    authScopes: { tool: 'lists' },
    args: { object_type_slug: t.arg.string() },
    resolve: (_r, args, ctx) => ctx.services.lists.list({ object_type_slug: args.object_type_slug ?? undefined }),
  }),
  list: t.field({
    type: ListRef,
    authScopes: { tool: 'lists' },
    args: { list_id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.lists.get(args.list_id),
  }),
  listEntries: t.field({
    type: EntryPageRef,
    authScopes: { tool: 'lists' },
    args: {
      list_id: t.arg.string({ required: true }), filters: t.arg({ type: 'JSON' }), sort_field: t.arg.string(),
      ascending: t.arg.boolean(), page: t.arg.int(), page_size: t.arg.int(),
    },
    resolve: (_r, args, ctx) => ctx.services.lists.entries({
      list_id: args.list_id, filters: args.filters ?? undefined, sort_field: args.sort_field ?? undefined,
      ascending: args.ascending ?? undefined, page: args.page ?? undefined, page_size: args.page_size ?? undefined,
    }),
  }),
}));

builder.mutationFields((t) => ({
  createList: t.field({
    type: ListRef,
    authScopes: { tool: 'lists', writer: true },
    args: {
      object_type_slug: t.arg.string({ required: true }), name: t.arg.string({ required: true }),
      description: t.arg.string(), fields: t.arg({ type: [FieldInput] }),
    },
    resolve: (_r, args, ctx) => ctx.services.lists.create({
      object_type_slug: args.object_type_slug, name: args.name, description: args.description ?? null,
      fields: (args.fields ?? []).map(toNewField),
    }),
  }),
  updateList: t.field({
    type: ListRef,
    authScopes: { tool: 'lists', writer: true },
    args: { list_id: t.arg.string({ required: true }), name: t.arg.string(), description: t.arg.string() },
    resolve: (_r, args, ctx) => ctx.services.lists.update({ list_id: args.list_id, name: args.name ?? undefined, description: args.description }),
  }),
  deleteList: t.field({
    type: ListRef,
    authScopes: { tool: 'lists', writer: true },
    args: { list_id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.lists.delete(args.list_id),
  }),
  bulkAddEntries: t.field({
    type: BulkAddRef,
    authScopes: { tool: 'lists' },
    args: { list_id: t.arg.string({ required: true }), entries: t.arg({ type: [EntryInput], required: true }) },
    resolve: (_r, args, ctx) => ctx.services.lists.bulkAdd({
      list_id: args.list_id, entries: args.entries.map((e) => ({ record_id: e.record_id, data: e.data ?? {} })),
    }),
  }),
  updateEntry: t.field({
    type: EntryRef,
    authScopes: { tool: 'lists' },
    args: { entry_id: t.arg.string({ required: true }), data: t.arg({ type: 'JSON', required: true }) },
    resolve: (_r, args, ctx) => ctx.services.lists.updateEntry({ entry_id: args.entry_id, data: args.data }),
  }),
  removeEntry: t.field({
    type: EntryRef,
    authScopes: { tool: 'lists' },
    args: { entry_id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => ctx.services.lists.removeEntry(args.entry_id),
  }),
}));
