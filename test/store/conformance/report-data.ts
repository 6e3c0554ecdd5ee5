import type { Actor } from '../../../src/domain/actor.ts';
import { createServices, type Services } from '../../../src/domain/services/context.ts';
import type { TimeBucket } from '../../../src/domain/reports/types.ts';
import { freshWorkspace, newRecord, type Harness } from './harness.ts';

/**
 * A fixed dataset for the report cases, and the test's own arithmetic over it: bucket starts from
 * plain Date math and metrics from a reduce over records fetched through records.list, so no
 * code under test computes an expected value.
 */

/** 'proposal' never occurs, so funnels show an empty stage. */
const STAGES = ['lead', 'qualified', 'negotiation', 'won', 'lost'];
const DAY = 86_400_000;

/** Deal i of the dataset: some values missing on purpose, dates over two years, timestamps near midnight UTC. */
export function dealData(i: number): Record<string, unknown> {
  const data: Record<string, unknown> = { name: `Deal ${i}`, hot: i % 3 === 0 };
  if (i % 7 !== 0) data.amount = ((i * 137) % 5000) + (i % 2 ? 0.25 : 0);
  if (i % 9 !== 0) data.stage = STAGES[i % STAGES.length];
  if (i % 11 !== 0) data.close_date = new Date(Date.UTC(2025, 0, 1) + ((i * 23) % 700) * DAY).toISOString().slice(0, 10);
  data.signed_at = new Date(Date.UTC(2025, 11, 28, 23, 30) + i * 37 * 3_600_000).toISOString();
  return data;
}

export const DEAL_COUNT = 48;

export interface ReportFixture {
  services: Services;
  workspaceId: string;
  userId: string;
}

/** A workspace with the dataset's deals (and the custom fields signed_at and hot), and services acting as its owner. */
export async function reportFixture(h: Harness): Promise<ReportFixture> {
  const ws = await freshWorkspace(h, 'reports');
  const owner = await h.store.createUser({ workspace_id: ws.id, email: `owner-${ws.id.toLowerCase()}@example.com`, name: 'Owner', role: 'owner' });
  await h.store.addField(ws.id, 'deals', { slug: 'signed_at', name: 'Signed at', type: 'timestamp' });
  await h.store.addField(ws.id, 'deals', { slug: 'hot', name: 'Hot', type: 'checkbox' });
  await h.store.createRecords(ws.id, Array.from({ length: DEAL_COUNT }, (_, i) => newRecord('deals', dealData(i))));
  const actor: Actor = {
    workspace_id: ws.id, user_id: owner.id, role: 'owner', key_id: null, scopes: [], via: 'rest', tool: 'conformance', plan: null, trial_ends_at: null,
  };
  return { services: createServices(h.store, actor), workspaceId: ws.id, userId: owner.id };
}

/** Every record of deals passing the records.list filter, page by page. */
export async function fetchDeals(services: Services, filters?: Record<string, unknown>): Promise<Array<Record<string, unknown> & { created_at: string }>> {
  const out: Array<Record<string, unknown> & { created_at: string }> = [];
  for (let page = 1; ; page++) {
    const got = await services.records.list({ object_type_slug: 'deals', page, page_size: 100, ...(filters ? { filters } : {}) });
    out.push(...got.items.map((r) => ({ ...r.data, created_at: r.created_at })));
    if (out.length >= got.total) return out;
  }
}

const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The first day of the UTC bucket holding `value` (a date or a timestamp). */
export function bucketStart(value: string, bucket: TimeBucket): string {
  const d = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  switch (bucket) {
    case 'day': return iso(Date.UTC(y, m, day));
    case 'week': return iso(Date.UTC(y, m, day - ((d.getUTCDay() + 6) % 7)));
    case 'month': return iso(Date.UTC(y, m, 1));
    case 'quarter': return iso(Date.UTC(y, m - (m % 3), 1));
    case 'year': return iso(Date.UTC(y, 0, 1));
  }
}

/** Every bucket start from `first` to `last`, stepping by calendar units. */
export function bucketsBetween(first: string, last: string, bucket: TimeBucket): string[] {
  const out: string[] = [];
  const [y, m, d] = first.split('-').map(Number) as [number, number, number];
  for (let i = 0; ; i++) {
    const at = bucket === 'day' ? Date.UTC(y, m - 1, d + i) : bucket === 'week' ? Date.UTC(y, m - 1, d + 7 * i)
      : bucket === 'month' ? Date.UTC(y, m - 1 + i, 1) : bucket === 'quarter' ? Date.UTC(y, m - 1 + 3 * i, 1) : Date.UTC(y + i, 0, 1);
    const text = iso(at);
    if (text > last) return out;
    out.push(text);
  }
}

export interface Expected {
  group: unknown;
  bucket: string | null;
  value: number | null;
  count: number;
}

/** The report's rows by plain reduce: group value (null when missing), bucket of the time field (records without one left out), metric. */
export function expectedRows(
  records: ReadonlyArray<Record<string, unknown>>,
  spec: { metric: string; metric_field?: string; group_by?: string; time_bucket?: TimeBucket; time_field?: string },
): Map<string, Expected> {
  const groups = new Map<string, { group: unknown; bucket: string | null; values: number[]; count: number }>();
  for (const record of records) {
    const time = spec.time_bucket ? record[spec.time_field ?? 'created_at'] : undefined;
    if (spec.time_bucket && (time === undefined || time === null)) continue;
    const group = spec.group_by ? (record[spec.group_by] ?? null) : undefined;
    const bucket = spec.time_bucket ? bucketStart(String(time), spec.time_bucket) : null;
    const key = JSON.stringify([group ?? null, bucket]);
    const entry = groups.get(key) ?? { group, bucket, values: [], count: 0 };
    entry.count += 1;
    const v = spec.metric_field && spec.metric_field !== '*' ? record[spec.metric_field] : undefined;
    if (v !== undefined && v !== null) entry.values.push(v as number);
    groups.set(key, entry);
  }
  const out = new Map<string, Expected>();
  for (const [key, g] of groups) {
    const measured = spec.metric_field && spec.metric_field !== '*';
    const value = spec.metric === 'count' ? (measured ? g.values.length : g.count)
      : spec.metric === 'sum' ? g.values.reduce((a, b) => a + b, 0)
        : g.values.length === 0 ? null
          : spec.metric === 'avg' ? g.values.reduce((a, b) => a + b, 0) / g.values.length
            : spec.metric === 'min' ? g.values.reduce((a, b) => Math.min(a, b)) : g.values.reduce((a, b) => Math.max(a, b));
    out.set(key, { group: g.group, bucket: g.bucket, value, count: g.count });
  }
  return out;
}
