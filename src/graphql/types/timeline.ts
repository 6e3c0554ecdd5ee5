import type { EventView } from '../../domain/services/timeline.ts';
import { builder } from '../builder.ts';

/** The timeline: who did what, when, through which key, call style and tool. */

export const EventRef = builder.objectRef<EventView>('TimelineEvent').implement({
  fields: (t) => ({
    event_id: t.exposeString('event_id'),
    id: t.exposeString('id'),
    at: t.exposeString('at'),
    action: t.exposeString('action'),
    resource_type: t.exposeString('resource_type'),
    resource_id: t.exposeString('resource_id'),
    record_ids: t.exposeStringList('record_ids'),
    actor_id: t.exposeString('actor_id', { nullable: true }),
    key_id: t.exposeString('key_id', { nullable: true }),
    via: t.exposeString('via', { nullable: true }),
    tool: t.exposeString('tool', { nullable: true }),
    diff: t.expose('diff', { type: 'JSON', nullable: true }),
  }),
});

type Page = { items: EventView[]; total: number; page: number; page_size: number; latest: string | null };

const EventPageRef = builder.objectRef<Page>('TimelinePage').implement({
  fields: (t) => ({
    items: t.expose('items', { type: [EventRef] }),
    total: t.exposeInt('total'),
    page: t.exposeInt('page'),
    page_size: t.exposeInt('page_size'),
    latest: t.exposeString('latest', { nullable: true, description: 'Pass as `since` to read only newer events, once every page is read. Null on a page read with before or past page 1.' }),
  }),
});

builder.queryFields((t) => ({
  timeline: t.field({
    type: EventPageRef,
    authScopes: { tool: 'timeline' },
    args: { record_id: t.arg.string(), since: t.arg.string(), before: t.arg.string(), page: t.arg.int(), page_size: t.arg.int() },
    resolve: (_r, args, ctx) => ctx.services.timeline.list({
      record_id: args.record_id ?? undefined, since: args.since ?? undefined, before: args.before ?? undefined,
      page: args.page ?? undefined, page_size: args.page_size ?? undefined,
    }),
  }),
}));
