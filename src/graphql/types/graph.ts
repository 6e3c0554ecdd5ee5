import type { ClassifiedContact, ClassifyResult } from '../../domain/services/classify.ts';
import type { GraphNodeView, GraphView, LinkView, PathView } from '../../domain/services/graph.ts';
import { CATEGORIES, STRENGTHS, type GraphEdge, type Reason } from '../../domain/graph/types.ts';
import { builder } from '../builder.ts';
import { RecordRef } from './record.ts';

/** The relationship graph: walks, paths, links and contact classification. */

const GraphNodeRef = builder.objectRef<GraphNodeView>('GraphNode').implement({
  description: 'A record reached by a walk: its depth, the record it was reached through, and its classification (contacts).',
  fields: (t) => ({
    record_id: t.exposeString('record_id'),
    object_type_slug: t.exposeString('object_type_slug'),
    display_name: t.exposeString('display_name'),
    depth: t.exposeInt('depth'),
    via: t.exposeString('via', { nullable: true }),
    category: t.exposeString('category', { nullable: true }),
    strength: t.exposeString('strength', { nullable: true }),
  }),
});

const GraphEdgeRef = builder.objectRef<GraphEdge>('GraphEdge').implement({
  description: 'A directed edge: origin "field" (type = the record_reference field slug) or "link" (type = the link type).',
  fields: (t) => ({
    source: t.exposeString('source'),
    target: t.exposeString('target'),
    type: t.exposeString('type'),
    origin: t.exposeString('origin'),
  }),
});

const GraphRef = builder.objectRef<GraphView>('Graph').implement({
  fields: (t) => ({
    nodes: t.expose('nodes', { type: [GraphNodeRef] }),
    edges: t.expose('edges', { type: [GraphEdgeRef] }),
    truncated: t.exposeBoolean('truncated'),
  }),
});

const PathRef = builder.objectRef<PathView>('GraphPath').implement({
  fields: (t) => ({
    nodes: t.expose('nodes', { type: [GraphNodeRef] }),
    edges: t.expose('edges', { type: [GraphEdgeRef] }),
    length: t.exposeInt('length'),
    score: t.exposeInt('score'),
  }),
});

const PathsRef = builder.objectRef<{ paths: PathView[]; truncated: boolean }>('GraphPaths').implement({
  fields: (t) => ({
    paths: t.expose('paths', { type: [PathRef] }),
    truncated: t.exposeBoolean('truncated', {
      description: 'True when the search stopped at its bound of records reached before it found a path or reached max_depth: a path may still exist.',
    }),
  }),
});

const LinkRef = builder.objectRef<LinkView>('Link').implement({
  description: 'A typed, directed relation made with graph.link.',
  fields: (t) => ({
    link_id: t.exposeString('link_id'),
    id: t.exposeString('id'),
    from_record_id: t.exposeString('from_record_id'),
    to_record_id: t.exposeString('to_record_id'),
    type: t.exposeString('type'),
    properties: t.expose('properties', { type: 'JSON' }),
    created_at: t.exposeString('created_at'),
  }),
});

const UnlinkedRef = builder.objectRef<{ link_id: string; removed: true }>('Unlinked').implement({
  fields: (t) => ({ link_id: t.exposeString('link_id'), removed: t.exposeBoolean('removed') }),
});

const ReasonRef = builder.objectRef<Reason>('ClassificationReason').implement({
  fields: (t) => ({
    signal: t.exposeString('signal'),
    value: t.exposeFloat('value'),
    contribution: t.exposeFloat('contribution'),
    detail: t.exposeString('detail', { nullable: true }),
  }),
});

const ClassifiedRef = builder.objectRef<ClassifiedContact>('ClassifiedContact').implement({
  fields: (t) => ({
    record_id: t.exposeString('record_id'),
    display_name: t.exposeString('display_name'),
    category: t.exposeString('category'),
    strength: t.exposeString('strength'),
    score: t.exposeInt('score'),
    reasons: t.expose('reasons', { type: [ReasonRef] }),
  }),
});

const countsOf = <K extends string>(name: string, keys: readonly K[]) =>
  builder.objectRef<Record<K, number>>(name).implement({
    fields: (t) => Object.fromEntries(keys.map((k) => [k, t.int({ resolve: (counts) => counts[k] })])),
  });
const CategoryCountsRef = countsOf('CategoryCounts', CATEGORIES);
const StrengthCountsRef = countsOf('StrengthCounts', STRENGTHS);

const ClassifyResultRef = builder.objectRef<ClassifyResult>('ClassifyResult').implement({
  fields: (t) => ({
    items: t.expose('items', { type: [ClassifiedRef] }),
    counts: t.field({
      type: builder.objectRef<ClassifyResult['counts']>('ClassifyCounts').implement({
        fields: (u) => ({
          by_category: u.expose('by_category', { type: CategoryCountsRef }),
          by_strength: u.expose('by_strength', { type: StrengthCountsRef }),
        }),
      }),
      resolve: (r) => r.counts,
    }),
    classified_at: t.exposeString('classified_at'),
  }),
});

builder.objectField(RecordRef, 'neighbors', (t) => t.field({
  type: [GraphNodeRef],
  description: 'Records within `depth` (1-4, default 1) of this one, nearest first, optionally of some object types (comma-separated); at most the 100 nearest (graph.query says whether a walk was cut). Walks of a page of records are batched: one store round trip per level.',
  authScopes: { tool: 'graph' },
  args: { depth: t.arg.int(), types: t.arg.string() },
  resolve: (r, args, ctx) => ctx.services.graph.neighbors(r, { depth: args.depth, types: args.types }),
}));

builder.queryFields((t) => ({
  graph: t.field({
    type: GraphRef,
    description: 'The records and edges within `depth` of a record, breadth-first, nearest first (graph.query).',
    authScopes: { tool: 'graph' },
    args: { record_id: t.arg.string({ required: true }), depth: t.arg.int(), types: t.arg.string(), categories: t.arg.string(), limit: t.arg.int() },
    resolve: (_r, args, ctx) => ctx.services.graph.query(args),
  }),
  path: t.field({
    type: PathsRef,
    description: 'The shortest relationship paths between two records, warmest first (graph.path).',
    authScopes: { tool: 'graph' },
    args: { from_record_id: t.arg.string({ required: true }), to_record_id: t.arg.string({ required: true }), max_depth: t.arg.int(), limit: t.arg.int() },
    resolve: (_r, args, ctx) => ctx.services.graph.path(args),
  }),
}));

builder.mutationFields((t) => ({
  linkRecords: t.field({
    type: LinkRef,
    authScopes: { tool: 'graph' },
    args: {
      from_record_id: t.arg.string({ required: true }), to_record_id: t.arg.string({ required: true }), type: t.arg.string({ required: true }),
      properties: t.arg({ type: 'JSON' }),
    },
    resolve: (_r, args, ctx) => ctx.services.graph.link(args),
  }),
  unlinkRecords: t.field({
    type: UnlinkedRef,
    authScopes: { tool: 'graph' },
    args: { link_id: t.arg.string(), from_record_id: t.arg.string(), to_record_id: t.arg.string(), type: t.arg.string() },
    resolve: (_r, args, ctx) => ctx.services.graph.unlink(args),
  }),
  classifyContacts: t.field({
    type: ClassifyResultRef,
    description: 'Classifies contacts from their graph neighbourhood and, unless persist is false, saves the result (contacts.classify).',
    authScopes: { tool: 'graph' },
    args: { record_ids: t.arg.stringList(), persist: t.arg.boolean() },
    resolve: (_r, args, ctx) => ctx.services.classify.classify(args),
  }),
}));
