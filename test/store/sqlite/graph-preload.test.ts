import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import { Connection } from '../../../src/store/sqlite/connection.ts';
import { GraphCache, PRELOAD_STEP } from '../../../src/store/sqlite/graph-cache.ts';
import { graphMethods } from '../../../src/store/sqlite/graph.ts';
import { newRecord } from '../conformance/harness.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * The graph cache's background preload and its record summaries (graph-cache.ts), beyond what the
 * conformance suite sees through one connection: what a preload fills and when it stops, and
 * summaries kept exact when another connection changes a record's data or a field.
 */
describe('the SQLite graph cache preload and summaries', () => {
  let t: TempStore;
  const connections: Connection[] = [];
  afterEach(async () => {
    for (const c of connections.splice(0)) await c.close();
    await t.cleanup();
  });

  function connect(): Connection {
    const c = new Connection(t.path);
    c.open();
    connections.push(c);
    return c;
  }

  /** A workspace of `companies` companies, each with two contacts and a link to the previous company; the last company is deleted. */
  async function workspace(companies: number) {
    const ws = await t.workspace();
    const ids: string[] = [];
    for (let i = 0; i < companies; i++) {
      const company = newId('record');
      await t.store.createRecord(ws.id, newRecord('companies', { name: `Company ${i}` }, { id: company }));
      for (const who of ['a', 'b']) {
        await t.store.createRecord(ws.id, newRecord('contacts', { name: `Person ${i}${who}`, company }, { refs: [{ field: 'company', to_id: company }] }));
      }
      if (ids.length > 0) await t.store.createLink(ws.id, { from_id: company, to_id: ids[ids.length - 1]!, type: 'partner_of', properties: {}, created_by: null }, []);
      ids.push(company);
    }
    await t.store.softDeleteRecord(ws.id, ids[ids.length - 1]!);
    return { ws, companies: ids, live: companies * 3 - 1 };
  }

  const waitFor = async (done: () => boolean, ms = 5000): Promise<void> => {
    const until = Date.now() + ms;
    while (!done() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('fills every live record of a workspace in steps once the workspace is first used, and no deleted one', async () => {
    t = await tempStore();
    const { ws, companies, live } = await workspace(Math.ceil(PRELOAD_STEP / 3) + 10);
    expect(live).toBeGreaterThan(PRELOAD_STEP);
    const cache = new GraphCache(connect(), { preload: true });
    cache.expand(ws.id, [companies[0]!]);
    expect(cache.size(ws.id).records).toBeLessThan(live);
    await waitFor(() => cache.size(ws.id).records >= live);
    expect(cache.size(ws.id).records).toBe(live);
    // The deleted company was never filled: its contacts' edges to it are cached at their end only.
    const deleted = companies[companies.length - 1]!;
    expect(cache.expand(ws.id, [deleted]).edges).toEqual([]);

    // Without the option the cache holds only what was read.
    const plain = new GraphCache(connect());
    plain.expand(ws.id, [companies[0]!]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(plain.size(ws.id).records).toBe(1);
  });

  it('answers from a preloaded cache exactly what SQL answers', async () => {
    t = await tempStore();
    const { ws, companies, live } = await workspace(12);
    const c = connect();
    const cache = new GraphCache(c, { preload: true });
    cache.graph(ws.id);
    await waitFor(() => cache.size(ws.id).records >= live);
    expect(cache.size(ws.id).records).toBe(live);
    // Inside a transaction the store's graph methods read SQL, never a cache.
    const other = connect();
    const sql = graphMethods(other);
    const sorted = <T>(items: T[]) => items.map((x) => JSON.stringify(x)).sort();
    for (const id of companies.slice(0, 11)) {
      const fromSql = other.tx(() => sql.expandGraph(ws.id, [id]));
      const cached = cache.expand(ws.id, [id]);
      expect(sorted(cached.edges)).toEqual(sorted(fromSql.edges));
      expect(sorted(cached.records)).toEqual(sorted(fromSql.records));
    }
    const all = companies.slice(0, 11);
    expect(sorted(cache.among(ws.id, all))).toEqual(sorted(other.tx(() => sql.edgesAmong(ws.id, all))));
  });

  it('stops when its connection closes', async () => {
    t = await tempStore();
    const { ws, companies } = await workspace(80);
    const c = new Connection(t.path);
    c.open();
    const cache = new GraphCache(c, { preload: true });
    cache.expand(ws.id, [companies[0]!]);
    await c.close();
    const held = cache.size(ws.id).records;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cache.size(ws.id).records).toBe(held);
  });

  it('starts over after a bulk write to the workspace, once the writes have settled', async () => {
    t = await tempStore();
    const { ws, companies, live } = await workspace(10);
    const quietMs = 300;
    const cache = new GraphCache(connect(), { preload: true, preloadQuietMs: quietMs });
    cache.graph(ws.id);
    await waitFor(() => cache.size(ws.id).records >= live);
    expect(cache.size(ws.id).records).toBe(live);
    // A bulk write logs '*': the workspace is dropped on the next read, then preloaded again.
    await t.store.createLinks(ws.id, [{ from_id: companies[0]!, to_id: companies[2]!, type: 'supplies', properties: {}, created_by: null }]);
    const dropped = performance.now();
    cache.graph(ws.id);
    expect(cache.size(ws.id).records).toBe(0);
    await waitFor(() => cache.size(ws.id).records >= live);
    expect(cache.size(ws.id).records).toBe(live);
    expect(performance.now() - dropped).toBeGreaterThanOrEqual(quietMs);
    expect(cache.expand(ws.id, [companies[2]!]).edges.filter((e) => e.type === 'supplies')).toHaveLength(1);
  });

  it('waits while bulk writes keep coming (an import), so it does not read the first records again for each', async () => {
    t = await tempStore();
    const { ws, companies, live } = await workspace(10);
    const cache = new GraphCache(connect(), { preload: true, preloadQuietMs: 300 });
    cache.graph(ws.id);
    await waitFor(() => cache.size(ws.id).records >= live);
    // A batch every 50 ms for half a second: each one drops the workspace, and nothing refills it.
    for (let i = 0; i < 10; i++) {
      await t.store.createLinks(ws.id, [{ from_id: companies[i % 9]!, to_id: companies[(i % 9) + 1]!, type: `batch_${i}`, properties: {}, created_by: null }]);
      cache.graph(ws.id);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(cache.size(ws.id).records).toBe(0);
    }
    await waitFor(() => cache.size(ws.id).records >= live);
    expect(cache.size(ws.id).records).toBe(live);
    expect(cache.expand(ws.id, [companies[1]!]).edges.filter((e) => e.type.startsWith('batch_')).map((e) => e.type).sort()).toEqual(['batch_0', 'batch_1', 'batch_9']);
  });

  it('stops when a step of its own reaches a bound, instead of filling the same step again and again', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    // 220 companies, each linked to the next three: a step of 200 reads ~1,200 edge rows for ~220 ids.
    const ids = Array.from({ length: 220 }, () => newId('record'));
    await t.store.createRecords(ws.id, ids.map((id, i) => newRecord('companies', { name: `Company ${i}` }, { id })));
    await t.store.createLinks(ws.id, ids.flatMap((from, i) => [1, 2, 3].filter((d) => i + d < ids.length).map((d) => ({
      from_id: from, to_id: ids[i + d]!, type: 'partner_of', properties: {}, created_by: null,
    }))));
    const c = connect();
    let steps = 0;
    const rows = c.rows.bind(c);
    (c as unknown as { rows: typeof c.rows }).rows = ((sql: string, ...params: never[]) => {
      if (sql.startsWith('SELECT id FROM records WHERE id > ?')) steps++;
      return rows(sql, ...params);
    }) as typeof c.rows;
    // The step's rows pass maxIds, so installing them clears the workspace, which is left under half the bound.
    const cache = new GraphCache(c, { preload: true, maxIds: 1000, preloadQuietMs: 5 });
    cache.graph(ws.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(steps).toBe(1);
    expect(cache.size(ws.id).ids).toBeLessThan(500);
    expect(cache.expand(ws.id, [ids[0]!]).edges).toHaveLength(3);
  });

  it('keeps summaries exact when another connection changes a record or a field', async () => {
    t = await tempStore();
    const { ws, companies } = await workspace(2);
    const cache = new GraphCache(connect());
    const name = () => cache.summaries(ws.id, [companies[0]!])[0]?.display_name;
    expect(name()).toBe('Company 0');
    await t.store.updateRecord(ws.id, companies[0]!, { data: { name: 'Renamed' }, uniques: [], refs: [] });
    expect(name()).toBe('Renamed');

    const raw = t.raw();
    const before = (raw.prepare('SELECT max(seq) AS seq FROM graph_changes').get() as { seq: number }).seq;
    await t.store.addField(ws.id, 'companies', { slug: 'motto', name: 'Motto', type: 'text' });
    expect(raw.prepare('SELECT workspace_id, a, b FROM graph_changes WHERE seq > ?').all(before)).toEqual([{ workspace_id: ws.id, a: '*', b: null }]);
    expect(cache.size(ws.id).ids).toBeGreaterThan(0);
    expect(name()).toBe('Renamed');
    // The '*' dropped the workspace: only what the read above filled again is held.
    expect(cache.size(ws.id).ids).toBe(1);
  });
});
