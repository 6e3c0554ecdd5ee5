import type { ToolName } from '../../gateway/tools/names.ts';
import { BULK_LISTS, VIEWS, type DatasetSample, type Slug } from './generator.ts';
import { seeded } from './random.ts';
import type { GraphQLRequest, Params } from './styles.ts';

let drawn = 0;
/** Calls of lists.bulk_add_entry so far: its own count, so other writes drawing seq() (records.create in the warm-up pass) never move it towards a repeat. */
let bulkCalls = 0;

/** What a case's params factory draws from: the dataset's sampled ids and search terms. */
export class Sampler {
  private readonly rnd: () => number;

  constructor(readonly sample: DatasetSample, seed = 7) {
    this.rnd = seeded(seed);
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.rnd() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rnd() * items.length)]!;
  }

  /** A live record id of the type, or of any standard type. */
  id(slug?: Slug): string {
    const ids = this.sample.ids;
    return this.pick(ids[slug ?? this.pick(['companies', 'contacts', 'deals'] as const)]);
  }

  term(): string {
    return this.pick(this.sample.searchTerms);
  }

  /** A number never drawn before in this process, for unique values of writes. */
  seq(): number {
    return ++drawn;
  }

  /** One of the sampled values of a work data field of the dataset (lists, views, notes, tasks). */
  some(items: readonly string[] | undefined): string {
    if (!items?.length) throw new Error('the dataset has no work data: regenerate it (GENERATOR_VERSION)');
    return this.pick(items);
  }

  /**
   * Entries for lists.bulk_add_entry that no earlier call added: call n adds the n-th run of 100
   * contacts of the pool to one of the bulk target lists in turn, so the run needs BULK_LISTS ×
   * pool / 100 calls before a pair repeats (then the tool answers conflict, counted as errors).
   */
  bulkEntries(): { list_id: string; entries: Array<{ record_id: string; data: Record<string, unknown> }> } {
    const { bulkListIds = [], bulkPool = [] } = this.sample;
    const n = bulkCalls++;
    const runs = Math.max(1, Math.floor(bulkPool.length / 100));
    const start = (Math.floor(n / BULK_LISTS) % runs) * 100;
    return {
      list_id: this.some(bulkListIds.length ? [bulkListIds[n % bulkListIds.length]!] : []),
      entries: bulkPool.slice(start, start + 100).map((id) => ({ record_id: id, data: { source: 'bench' } })),
    };
  }
}

const BIG_OPEN_DEALS = VIEWS[0];

/** Two different sampled contacts, as graph.path's ends. */
function twoContacts(s: Sampler): { from_record_id: string; to_record_id: string } {
  const from = s.id('contacts');
  let to = s.id('contacts');
  while (to === from) to = s.id('contacts');
  return { from_record_id: from, to_record_id: to };
}

/**
 * One line per benchmarked tool: its params (drawn per call) and, when the catalog's own GraphQL
 * operation is not the right equivalent, the /graphql request. Every case runs over REST, bridge,
 * MCP and /graphql. `scale` cases also run at every dataset size; `writes` cases run last.
 */
export interface BenchCase {
  tool: ToolName;
  /** Tells apart several cases of one tool in the results: `tool[variant]`. */
  variant?: string;
  params: (s: Sampler) => Params;
  graphql?: (params: Params) => GraphQLRequest;
  scale?: boolean;
  writes?: boolean;
}

/** The name a case is reported and selected by. */

export const CASES: BenchCase[] = [
  { tool: 'records.get', scale: true, params: (s) => ({ record_id: s.id() }) },
  {
    tool: 'records.list', scale: true,
    params: (s) => ({
      object_type_slug: 'deals', filters: { stage: { in: ['proposal', 'negotiation'] }, amount: { gte: 10_000 } },
      sort_field: 'amount', ascending: false, page: s.int(1, 4), page_size: 25,
    }),
  },
  // The same list shape on the other field types, so an index that serves only currency + status does not pass for general.
  {
    tool: 'records.list', variant: 'date', scale: true,
    params: (s) => ({ object_type_slug: 'deals', filters: { close_date: { gte: '2026-01-01' } }, sort_field: 'close_date', ascending: true, page: s.int(1, 4), page_size: 25 }),
  },
  {
    tool: 'records.list', variant: 'select+number',
    params: (s) => ({ object_type_slug: 'companies', filters: { industry: 'software' }, sort_field: 'employee_count', ascending: false, page: s.int(1, 4), page_size: 25 }),
  },
  {
    tool: 'records.list', variant: 'text',
    params: (s) => ({ object_type_slug: 'contacts', filters: { job_title: { contains: 'manager' } }, sort_field: 'name', ascending: true, page: s.int(1, 4), page_size: 25 }),
  },
  {
    tool: 'records.list', variant: 'status, unsorted',
    params: (s) => ({ object_type_slug: 'deals', filters: { stage: 'won' }, page: s.int(1, 4), page_size: 25 }),
  },
  { tool: 'records.search', scale: true, params: (s) => ({ query: s.term(), page_size: 25 }) },
  { tool: 'objects.get', params: () => ({ slug: 'deals' }) },
  { tool: 'graph.query', variant: 'd2', scale: true, params: (s) => ({ record_id: s.id(), depth: 2, limit: 100 }) },
  { tool: 'graph.query', variant: 'd3', params: (s) => ({ record_id: s.id(), depth: 3, limit: 500 }) },
  // Two different contacts: the same one twice is a 400 (to_record_id must differ), counted as an error.
  { tool: 'graph.path', params: (s) => ({ ...twoContacts(s), max_depth: 4, limit: 3 }) },
  {
    tool: 'reports.run', scale: true,
    params: () => ({ config: { object_type: 'deals', metric: 'sum', metric_field: 'amount', group_by: 'stage', time_bucket: 'month', chart_type: 'stacked_bar' } }),
  },
  { tool: 'analytics.pipeline', scale: true, params: () => ({}) },
  // Every tool family has a figure: lists, views, notes, tasks and the timeline on the generator's work data.
  {
    tool: 'lists.entries', scale: true,
    params: (s) => ({
      list_id: s.some(s.sample.pipelineListId ? [s.sample.pipelineListId] : []), filters: { stage: { in: ['qualified', 'proposal'] } },
      sort_field: 'forecast', ascending: false, page: s.int(1, 4), page_size: 25,
    }),
  },
  { tool: 'views.get', params: (s) => ({ view_id: s.some(s.sample.viewIds) }) },
  // records.list has no view_id: a caller reads a saved view (views.get) and passes its filters and sort, as here.
  {
    tool: 'records.list', variant: 'view',
    params: (s) => ({
      object_type_slug: BIG_OPEN_DEALS.object_type_slug, filters: structuredClone(BIG_OPEN_DEALS.filters),
      sort_field: BIG_OPEN_DEALS.sorts[0].field, ascending: BIG_OPEN_DEALS.sorts[0].ascending, page: s.int(1, 4), page_size: 25,
    }),
  },
  { tool: 'notes.list', scale: true, params: (s) => ({ record_id: s.some(s.sample.notedIds), page_size: 25 }) },
  { tool: 'notes.list', variant: 'workspace', params: (s) => ({ page: s.int(1, 4), page_size: 25 }) },
  { tool: 'tasks.list', scale: true, params: (s) => ({ assignee_id: s.some(s.sample.taskAssignees), status: ['open', 'in_progress'], page: s.int(1, 4), page_size: 25 }) },
  { tool: 'timeline.list', scale: true, params: (s) => ({ record_id: s.some(s.sample.notedIds), page_size: 25 }) },
  { tool: 'timeline.list', variant: 'workspace', params: (s) => ({ page: s.int(1, 4), page_size: 25 }) },
  { tool: 'lists.bulk_add_entry', writes: true, params: (s) => s.bulkEntries() },
  {
    tool: 'records.create', writes: true,
    params: (s) => {
      const n = s.seq();
      return { object_type_slug: 'contacts', data: { name: `Bench Person ${n}`, email: `bench.${process.pid}.${n}@example.com`, job_title: 'Buyer', company: s.id('companies') } };
    },
  },
];

/** The name of a case in the results: the tool, with its variant when it has one. */
export function caseName(c: BenchCase): string {
  return c.variant ? `${c.tool}[${c.variant}]` : c.tool;
}
