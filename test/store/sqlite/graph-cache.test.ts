import { setFlagsFromString } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import type { GraphEdge } from '../../../src/domain/graph/types.ts';
import { newId } from '../../../src/domain/ids.ts';
import type { RecordSummary, RelatedRecord, Store } from '../../../src/domain/store/port.ts';
import { Connection } from '../../../src/store/sqlite/connection.ts';
import { GraphCache } from '../../../src/store/sqlite/graph-cache.ts';
import { graphMethods } from '../../../src/store/sqlite/graph.ts';
import { recordMethods } from '../../../src/store/sqlite/records.ts';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';
import { newRecord } from '../conformance/harness.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * The in-memory graph cache behind expandGraph, edgesAmong and getRelations (graph-cache.ts)
 * beyond what the conformance suite can see through one connection: writes by another connection
 * or process, a change log trimmed past what a cache has read, and reads inside a transaction.
 */
describe('the SQLite graph cache', () => {
  let t: TempStore;
  const others: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
    await t.cleanup();
  });

  /** A company and three contacts of it, Ann, Ben and Cat (company field edges), in a new workspace. */
  async function people(store: Store) {
    const ws = await t.workspace();
    const id = { Acme: newId('record'), Ann: newId('record'), Ben: newId('record'), Cat: newId('record') };
    await store.createRecord(ws.id, newRecord('companies', { name: 'Acme' }, { id: id.Acme }));
    for (const name of ['Ann', 'Ben', 'Cat'] as const) {
      await store.createRecord(ws.id, newRecord('contacts', { name, company: id.Acme }, { id: id[name], refs: [{ field: 'company', to_id: id.Acme }] }));
    }
    const names = new Map(Object.entries(id).map(([name, recordId]) => [recordId, name]));
    const show = (edges: GraphEdge[]) => edges.map((e) => `${names.get(e.source)}-${e.type}->${names.get(e.target)}`).sort();
    return { ws, id, show };
  }

  const knows = (from: string, to: string) => ({ from_id: from, to_id: to, type: 'knows', properties: {}, created_by: null });

  /** A second store on the same file, as another process would open it. */
  async function otherStore(): Promise<Store> {
    const other = createSqliteStore({ path: t.path });
    await other.init();
    others.push(other);
    return other;
  }

  /** A new store with `people`, a second store on its file and a Connection of its own for the cache under test. */
  async function beside() {
    t = await tempStore();
    const other = await otherStore();
    const { ws, id } = await people(t.store);
    const c = new Connection(t.path);
    c.open();
    others.push(c);
    return { other, ws, id, c };
  }

  it('sees writes made through another connection to the same file, bulk ones too', async () => {
    t = await tempStore();
    const other = await otherStore();
    const { ws, id, show } = await people(t.store);
    const around = async () => show((await t.store.expandGraph(ws.id, [id.Ann])).edges);
    expect(await around()).toEqual(['Ann-company->Acme']);

    const { link } = await other.createLink(ws.id, knows(id.Ann, id.Ben), []);
    expect(await around()).toEqual(['Ann-company->Acme', 'Ann-knows->Ben']);
    await other.softDeleteRecord(ws.id, id.Ben);
    expect(await around()).toEqual(['Ann-company->Acme']);
    await other.restoreRecord(ws.id, id.Ben, []);
    await other.deleteLink(ws.id, link.id, []);
    expect(await around()).toEqual(['Ann-company->Acme']);
    await other.createLinks(ws.id, [knows(id.Ann, id.Cat)]);
    expect(await around()).toEqual(['Ann-company->Acme', 'Ann-knows->Cat']);
    expect(show(await t.store.edgesAmong(ws.id, [id.Ann, id.Ben, id.Cat]))).toEqual(['Ann-knows->Cat']);
  });

  it('reads its change log only after a write, and inside calls once per call begun', async () => {
    const { other, ws, id, c } = await beside();
    const held = new GraphCache(c);
    let logReads = 0;
    const rows = c.rows.bind(c);
    c.rows = ((sql: string, ...params: Parameters<typeof c.rows>[1][]) => {
      if (sql.includes('FROM graph_changes')) logReads++;
      return rows(sql, ...params);
    }) as typeof c.rows;
    const related = () => held.relatedRecords(ws.id, id.Ben)!.map((r) => r.to_id).sort();
    expect(related()).toEqual([id.Acme]);
    const before = logReads;
    for (let i = 0; i < 5; i++) expect(related()).toEqual([id.Acme]);
    expect(logReads).toBe(before);

    // Another connection's commit, then this connection's own write (to another workspace's log).
    await other.createLink(ws.id, knows(id.Ben, id.Cat), []);
    expect(related()).toEqual([id.Acme, id.Cat].sort());
    expect(logReads).toBe(before + 1);
    c.run('INSERT INTO graph_changes (workspace_id, a, b) VALUES (?, ?, NULL)', 'ws_elsewhere', 'rec_elsewhere');
    expect(related()).toEqual([id.Acme, id.Cat].sort());
    expect(logReads).toBe(before + 2);

    // In a call, another connection's commit shows from the next call begun on.
    const first = c.beginCall();
    expect(related()).toEqual([id.Acme, id.Cat].sort());
    await other.createLink(ws.id, knows(id.Ben, id.Ann), []);
    expect(related()).toEqual([id.Acme, id.Cat].sort());
    const second = c.beginCall();
    expect(related()).toEqual([id.Acme, id.Ann, id.Cat].sort());
    expect(logReads).toBe(before + 3);
    second();
    first();
  });

  it('logs a bulk write once for the whole workspace, and never commits the pause mark', async () => {
    t = await tempStore();
    const { ws, id } = await people(t.store);
    const raw = t.raw();
    const before = raw.prepare('SELECT max(seq) AS seq FROM graph_changes').get() as { seq: number };
    await t.store.createLinks(ws.id, [knows(id.Ann, id.Ben), knows(id.Ben, id.Cat), knows(id.Cat, id.Ann)]);
    expect(raw.prepare('SELECT workspace_id, a, b FROM graph_changes WHERE seq > ?').all(before.seq)).toEqual([{ workspace_id: ws.id, a: '*', b: null }]);
    expect(raw.prepare('SELECT count(*) AS n FROM graph_changes_paused').get()).toEqual({ n: 0 });
  });

  it('starts over when the log was trimmed past what it had read', async () => {
    t = await tempStore();
    const other = await otherStore();
    const { ws, id, show } = await people(t.store);
    const { link } = await t.store.createLink(ws.id, knows(id.Ann, id.Ben), []);
    expect(show((await t.store.expandGraph(ws.id, [id.Ann])).edges)).toEqual(['Ann-company->Acme', 'Ann-knows->Ben']);

    await other.deleteLink(ws.id, link.id, []);
    // Another writer's 110,000 entries later, the unlink's own entry is gone from the log.
    t.raw().exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 110000)
      INSERT INTO graph_changes (workspace_id, a, b) SELECT 'ws_elsewhere', 'rec_' || i, NULL FROM n`);
    expect(t.raw().prepare("SELECT count(*) AS n FROM graph_changes WHERE a NOT LIKE 'rec_%'").get()).toEqual({ n: 0 });
    expect(show((await t.store.expandGraph(ws.id, [id.Ann])).edges)).toEqual(['Ann-company->Acme']);
  });

  it('starts a workspace over past its bound on edge ends, or on ids held, and answers the same', async () => {
    t = await tempStore();
    const { ws, id, show } = await people(t.store);
    await t.store.createLinks(ws.id, [knows(id.Ann, id.Ben), knows(id.Ben, id.Cat)]);
    const c = new Connection(t.path);
    c.open();
    others.push(c);
    const aroundAnn = ['Ann-company->Acme', 'Ann-knows->Ben'];
    // Ann has 2 edge ends (Acme, Ben); Ben has 3 (Acme, Cat, Ann); Acme has 3 (Ann, Ben, Cat).
    const byEnds = new GraphCache(c, { maxEnds: 4 });
    expect(show(byEnds.expand(ws.id, [id.Ann]).edges)).toEqual(aroundAnn);
    expect(byEnds.size(ws.id)).toEqual({ records: 1, ends: 2, ids: 3 });
    expect(show(byEnds.expand(ws.id, [id.Ben]).edges)).toEqual(['Ann-knows->Ben', 'Ben-company->Acme', 'Ben-knows->Cat']);
    expect(byEnds.size(ws.id)).toEqual({ records: 1, ends: 3, ids: 4 });

    // A fill that starts the workspace over midway through one expansion: Ann, cached before, is read again for it.
    const midway = new GraphCache(c, { maxEnds: 4 });
    midway.expand(ws.id, [id.Ann]);
    expect(show(midway.expand(ws.id, [id.Ann, id.Ben]).edges)).toEqual(['Ann-company->Acme', 'Ann-knows->Ben', 'Ben-company->Acme', 'Ben-knows->Cat']);
    expect(midway.size(ws.id)).toEqual({ records: 2, ends: 5, ids: 4 });
    expect(show(midway.among(ws.id, [id.Ann, id.Ben, id.Cat]))).toEqual(['Ann-knows->Ben', 'Ben-knows->Cat']);

    const byIds = new GraphCache(c, { maxIds: 4 });
    expect(show(byIds.expand(ws.id, [id.Ann]).edges)).toEqual(aroundAnn);
    expect(show(byIds.expand(ws.id, [id.Acme]).edges)).toEqual(['Ann-company->Acme', 'Ben-company->Acme', 'Cat-company->Acme']);
    expect(byIds.size(ws.id)).toEqual({ records: 1, ends: 3, ids: 4 });
    expect(show(byIds.expand(ws.id, [id.Ann]).edges)).toEqual(aroundAnn);
  });

  it('keeps every record\'s edges exact while its pool grows and is compacted', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    const ids = Array.from({ length: 80 }, () => newId('record'));
    for (const recordId of ids) await t.store.createRecord(ws.id, newRecord('contacts', { name: recordId }, { id: recordId }));
    let seed = 7;
    const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    const pair = () => [ids[next(ids.length)]!, ids[next(ids.length)]!] as const;
    await t.store.createLinks(ws.id, Array.from({ length: 1_500 }, () => pair()).filter(([a, b]) => a !== b).map(([a, b]) => knows(a, b)));
    const c = new Connection(t.path);
    c.open();
    others.push(c);
    const held = new GraphCache(c);
    const edges = (cache: GraphCache, from: readonly string[]) => cache.expand(ws.id, from).edges.map((e) => `${e.source}>${e.target}:${e.type}`).sort();
    const links: { id: string }[] = [];
    let compacted = 0;
    for (let round = 0; round < 60; round++) {
      // Every record's edges through the long-lived cache, one record at a time, then as a set.
      const fresh = new GraphCache(c);
      for (const recordId of ids) expect(edges(held, [recordId])).toEqual(edges(fresh, [recordId]));
      expect(held.among(ws.id, ids).length).toBe(fresh.among(ws.id, ids).length);
      const before = held.poolOf(ws.id);
      // Change the edges of a few records: the cache drops their lists and reads them again into new space.
      for (let i = 0; i < 3; i++) {
        const [a, b] = pair();
        if (a !== b) links.push((await t.store.createLink(ws.id, knows(a, b), [])).link);
      }
      if (round % 2) await t.store.deleteLink(ws.id, links.shift()!.id, []);
      edges(held, ids);
      const after = held.poolOf(ws.id);
      if (after.used < before.used) compacted++;
      // Two numbers per edge end held; the rest of what was handed out is dropped lists'.
      expect(after.used - after.garbage).toBe(2 * held.size(ws.id).ends);
    }
    expect(compacted).toBeGreaterThan(0);
  });

  it('keeps each record\'s relations (getRelations) exact through writes by another connection', async () => {
    const { other, ws, id, c } = await beside();
    const names = new Map(Object.entries(id).map(([name, recordId]) => [recordId, name]));
    const show = (related: RelatedRecord[] | undefined) =>
      related?.map((r) => `${names.get(r.from_id)}-${r.type}->${names.get(r.to_id)} (${r.other.display_name})`);
    const held = new GraphCache(c);
    // What the cache answers, and what a cache that holds nothing answers, must agree at every
    // step, in order; the edges made in one millisecond are ordered by random ids, so the
    // expectations below are sorted.
    const around = (recordId: string) => {
      const answer = held.relatedRecords(ws.id, recordId);
      expect(answer).toEqual(new GraphCache(c).relatedRecords(ws.id, recordId));
      return show(answer)?.sort();
    };
    expect(around(id.Acme)).toEqual(['Ann-company->Acme (Ann)', 'Ben-company->Acme (Ben)', 'Cat-company->Acme (Cat)']);
    expect(held.relationsHeld(ws.id)).toBe(3);

    const { link } = await other.createLink(ws.id, knows(id.Acme, id.Ben), []);
    expect(around(id.Acme)).toEqual(['Acme-knows->Ben (Ben)', 'Ann-company->Acme (Ann)', 'Ben-company->Acme (Ben)', 'Cat-company->Acme (Cat)']);
    await other.updateRecord(ws.id, id.Ben, { data: { name: 'Bea', company: id.Acme }, uniques: [], refs: [{ field: 'company', to_id: id.Acme }] });
    expect(around(id.Acme)).toEqual(['Acme-knows->Ben (Bea)', 'Ann-company->Acme (Ann)', 'Ben-company->Acme (Bea)', 'Cat-company->Acme (Cat)']);
    await other.softDeleteRecord(ws.id, id.Cat);
    expect(around(id.Acme)).toEqual(['Acme-knows->Ben (Bea)', 'Ann-company->Acme (Ann)', 'Ben-company->Acme (Bea)']);
    await other.restoreRecord(ws.id, id.Cat, []);
    await other.updateRecord(ws.id, id.Ann, { data: { name: 'Ann' }, uniques: [], refs: [] });
    expect(around(id.Acme)).toEqual(['Acme-knows->Ben (Bea)', 'Ben-company->Acme (Bea)', 'Cat-company->Acme (Cat)']);
    expect(around(id.Ann)).toEqual([]);
    await other.deleteLink(ws.id, link.id, []);
    await other.createLinks(ws.id, [knows(id.Ann, id.Acme)]);
    expect(around(id.Acme)).toEqual(['Ann-knows->Acme (Ann)', 'Ben-company->Acme (Bea)', 'Cat-company->Acme (Cat)']);
    expect(around(id.Ann)).toEqual(['Ann-knows->Acme (Acme)']);

    // Another workspace's record is none of this workspace's: nothing is answered or kept for it.
    const elsewhere = await t.workspace();
    expect(held.relatedRecords(elsewhere.id, id.Acme)).toBeUndefined();
    expect(held.relationsHeld(elsewhere.id)).toBe(0);
  });

  it('gives every record summary it keeps one hidden class', async () => {
    // Summaries are read on every records.get and serialised into answers: with a class each
    // (a frozen copy of a spread object gets one), each property read of them missed V8's inline
    // caches. V8's own check, %HaveSameMap, decides.
    setFlagsFromString('--allow-natives-syntax');
    const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
    t = await tempStore();
    const { ws, id } = await people(t.store);
    await t.store.createLinks(ws.id, [knows(id.Ann, id.Ben), knows(id.Ann, id.Cat), knows(id.Ben, id.Cat)]);
    const summaries: RecordSummary[] = [];
    for (const recordId of Object.values(id)) for (const r of await t.store.getRelations(ws.id, recordId)) summaries.push(r.other);
    summaries.push(...await t.store.recordSummaries(ws.id, Object.values(id)));
    expect(summaries.length).toBeGreaterThan(10);
    expect(summaries.filter((s) => !sameMap(s, summaries[0]!))).toEqual([]);
    expect(summaries.every((s) => Object.isFrozen(s))).toBe(true);
  });

  it('drops the relations it holds past its bound and answers the same', async () => {
    t = await tempStore();
    const { ws, id } = await people(t.store);
    await t.store.createLinks(ws.id, [knows(id.Ann, id.Ben), knows(id.Ann, id.Cat)]);
    const c = new Connection(t.path);
    c.open();
    others.push(c);
    const small = new GraphCache(c, { maxRelations: 4 });
    const roomy = new GraphCache(c);
    for (const recordId of [id.Acme, id.Ann, id.Acme, id.Ben, id.Ann]) {
      expect(small.relatedRecords(ws.id, recordId)).toEqual(roomy.relatedRecords(ws.id, recordId));
      expect(small.relationsHeld(ws.id)).toBeLessThanOrEqual(4);
    }
    // Each ask above pushed out the record asked before it: Ann's 3 are what is left.
    expect(small.relationsHeld(ws.id)).toBe(3);
    expect(roomy.relationsHeld(ws.id)).toBe(3 + 3 + 2);
    // A record with more relations than the bound is answered and never kept, and drops nothing.
    const tiny = new GraphCache(c, { maxRelations: 2 });
    expect(tiny.relatedRecords(ws.id, id.Ben)).toEqual(roomy.relatedRecords(ws.id, id.Ben));
    expect(tiny.relatedRecords(ws.id, id.Acme)).toEqual(roomy.relatedRecords(ws.id, id.Acme));
    expect(tiny.relationsHeld(ws.id)).toBe(2);
  });

  it('reads SQL inside a transaction and keeps nothing of one rolled back', async () => {
    t = await tempStore();
    const { ws, id, show } = await people(t.store);
    const c = new Connection(t.path);
    c.open();
    others.push(c);
    const graph = graphMethods(c);
    const records = recordMethods(c);
    const related = () => records.getRelations(ws.id, id.Ann).map((r) => r.other.display_name);
    expect(show(graph.expandGraph(ws.id, [id.Ann]).edges)).toEqual(['Ann-company->Acme']);
    expect(related()).toEqual(['Acme']);
    expect(() => c.tx(() => {
      c.run(
        `INSERT INTO relations (workspace_id, type, source, from_id, from_object, to_id, to_object, created_at)
         VALUES (?, 'knows', 'link', ?, 'contacts', ?, 'contacts', '2026-01-01T00:00:00.000Z')`,
        ws.id, id.Ann, id.Cat,
      );
      expect(show(graph.expandGraph(ws.id, [id.Ann]).edges)).toEqual(['Ann-company->Acme', 'Ann-knows->Cat']);
      expect(related()).toEqual(['Cat', 'Acme']); // in creation order: the row above is dated earlier
      throw new Error('roll back');
    })).toThrow('roll back');
    expect(show(graph.expandGraph(ws.id, [id.Ann]).edges)).toEqual(['Ann-company->Acme']);
    expect(show(graph.edgesAmong(ws.id, [id.Ann, id.Cat]))).toEqual([]);
    expect(related()).toEqual(['Acme']);
  });
});
