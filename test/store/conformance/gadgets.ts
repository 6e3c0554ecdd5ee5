import { expect } from 'vitest';
import type { FilterNode, SortSpec } from '../../../src/domain/filter-ast.ts';
import type { StoredRecord, Workspace } from '../../../src/domain/types.ts';
import type { NewObjectType } from '../../../src/domain/store/port.ts';
import { freshWorkspace, newRecord, NEWEST_FIRST, type Harness } from './harness.ts';

/** An object type with a field of each value kind, and a multi-valued one. */
export const GADGETS: NewObjectType = {
  slug: 'gadgets',
  name: 'Gadgets',
  fields: [
    { slug: 'name', name: 'Name', type: 'text' },
    { slug: 'score', name: 'Score', type: 'number' },
    { slug: 'active', name: 'Active', type: 'checkbox' },
    { slug: 'tags', name: 'Tags', type: 'multi_select', config: { options: ['red', 'blue', 'green'] } },
    { slug: 'due', name: 'Due', type: 'date' },
  ],
};

/**
 * Five gadgets with gaps on purpose: gamma has no `active` and an empty `tags`, delta has no
 * `score` or `due`, epsilon has nothing but a score.
 */
export const GADGET_DATA = {
  alpha: { name: 'Alpha', score: 10, active: true, tags: ['red', 'blue'], due: '2024-01-10' },
  beta: { name: 'beta_50%', score: 20, active: false, tags: ['blue'], due: '2024-03-01' },
  gamma: { name: 'Gamma ray', score: 5, tags: [], due: '2023-12-31' },
  delta: { name: 'DELTA', active: true, tags: ['green'] },
  epsilon: { score: 15 },
} as const;

export type Gadget = keyof typeof GADGET_DATA;

export interface Gadgets {
  ws: Workspace;
  records: Record<Gadget, StoredRecord>;
  /** The labels of the records the filter matches, sorted; checks that the total agrees. */
  match(filter: FilterNode): Promise<Gadget[]>;
  /** The labels ordered by record id, as ties and records without the sort value are. */
  byId(labels: Gadget[], ascending: boolean): Gadget[];
  /** Labels of one page in the store's order, with the total. */
  page(sort: SortSpec, offset?: number, limit?: number, filter?: FilterNode): Promise<{ labels: Gadget[]; total: number }>;
}

/** A fresh workspace holding the gadgets, created in the order of GADGET_DATA. */
export async function gadgets(h: Harness): Promise<Gadgets> {
  const ws = await freshWorkspace(h, 'gadgets');
  await h.store.createObjectType(ws.id, GADGETS);
  const records = {} as Record<Gadget, StoredRecord>;
  for (const [label, data] of Object.entries(GADGET_DATA)) {
    records[label as Gadget] = await h.store.createRecord(ws.id, newRecord('gadgets', structuredClone(data)));
  }
  const labelOf = new Map(Object.entries(records).map(([label, record]) => [record.id, label as Gadget]));
  const page: Gadgets['page'] = async (sort, offset = 0, limit = 100, filter) => {
    const result = await h.store.listRecords(ws.id, { object_type_slug: 'gadgets', filter, sort, offset, limit });
    return { labels: result.items.map((r) => labelOf.get(r.id) ?? (r.id as Gadget)), total: result.total };
  };
  return {
    ws,
    records,
    page,
    byId: (labels, ascending) => [...labels].sort((a, b) => (records[a].id < records[b].id ? -1 : 1) * (ascending ? 1 : -1)),
    match: async (filter) => {
      const { labels, total } = await page(NEWEST_FIRST, 0, 100, filter);
      expect(total).toBe(labels.length);
      return labels.sort();
    },
  };
}
