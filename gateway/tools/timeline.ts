import { z } from 'zod';
import { EVENT_ACTIONS, RESOURCE_TYPES } from '../../src/domain/types.ts';
import { LIMITS } from '../../src/domain/limits.ts';
import { defineTool, given, pick, READ_ONLY } from './define.ts';
import { page, pageSize } from './shapes.ts';

const eventOutput = z.object({
  event_id: z.string(),
  id: z.string(),
  at: z.string(),
  action: z.enum(EVENT_ACTIONS),
  resource_type: z.enum(RESOURCE_TYPES),
  resource_id: z.string(),
  record_ids: z.array(z.string()),
  actor_id: z.string().nullable(),
  key_id: z.string().nullable(),
  via: z.string().nullable(),
  tool: z.string().nullable(),
  diff: z.record(z.string(), z.object({ before: z.unknown().optional(), after: z.unknown().optional() })).nullable(),
});

export const timelineTools = [
  defineTool({
    name: 'timeline.list',
    scope: 'timeline',
    title: 'Read the timeline',
    description: 'Reads the history of changes, newest first: who (user, API key, call style, tool) changed what, when, and the field-level diff. With record_id: one record\'s history, including notes, tasks and list entries on it. With since (an event id, e.g. the "latest" of a previous answer): only newer events, a cheap change feed; when total is more than a page holds, read the older pages with before and since together, then pass latest as the next since. With before (the event_id of the last item of a page): the next, older page, which new events cannot shift the way they shift numbered pages. Example: {"record_id": "rec_…", "page_size": 50}.',
    input: z.strictObject({
      record_id: z.string().min(1).max(LIMITS.idMaxLength).optional().describe('Only events about this record (deleted records keep their history).'),
      since: z.string().max(LIMITS.idMaxLength).optional().describe('An event id; only events after it are returned.'),
      before: z.string().max(LIMITS.idMaxLength).optional().describe('An event id; only events before it (older) are returned. Page on with the last event_id of the previous page and page 1.'),
      page,
      page_size: pageSize,
    }),
    output: z.object({
      items: z.array(eventOutput), total: z.number().int(), page: z.number().int(), page_size: z.number().int(),
      latest: z.string().nullable().describe('The newest event id of the answer\'s events; pass it as since next time, once every page of them is read (a since answer with more than a page: page on with before). Null on a page read with before or past page 1, whose newest event is not the head.'),
    }),
    annotations: READ_ONLY,
    operation: {
      document: `query($record_id: String, $since: String, $before: String, $page: Int, $page_size: Int) {
        timeline(record_id: $record_id, since: $since, before: $before, page: $page, page_size: $page_size) {
          items { event_id id at action resource_type resource_id record_ids actor_id key_id via tool diff } total page page_size latest } }`,
      variables: (i) => given(i),
      result: pick('timeline'),
    },
  }),
];
