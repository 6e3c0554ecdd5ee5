import type { RecordView, RelatedRecordView, RelationView } from '../../domain/services/records.ts';
import { LIMITS } from '../../domain/limits.ts';
import { builder } from '../builder.ts';
import { pageType } from './page.ts';

/** Records: type, queries and mutations together. */

export const RelatedRecordRef = builder.objectRef<RelatedRecordView>('RelatedRecord').implement({
  fields: (t) => ({
    record_id: t.exposeString('record_id'),
    object_type_slug: t.exposeString('object_type_slug'),
    display_name: t.exposeString('display_name'),
  }),
});

const RelationRef = builder.objectRef<RelationView>('Relation').implement({
  description: 'An edge to another record, seen from this record: outgoing when this record references the other.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'The reference field slug, or the link type for graph links.' }),
    source: t.exposeString('source'),
    direction: t.exposeString('direction'),
    record: t.expose('record', { type: RelatedRecordRef }),
  }),
});

export const RecordRef = builder.objectRef<RecordView>('Record').implement({
  description: 'A record of an object type; data is keyed by field slug.',
  fields: (t) => ({
    id: t.exposeString('id'),
    record_id: t.exposeString('record_id'),
    object_type_slug: t.exposeString('object_type_slug'),
    data: t.expose('data', { type: 'JSON' }),
    display_name: t.exposeString('display_name'),
    assignee_id: t.exposeString('assignee_id', { nullable: true }),
    created_by: t.exposeString('created_by', { nullable: true }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
    deleted_at: t.exposeString('deleted_at', { nullable: true }),
    relations: t.field({
      type: [RelationRef],
      description: `Relations in both directions to live records: the first \`limit\` (1 to ${LIMITS.relationsMax}, default ${LIMITS.relationsMax}); relations_total counts them all.`,
      args: { limit: t.arg.int({ defaultValue: LIMITS.relationsMax }) },
      resolve: (r, args, ctx) => ctx.services.records.relations(r.id, args.limit ?? LIMITS.relationsMax),
    }),
    relations_total: t.int({
      description: 'How many relations the record has; relations answers at most its limit of them.',
      resolve: (r, _args, ctx) => ctx.services.records.relationCount(r.id),
    }),
  }),
});

const RecordPageRef = pageType('RecordPage', RecordRef);

builder.queryFields((t) => ({
  records: t.field({
    type: RecordPageRef,
    description: 'A filtered, sorted page of records of one object type.',
    authScopes: { tool: 'records' },
    args: {
      object_type_slug: t.arg.string({ required: true }),
      filters: t.arg({ type: 'JSON' }),
      sort_field: t.arg.string(),
      ascending: t.arg.boolean(),
      page: t.arg.int(),
      page_size: t.arg.int(),
    },
    resolve: (_root, args, ctx) => ctx.services.records.list({
      object_type_slug: args.object_type_slug, filters: args.filters ?? undefined, sort_field: args.sort_field ?? undefined,
      ascending: args.ascending ?? undefined, page: args.page ?? undefined, page_size: args.page_size ?? undefined,
    }),
  }),
  record: t.field({
    type: RecordRef,
    authScopes: { tool: 'records' },
    args: { record_id: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.records.get(args.record_id),
  }),
  searchRecords: t.field({
    type: RecordPageRef,
    description: 'Full-text search over record text; each word matches as a prefix. Records holding every word whole come first, then those with less text, ties by id.',
    authScopes: { tool: 'records' },
    args: {
      query: t.arg.string({ required: true }),
      object_type_slug: t.arg.string(),
      page: t.arg.int(),
      page_size: t.arg.int(),
    },
    resolve: (_root, args, ctx) => ctx.services.records.search({
      query: args.query, object_type_slug: args.object_type_slug ?? undefined,
      page: args.page ?? undefined, page_size: args.page_size ?? undefined,
    }),
  }),
}));

builder.mutationFields((t) => ({
  createRecord: t.field({
    type: RecordRef,
    authScopes: { tool: 'records' },
    args: {
      object_type_slug: t.arg.string({ required: true }),
      data: t.arg({ type: 'JSON', required: true }),
      assignee_id: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.services.records.create({
      object_type_slug: args.object_type_slug, data: args.data, assignee_id: args.assignee_id,
    }),
  }),
  updateRecord: t.field({
    type: RecordRef,
    authScopes: { tool: 'records' },
    args: { record_id: t.arg.string({ required: true }), data: t.arg({ type: 'JSON' }), assignee_id: t.arg.string() },
    resolve: (_root, args, ctx) => ctx.services.records.update({
      record_id: args.record_id, data: args.data ?? undefined, assignee_id: args.assignee_id,
    }),
  }),
  deleteRecord: t.field({
    type: RecordRef,
    authScopes: { tool: 'records' },
    args: { record_id: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.records.delete(args.record_id),
  }),
  restoreRecord: t.field({
    type: RecordRef,
    authScopes: { tool: 'records' },
    args: { record_id: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.records.restore(args.record_id),
  }),
}));
