import type { ToolName } from '../../gateway/tools/names.ts';
import type { DatasetSample, Slug } from './generator.ts';
import { seeded } from './random.ts';
import type { GraphQLRequest, Params } from './styles.ts';

let drawn = 0;

/** What a case's params factory draws from: the dataset's sampled ids and search terms. */
export class Sampler {
  private readonly rnd: () => number;

  constructor(private readonly sample: DatasetSample, seed = 7) {
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
  { tool: 'graph.path', params: (s) => ({ from_record_id: s.id('contacts'), to_record_id: s.id('contacts'), max_depth: 4, limit: 3 }) },
  {
    tool: 'reports.run', scale: true,
    params: () => ({ config: { object_type: 'deals', metric: 'sum', metric_field: 'amount', group_by: 'stage', time_bucket: 'month', chart_type: 'stacked_bar' } }),
  },
  { tool: 'analytics.pipeline', scale: true, params: () => ({}) },
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
