import { beforeAll, describe, expect, it } from 'vitest';
import { CrmError } from '../../../src/domain/errors.ts';
import { CHART_TYPES, METRICS, TIME_BUCKETS, type ChartType, type TimeBucket } from '../../../src/domain/reports/types.ts';
import type { Harness } from './harness.ts';
import { bucketsBetween, expectedRows, fetchDeals, reportFixture, type Expected, type ReportFixture } from './report-data.ts';

const STAGE_OPTIONS = ['lead', 'qualified', 'proposal', 'negotiation', 'won', 'lost'];
const NEEDS_GROUP: readonly ChartType[] = ['funnel', 'pie', 'donut', 'stacked_bar'];
const NEEDS_TIME: readonly ChartType[] = ['line', 'area', 'stacked_bar'];
const NO_TIME: readonly ChartType[] = ['number', 'funnel', 'pie', 'donut'];
const BIG = { field: 'amount', operator: 'gte', value: 1000 };

type Row = { group?: unknown; bucket?: string; value: number | null; count: number };

const close = (actual: number | null | undefined, wanted: number | null, what: string) => {
  if (wanted === null) expect(actual, what).toBeNull();
  else expect(actual, what).toBeCloseTo(wanted, 6);
};

/** Expected rows by key, for a looked-up actual row. */
const keyOf = (row: Row): string => JSON.stringify([row.group ?? null, row.bucket ?? null]);

/**
 * Every metric × time bucket (and none) × chart type on the fixed dataset, run through the report
 * service on the adapter under test, against a reduce over records.list. Combinations a chart does
 * not allow are checked to fail with a validation error naming the parameter.
 */
export function reportMatrixCases(h: Harness): void {
  describe('reports: every metric, bucket and chart against a plain reduce', () => {
    let f: ReportFixture;
    const fetched = new Map<string, Awaited<ReturnType<typeof fetchDeals>>>();
    beforeAll(async () => {
      f = await reportFixture(h);
      fetched.set('all', await fetchDeals(f.services));
      fetched.set('big', await fetchDeals(f.services, { amount: { gte: 1000 } }));
    });

    METRICS.forEach((metric, mi) => {
      for (const bucket of [null, ...TIME_BUCKETS] as Array<TimeBucket | null>) {
        it(`runs ${metric} ${bucket ? `by ${bucket}` : 'without buckets'} for every chart type`, async () => {
          for (const chart of CHART_TYPES) {
            const group = NEEDS_GROUP.includes(chart) ? 'stage' : chart === 'number' ? undefined : [undefined, 'stage', 'hot'][mi % 3];
            const filtered = (mi + (bucket ? 1 : 0)) % 2 === 0;
            const timeField = bucket ? (mi % 2 ? 'close_date' : 'signed_at') : undefined;
            const config = {
              object_type: 'deals', metric, chart_type: chart,
              ...(metric === 'count' && mi === 0 ? {} : { metric_field: 'amount' }),
              ...(group ? { group_by: group } : {}),
              ...(bucket ? { time_bucket: bucket, time_field: timeField } : {}),
              ...(filtered ? { filters: [BIG] } : {}),
            };
            const invalid = (bucket && NO_TIME.includes(chart)) || (!bucket && NEEDS_TIME.includes(chart));
            if (invalid) {
              const failure = await f.services.reports.run({ config }).then(() => undefined, (e: unknown) => e);
              expect(failure, `${chart} ${bucket}`).toBeInstanceOf(CrmError);
              expect((failure as CrmError).details?.param).toBe('config.time_bucket');
              continue;
            }
            const run = await f.services.reports.run({ config });
            const wanted = expectedRows(fetched.get(filtered ? 'big' : 'all')!, { ...config, ...(bucket ? { time_bucket: bucket } : {}) });
            checkRows(run.rows as Row[], wanted, chart, `${metric}/${bucket}/${chart}`);
            checkSeries(run.series, wanted, { chart, metric, bucket, grouped: group !== undefined }, `${metric}/${bucket}/${chart}`);
          }
        });
      }
    });

    it('buckets by created_at when no time_field is named', async () => {
      const run = await f.services.reports.run({ config: { object_type: 'deals', metric: 'count', time_bucket: 'month', chart_type: 'table' } });
      const wanted = expectedRows(fetched.get('all')!, { metric: 'count', time_bucket: 'month', time_field: 'created_at' });
      checkRows(run.rows as Row[], wanted, 'table', 'created_at by month');
    });
  });
}

function checkRows(rows: Row[], wanted: Map<string, Expected>, chart: ChartType, what: string): void {
  if (chart === 'number' && wanted.size === 0) {
    expect(rows, what).toHaveLength(1);
    return;
  }
  expect(rows.map(keyOf).sort(), what).toEqual([...wanted.keys()].sort());
  for (const row of rows) {
    const want = wanted.get(keyOf(row))!;
    expect(row.count, `${what} count ${keyOf(row)}`).toBe(want.count);
    close(row.value, want.value, `${what} value ${keyOf(row)}`);
  }
  const buckets = rows.map((r) => r.bucket ?? '');
  expect(buckets, `${what}: rows ordered by bucket`).toEqual([...buckets].sort());
}

function checkSeries(series: unknown, wanted: Map<string, Expected>, s: { chart: ChartType; metric: string; bucket: TimeBucket | null; grouped: boolean }, what: string): void {
  const all = [...wanted.values()];
  switch (s.chart) {
    case 'number': {
      const one = all[0];
      expect((series as { count: number }).count, what).toBe(one?.count ?? 0);
      close((series as { value: number | null }).value, one ? one.value : (s.metric === 'count' || s.metric === 'sum' ? 0 : null), what);
      return;
    }
    case 'funnel': {
      const stages = series as Array<{ stage: string; count: number; value: number | null; conversion_to_next: number | null }>;
      expect(stages.map((x) => x.stage), what).toEqual(STAGE_OPTIONS);
      stages.forEach((stage, i) => {
        const want = all.find((e) => e.group === stage.stage);
        expect(stage.count, `${what} ${stage.stage}`).toBe(want?.count ?? 0);
        const next = stages[i + 1];
        expect(stage.conversion_to_next, `${what} conversion ${stage.stage}`).toBe(next && stage.count > 0 ? next.count / stage.count : null);
      });
      return;
    }
    case 'pie':
    case 'donut': {
      const slices = series as Array<{ label: unknown; value: number | null; share: number }>;
      const total = all.reduce((n, e) => n + (e.value ?? 0), 0);
      expect(slices.length, what).toBe(all.length);
      for (const slice of slices) {
        const want = all.find((e) => e.group === slice.label)!;
        close(slice.value, want.value, `${what} ${String(slice.label)}`);
        expect(slice.share, `${what} share`).toBeCloseTo(total === 0 ? 0 : (want.value ?? 0) / total, 9);
      }
      return;
    }
    case 'line':
    case 'area':
    case 'stacked_bar': {
      const starts = all.map((e) => e.bucket!).sort();
      const range = starts.length ? bucketsBetween(starts[0]!, starts.at(-1)!, s.bucket!) : [];
      const lines = s.grouped
        ? (series as Array<{ group: unknown; points: Array<{ bucket: string; value: number | null; count: number }> }>)
        : [{ group: undefined, points: series as Array<{ bucket: string; value: number | null; count: number }> }];
      if (s.grouped) expect(lines.length, what).toBe(new Set(all.map((e) => JSON.stringify(e.group))).size);
      for (const line of lines) {
        expect(line.points.map((p) => p.bucket), `${what} buckets`).toEqual(range);
        for (const point of line.points) {
          const want = all.find((e) => e.bucket === point.bucket && (!s.grouped || e.group === line.group));
          expect(point.count, `${what} ${point.bucket}`).toBe(want?.count ?? 0);
          close(point.value, want ? want.value : 0, `${what} ${point.bucket}`);
        }
      }
      return;
    }
    case 'bar':
    case 'table':
      expect((series as Row[]).length, what).toBe(all.length);
  }
}
