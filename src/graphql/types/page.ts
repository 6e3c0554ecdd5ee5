import type { ObjectRef } from '@pothos/core';
import { builder } from '../builder.ts';

/** A page of results: the one shape every paginated query answers with. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

export function pageType<T>(name: string, item: ObjectRef<any, T>) {
  return builder.objectRef<Page<T>>(name).implement({
    fields: (t) => ({
      items: t.expose('items', { type: [item] }),
      total: t.exposeInt('total'),
      page: t.exposeInt('page'),
      page_size: t.exposeInt('page_size'),
    }),
  });
}
