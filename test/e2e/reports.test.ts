import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, startHarness, STYLES, type Harness, type Style, type Workspace } from './harness.ts';

/**
 * Reports and analytics over all three call styles with the same expectations: saving, running and
 * deleting reports, every config check as a 400 naming its parameter, scopes, roles and the
 * workspace boundary, and the pipeline and summary numbers on a small known dataset.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const BY_STAGE = { object_type: 'deals', metric: 'sum', metric_field: 'amount', group_by: 'stage', chart_type: 'bar' };

/** Each bad config and the parameter its 400 names (with the suggestion, when one is offered). */
const INVALID: ReadonlyArray<readonly [string, Record<string, unknown>, string, string?]> = [
  ['an unknown object type', { ...BY_STAGE, object_type: 'deal' }, 'config.object_type', 'deals'],
  ['a metric not in the list', { ...BY_STAGE, metric: 'median' }, 'config.metric'],
  ['sum without a metric_field', { object_type: 'deals', metric: 'sum', chart_type: 'number' }, 'config.metric_field'],
  ['avg over a text field', { ...BY_STAGE, metric: 'avg', metric_field: 'name' }, 'config.metric_field'],
  ['an unknown metric_field', { ...BY_STAGE, metric_field: 'amont' }, 'config.metric_field', 'amount'],
  ['an unknown group_by field', { ...BY_STAGE, group_by: 'stag' }, 'config.group_by', 'stage'],
  ['an unknown filter field', { ...BY_STAGE, filters: [{ field: 'amont', operator: 'gt', value: 1 }] }, 'config.filters[0].field', 'amount'],
  ['an operator the field type does not support', { ...BY_STAGE, filters: [{ field: 'amount', operator: 'gt', value: 1 }, { field: 'stage', operator: 'gt', value: 'won' }] }, 'config.filters[1].operator'],
  ['an unknown operator', { ...BY_STAGE, filters: [{ field: 'amount', operator: 'gtt', value: 1 }] }, 'config.filters[0].operator', 'gt'],
  ['a filter value of the wrong type', { ...BY_STAGE, filters: [{ field: 'amount', operator: 'gte', value: 'lots' }] }, 'config.filters[0].value'],
  ['a funnel without a group_by', { object_type: 'deals', metric: 'count', chart_type: 'funnel' }, 'config.group_by'],
  ['a funnel grouped by a text field', { object_type: 'deals', metric: 'count', group_by: 'name', chart_type: 'funnel' }, 'config.group_by'],
  ['a stacked_bar without a time_bucket', { ...BY_STAGE, chart_type: 'stacked_bar' }, 'config.time_bucket'],
  ['a stacked_bar without a second grouping', { object_type: 'deals', metric: 'count', time_bucket: 'month', chart_type: 'stacked_bar' }, 'config.group_by'],
  ['a line without a time_bucket', { object_type: 'deals', metric: 'count', chart_type: 'line' }, 'config.time_bucket'],
  ['a time_bucket on a non-date field', { object_type: 'deals', metric: 'count', time_bucket: 'month', time_field: 'amount', chart_type: 'line' }, 'config.time_field'],
  ['an unknown time_bucket', { object_type: 'deals', metric: 'count', time_bucket: 'fortnight', chart_type: 'line' }, 'config.time_bucket'],
  ['an unknown chart_type', { ...BY_STAGE, chart_type: 'radar' }, 'config.chart_type'],
];

describe.each(STYLES)('reports and analytics over %s', (style: Style) => {
  const call = (tool: string, params: unknown, key: string = h.ws.owner.key) => callTool(h, style, key, tool, params);
  const ok = async (tool: string, params: unknown, key?: string) => {
    const out = await call(tool, params, key);
    if (!out.ok) throw new Error(`${tool} failed: ${out.status} ${out.code} ${out.message}`);
    return out.result;
  };

  /** A workspace of its own with four deals, so the numbers are known. */
  async function dealsWorkspace(): Promise<Workspace> {
    const ws = await h.newWorkspace();
    for (const [name, stage, amount] of [['A', 'lead', 100], ['B', 'lead', 300], ['C', 'won', 1000], ['D', null, 50]] as const) {
      await ok('records.create', { object_type_slug: 'deals', data: { name, amount, ...(stage ? { stage } : {}) } }, ws.owner.key);
    }
    return ws;
  }

  it('saves, reads, lists, runs and deletes a report, each change on the timeline', async () => {
    const ws = await dealsWorkspace();
    const key = ws.owner.key;
    const report = await ok('reports.create', { name: `By stage ${style}`, config: BY_STAGE }, key);
    expect(report).toMatchObject({ report_id: report.id, name: `By stage ${style}`, config: { ...BY_STAGE, time_bucket: null, filters: [] } });
    expect(report.id).toMatch(/^rpt_/);
    expect(await ok('reports.get', { report_id: report.id }, key)).toEqual(report);
    expect(await ok('reports.list', { page_size: 10 }, key)).toMatchObject({ total: 1, page: 1, items: [{ report_id: report.id }] });

    const run = await ok('reports.run', { report_id: report.id }, key);
    expect(run).toMatchObject({ report_id: report.id, chart_type: 'bar' });
    expect(run.rows).toEqual([
      { group: 'lead', value: 400, count: 2 }, { group: 'won', value: 1000, count: 1 }, { group: null, value: 50, count: 1 },
    ]);
    expect(run.series).toEqual(run.rows);

    await ok('reports.delete', { report_id: report.id }, key);
    expect(await call('reports.get', { report_id: report.id }, key)).toMatchObject({ ok: false, status: 404, code: 'not_found' });
    expect((await ok('reports.list', {}, key)).total).toBe(0);
    const feed = await ok('timeline.list', { page_size: 100 }, key);
    const about = feed.items.filter((e: { resource_id: string }) => e.resource_id === report.id);
    expect(about.map((e: { action: string; resource_type: string; tool: string }) => `${e.action} ${e.resource_type} ${e.tool}`))
      .toEqual(['delete report reports.delete', 'create report reports.create']);
  });

  it('runs an inline config without saving it, shaped for the chart', async () => {
    const ws = await dealsWorkspace();
    const key = ws.owner.key;
    const total = await ok('reports.run', { config: { object_type: 'deals', metric: 'sum', metric_field: 'amount', chart_type: 'number' } }, key);
    expect(total).not.toHaveProperty('report_id');
    expect(total.series).toEqual({ value: 1450, count: 4 });
    const funnel = await ok('reports.run', { config: { object_type: 'deals', metric: 'count', group_by: 'stage', chart_type: 'funnel' } }, key);
    expect(funnel.series.map((s: { stage: string; count: number }) => [s.stage, s.count])).toEqual([
      ['lead', 2], ['qualified', 0], ['proposal', 0], ['negotiation', 0], ['won', 1], ['lost', 0],
    ]);
    expect(funnel.series[0].conversion_to_next).toBe(0);
    const pie = await ok('reports.run', { config: { ...BY_STAGE, chart_type: 'pie', filters: [{ field: 'amount', operator: 'gte', value: 100 }] } }, key);
    expect(pie.series).toEqual([{ label: 'lead', value: 400, share: 400 / 1400 }, { label: 'won', value: 1000, share: 1000 / 1400 }]);
    const line = await ok('reports.run', { config: { object_type: 'deals', metric: 'count', time_bucket: 'year', chart_type: 'line' } }, key);
    expect(line.series).toEqual([{ bucket: `${new Date().getUTCFullYear()}-01-01`, value: 4, count: 4 }]);
    expect((await ok('reports.list', {}, key)).total).toBe(0);
  });

  it.each(INVALID)('refuses %s with a 400 naming the parameter', async (_what, config, param, suggestion) => {
    const saved = await call('reports.create', { name: 'Bad', config });
    expect(saved).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param } });
    if (suggestion) expect(saved.ok || saved.details.suggestion).toBe(suggestion);
    expect(await call('reports.run', { config })).toMatchObject({ ok: false, status: 400, details: { param } });
  });

  it('answers sums and averages of decimals without floating-point noise', async () => {
    const tag = `Cents ${style} ${Date.now()}`;
    for (const amount of [0.1, 0.2]) await ok('records.create', { object_type_slug: 'deals', data: { name: `${tag} ${amount}`, amount } });
    const run = async (metric: string) => (await ok('reports.run', {
      config: { object_type: 'deals', metric, metric_field: 'amount', chart_type: 'number', filters: [{ field: 'name', operator: 'starts_with', value: tag }] },
    })).series.value;
    expect([await run('sum'), await run('avg')]).toEqual([0.3, 0.15]);
  });

  it('refuses a grouped series of more points than it answers, before building it', async () => {
    // 21 groups, each with a record on the first and the last day of 4,992: over 100,000 points by day.
    const ws = await h.newWorkspace();
    await ok('objects.create', { slug: 'evts', name: 'Events', fields: [{ slug: 'grp', name: 'Group', type: 'text' }, { slug: 'day', name: 'Day', type: 'date' }] }, ws.owner.key);
    const base = { object_type_slug: 'evts', uniques: [], refs: [], created_by: ws.owner.user_id, assignee_id: ws.owner.user_id };
    await h.server.store.createRecords(ws.id, Array.from({ length: 21 }, (_, g) => ['2012-01-02', '2025-09-01'].map((day) => ({ ...base, data: { grp: `g${g}`, day } }))).flat());
    const config = { object_type: 'evts', metric: 'count', group_by: 'grp', time_bucket: 'day', time_field: 'day', chart_type: 'stacked_bar' };
    expect(await call('reports.run', { config }, ws.owner.key)).toMatchObject({
      ok: false, status: 400, code: 'validation_error',
      details: { param: 'config.time_bucket', rule: 'too_many_points', max: 100_000, groups: 21, buckets: 4992 },
    });
    const monthly = await ok('reports.run', { config: { ...config, time_bucket: 'month', chart_type: 'line' } }, ws.owner.key);
    expect(monthly.series).toHaveLength(21);
    expect(monthly.series[0].points).toHaveLength(165);
    expect(monthly.series[0].points.reduce((n: number, p: { count: number }) => n + p.count, 0)).toBe(2);
  });

  it('refuses a run with both or neither of report_id and config, and a report without a name', async () => {
    const neither = await call('reports.run', {});
    expect(neither).toMatchObject({ ok: false, status: 400, details: { param: 'report_id', rule: 'required' } });
    expect(neither.ok || neither.message).toBe('give report_id (a saved report) or config (an inline report); neither was given');
    expect(await call('reports.run', { report_id: 'rpt_x', config: BY_STAGE })).toMatchObject({ ok: false, status: 400, details: { param: 'config' } });
    expect(await call('reports.create', { config: BY_STAGE })).toMatchObject({ ok: false, status: 400, details: { param: 'name' } });
  });

  it('refuses a key without the reports or analytics scope with 403', async () => {
    expect(await call('reports.create', { name: 'x', config: BY_STAGE }, h.ws.recordsOnly)).toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
    expect(await call('reports.list', {}, h.ws.recordsOnly)).toMatchObject({ ok: false, status: 403 });
    expect(await call('analytics.summary', {}, h.ws.recordsOnly)).toMatchObject({ ok: false, status: 403 });
    const reportsOnly = await h.keyFor(h.ws, h.ws.owner.user_id, ['reports']);
    expect(await call('analytics.pipeline', {}, reportsOnly)).toMatchObject({ ok: false, status: 403 });
    expect((await call('reports.list', {}, reportsOnly)).ok).toBe(true);
  });

  it('names an archived field as archived in reports and analytics, and says when no field would do', async () => {
    const ws = await dealsWorkspace();
    const key = ws.owner.key;
    await ok('objects.update_field', { slug: 'deals', field_slug: 'amount', archived: true }, key);
    for (const [tool, params, param] of [
      ['reports.run', { config: BY_STAGE }, 'config.metric_field'],
      ['reports.run', { config: { ...BY_STAGE, metric: 'count', metric_field: undefined, filters: [{ field: 'amount', operator: 'gt', value: 1 }] } }, 'config.filters[0].field'],
      ['analytics.pipeline', { value_field: 'amount' }, 'value_field'],
    ] as const) {
      expect(await call(tool, params, key), `${tool} ${param}`).toMatchObject({ ok: false, status: 400, details: { param, rule: 'archived_field' } });
    }
    await ok('objects.update_field', { slug: 'deals', field_slug: 'stage', archived: true }, key);
    const none = await call('analytics.pipeline', { stage_field: 'closed' }, key);
    expect(none).toMatchObject({ ok: false, status: 400, details: { param: 'stage_field', allowed: [] } });
    expect(none.ok || none.message).toMatch(/none is available$/);
  });

  it('lets members save reports and delete only their own', async () => {
    const mine = await ok('reports.create', { name: 'Mine', config: BY_STAGE }, h.ws.member.key);
    expect(await call('reports.delete', { report_id: mine.id }, h.ws.member2.key)).toMatchObject({ ok: false, status: 403, code: 'permission_denied' });
    expect((await ok('reports.run', { report_id: mine.id }, h.ws.member2.key)).report_id).toBe(mine.id);
    await ok('reports.delete', { report_id: mine.id }, h.ws.member.key);
    const theirs = await ok('reports.create', { name: 'Theirs', config: BY_STAGE }, h.ws.member.key);
    await ok('reports.delete', { report_id: theirs.id }, h.ws.admin.key);
  });

  it("keeps another workspace's reports out of reach", async () => {
    const secret = await ok('reports.create', { name: 'Secret report', config: BY_STAGE }, h.other.owner.key);
    for (const tool of ['reports.get', 'reports.run', 'reports.delete']) {
      expect(await call(tool, { report_id: secret.id })).toMatchObject({ ok: false, status: 404, code: 'not_found' });
    }
    expect(JSON.stringify(await ok('reports.list', { page_size: 100 }))).not.toContain('Secret report');
    expect(await ok('reports.get', { report_id: secret.id }, h.other.owner.key)).toMatchObject({ name: 'Secret report' });
  });

  it('counts the deal pipeline by stage in option order, empty stages included', async () => {
    const ws = await dealsWorkspace();
    const out = await ok('analytics.pipeline', {}, ws.owner.key);
    expect(out.stages.map((s: { stage: string; count: number; value: number }) => [s.stage, s.count, s.value])).toEqual([
      ['lead', 2, 400], ['qualified', 0, 0], ['proposal', 0, 0], ['negotiation', 0, 0], ['won', 1, 1000], ['lost', 0, 0],
    ]);
    expect(out.stages.map((s: { conversion_to_next: number | null }) => s.conversion_to_next)).toEqual([0, null, null, null, 0, null]);
    expect(out).toMatchObject({ total_count: 3, total_value: 1400 });
    expect(await call('analytics.pipeline', { stage_field: 'stag' }, ws.owner.key)).toMatchObject({ ok: false, status: 400, details: { param: 'stage_field', suggestion: 'stage' } });
    expect(await call('analytics.pipeline', { value_field: 'name' }, ws.owner.key)).toMatchObject({ ok: false, status: 400, details: { param: 'value_field' } });
  });

  it('keeps records on a stage the field retired in the pipeline and the funnel, after the offered stages', async () => {
    const ws = await dealsWorkspace();
    const key = ws.owner.key;
    await ok('objects.update_field', { slug: 'deals', field_slug: 'stage', options: ['qualified', 'won', 'lost'] }, key);
    const out = await ok('analytics.pipeline', {}, key);
    expect(out.stages.map((s: { stage: string; count: number; retired: boolean; conversion_to_next: number | null }) => [s.stage, s.count, s.retired, s.conversion_to_next])).toEqual([
      ['qualified', 0, false, null], ['won', 1, false, 0], ['lost', 0, false, null], ['lead', 2, true, null],
    ]);
    expect(out).toMatchObject({ total_count: 3, total_value: 1400 });
    const funnel = await ok('reports.run', { config: { object_type: 'deals', metric: 'count', group_by: 'stage', chart_type: 'funnel' } }, key);
    expect(funnel.series.map((s: { stage: string; count: number; retired: boolean }) => [s.stage, s.count, s.retired])).toEqual([
      ['qualified', 0, false], ['won', 1, false], ['lost', 0, false], ['lead', 2, true],
    ]);
  });

  it("counts a list's pipeline by the list's own status field", async () => {
    const ws = await dealsWorkspace();
    const key = ws.owner.key;
    const list = await ok('lists.create', {
      object_type_slug: 'deals', name: 'Board', fields: [{ slug: 'phase', name: 'Phase', type: 'status', options: ['new', 'active', 'closed'] }],
    }, key);
    const deals = (await ok('records.list', { object_type_slug: 'deals', sort_field: 'name' }, key)).items;
    await ok('lists.bulk_add_entry', {
      list_id: list.id, entries: [{ record_id: deals[0].id, data: { phase: 'new' } }, { record_id: deals[1].id, data: { phase: 'active' } }, { record_id: deals[2].id, data: { phase: 'active' } }],
    }, key);
    const out = await ok('analytics.pipeline', { list_id: list.id }, key);
    expect(out.stages).toEqual([
      { stage: 'new', count: 1, value: 100, retired: false, conversion_to_next: 2 },
      { stage: 'active', count: 2, value: 1300, retired: false, conversion_to_next: 0 },
      { stage: 'closed', count: 0, value: 0, retired: false, conversion_to_next: null },
    ]);
    expect(await call('analytics.pipeline', { list_id: list.id }, h.other.owner.key)).toMatchObject({ ok: false, status: 404 });
    // A list without a status field: the parameter to give is stage_field, as for an object type.
    const plain = await ok('lists.create', { object_type_slug: 'deals', name: 'Tags', fields: [{ slug: 'tag', name: 'Tag', type: 'select', options: ['a', 'b'] }] }, key);
    const refused = await call('analytics.pipeline', { list_id: plain.id }, key);
    expect(refused).toMatchObject({ ok: false, status: 400, code: 'validation_error', details: { param: 'stage_field', rule: 'required' } });
    expect(refused.ok || refused.message).toBe(`list ${plain.id} has no status field; name one with stage_field`);
  });

  it('summarises records, tasks, notes, emails, meetings held and messages', async () => {
    const ws = await dealsWorkspace();
    const key = ws.owner.key;
    await ok('tasks.create', { title: 'Late', due_at: '2020-01-01T00:00:00Z' }, key);
    await ok('tasks.create', { title: 'Later', due_at: '2999-01-01' }, key);
    await ok('notes.create', { title: 'Hello' }, key);
    await ok('email.send', { to: 'a@example.com', subject: 'One', body: 'x' }, key);
    await ok('email.send', { to: 'b@example.com', subject: 'Two', body: 'x' }, key);
    await ok('messages.send', { channel: 'internal', body: 'x' }, key);
    const meeting = (title: string, startsAt: number) => ok('meetings.create', {
      title, starts_at: new Date(startsAt).toISOString(), ends_at: new Date(startsAt + 3_600_000).toISOString(),
    }, key);
    const day = 86_400_000;
    await meeting('Held last week', Date.now() - 7 * day);
    await meeting('Held two months ago', Date.now() - 60 * day);
    await meeting('Still to come', Date.now() + 7 * day);
    const out = await ok('analytics.summary', {}, key);
    expect(out.records).toEqual({ total: 4, created_last_7_days: 4, created_last_30_days: 4 });
    expect(out.object_types.find((t: { object_type_slug: string }) => t.object_type_slug === 'deals')).toEqual({
      object_type_slug: 'deals', records: 4, created_last_7_days: 4, created_last_30_days: 4,
    });
    expect(out.tasks).toEqual({ open: 2, overdue: 1 });
    expect(out.activity_last_30_days).toEqual({ notes: 1, emails: 2, meetings: 1, messages: 1 });
  });
});
