import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterNode, SortSpec } from '../../../src/domain/filter-ast.ts';
import type { CrmList, ListEntry, Workspace } from '../../../src/domain/types.ts';
import type { Store } from '../../../src/domain/store/port.ts';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';
import { STANDARD_OBJECT_TYPES } from '../../../src/domain/standard-objects.ts';

/**
 * Entries share the record pager (items.ts): past a couple of thousand matches a page is read by
 * walking an index. These pages of a big list are checked against the same order computed in
 * memory, with some records deleted so the liveness test on entries is exercised too.
 */
const COUNT = 2600;

describe('sqlite pages over many list entries', () => {
  let store: Store;
  let ws: Workspace;
  let list: CrmList;
  let live: ListEntry[];

  beforeAll(async () => {
    store = createSqliteStore({ path: ':memory:' });
    await store.init();
    ws = await store.createWorkspace({ name: 'large', objectTypes: structuredClone([...STANDARD_OBJECT_TYPES]) });
    list = await store.createList(ws.id, {
      object_type_slug: 'deals', name: 'Big', created_by: null,
      fields: [{ slug: 'score', name: 'Score', type: 'number' }, { slug: 'hot', name: 'Hot', type: 'checkbox' }],
    }, []);
    const records = Array.from({ length: COUNT }, (_, i) => ({
      id: `rec_${String(i).padStart(26, '0')}`, object_type_slug: 'deals', data: { name: `Deal ${i}` }, uniques: [], refs: [], created_by: null, assignee_id: null,
    }));
    await store.createRecords(ws.id, records);
    const entries = await store.addListEntries(ws.id, list.id, records.map((r, i) => ({
      record_id: r.id, data: { hot: i % 2 === 0, ...(i % 10 === 0 ? {} : { score: (i * 37) % 1000 }) },
    })), null, []);
    for (const r of records.filter((_, i) => i % 13 === 0)) await store.softDeleteRecord(ws.id, r.id);
    live = entries.filter((_, i) => i % 13 !== 0);
  });
  afterAll(() => store.close());

  const byId = (a: ListEntry, b: ListEntry) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const byScore = (entries: ListEntry[], ascending: boolean): string[] => {
    const sign = ascending ? 1 : -1;
    const valued = entries.filter((e) => typeof e.data.score === 'number')
      .sort((a, b) => sign * ((a.data.score as number) - (b.data.score as number) || byId(a, b)));
    return [...valued, ...entries.filter((e) => typeof e.data.score !== 'number').sort((a, b) => sign * byId(a, b))].map((e) => e.id);
  };
  const page = (filter: FilterNode | undefined, sort: SortSpec, offset: number, limit: number) =>
    store.listEntries(ws.id, list.id, { filter, sort, offset, limit });
  const hot: FilterNode = { kind: 'cmp', field: 'hot', system: false, op: 'eq', value: true, valueKind: 'boolean', multi: false };
  const unscored: FilterNode = { kind: 'cmp', field: 'score', system: false, op: 'is_empty', value: null, valueKind: 'number', multi: false };
  const score = (ascending: boolean): SortSpec => ({ field: 'score', system: false, valueKind: 'number', ascending });

  it('pages every live entry by record id, walking the index', async () => {
    const result = await page(undefined, { field: 'record_id', system: true, valueKind: 'text', ascending: false }, 1000, 20);
    expect(result.total).toBe(live.length);
    const expected = [...live].sort((a, b) => (a.record_id < b.record_id ? 1 : -1)).slice(1000, 1020);
    expect(result.items.map((e) => e.id)).toEqual(expected.map((e) => e.id));
  });

  it.each([true, false])('pages a field sort (ascending: %s) of all entries into those without a value', async (ascending) => {
    const expected = byScore(live, ascending);
    for (const offset of [0, 2100, expected.length - 5]) {
      const result = await page(undefined, score(ascending), offset, 10);
      expect(result.total).toBe(live.length);
      expect(result.items.map((e) => e.id)).toEqual(expected.slice(offset, offset + 10));
    }
  });

  it('counts and pages a filter and the complement of one over live entries only', async () => {
    const hotLive = live.filter((e) => e.data.hot === true);
    expect((await page(hot, score(false), 0, 5)).total).toBe(hotLive.length);
    const result = await page(unscored, score(true), 0, 500);
    const expected = live.filter((e) => typeof e.data.score !== 'number');
    expect(result.total).toBe(expected.length);
    expect(result.items.map((e) => e.id)).toEqual(byScore(expected, true));
  });
});
