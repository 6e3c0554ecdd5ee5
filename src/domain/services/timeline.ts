import type { Store } from '../store/port.ts';
import type { Actor } from '../actor.ts';
import { validationError } from '../errors.ts';
import { isIdOf } from '../ids.ts';
import type { TimelineEvent } from '../types.ts';
import { requireIdOf } from './inputs.ts';
import { paging } from './records.ts';

export interface EventView extends Omit<TimelineEvent, 'workspace_id'> {
  event_id: string;
}

/**
 * The workspace's history, newest first; `since` (an event id) makes it a change feed, `before`
 * (the last event id of a page) reads the next page without the repeats that new events would
 * cause when paging by number.
 */
export class TimelineService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  async list(input: { record_id?: string; since?: string; before?: string; page?: number; page_size?: number }) {
    const { page, pageSize } = paging(input.page, input.page_size);
    for (const param of ['since', 'before'] as const) {
      const id = input[param];
      if (id !== undefined && !isIdOf('event', id)) {
        throw validationError(param, `${param} must be an event id from a previous answer (evt_…), got ${JSON.stringify(id)}`, { rule: 'format' });
      }
    }
    const { items, total } = await this.store.listEvents(this.actor.workspace_id, {
      ...(input.record_id ? { record_id: requireIdOf('record', input.record_id, 'record_id') } : {}), ...(input.since ? { since: input.since } : {}),
      ...(input.before ? { before: input.before } : {}), offset: (page - 1) * pageSize, limit: pageSize,
    });
    return {
      items: items.map(({ workspace_id: _ws, ...e }) => ({ event_id: e.id, ...e })),
      total, page, page_size: pageSize,
      /**
       * Pass as `since` to get only what happened after this answer. A page read with `before`, or
       * past the first by number, is older history whose newest event is not the feed's head
       * (passed as `since` it would deliver the pages before it again): null there.
       */
      latest: input.before !== undefined || page > 1 ? null : items[0]?.id ?? input.since ?? null,
    };
  }
}
