import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterNode, SortSpec } from '../../../src/domain/filter-ast.ts';
import type { StoredRecord, Workspace } from '../../../src/domain/types.ts';
import type { Store } from '../../../src/domain/store/port.ts';
import { createSqliteStore } from '../../../src/store/sqlite/index.ts';

/**
 * With more than a couple of thousand matches the adapter reads a page by walking the sort order's
 * index instead of sorting the matches; the small conformance data never gets there. These pages
 * are checked against the same order computed in memory.
 */
const COUNT = 4200;

describe('sqlite pages over many matching records', () => {
  let store: Store;
  let ws: Workspace;
  const all: StoredRecord[] = [];

  beforeAll(async () => {
    store = createSqliteStore({ path: ':memory:' });
    await store.init();
    ws = await store.createWorkspace({
      name: 'large',
      objectTypes: [{
        slug: 'items', name: 'Items', fields: [
          { slug: 'n', name: 'N', type: 'number' },
          { slug: 'flag', name: 'Flag', type: 'checkbox' },
          { slug: 'tags', name: 'Tags', type: 'multi_select', config: { options: ['t0', 't1', 't2'] } },
        ],
      }],
    });
    for (let i = 0; i < COUNT; i++) {
      const data: Record<string, unknown> = { flag: i % 2 === 0, tags: i % 5 === 0 ? [] : [`t${i % 3}`] };
      if (i % 10 !== 0) data.n = (i * 37) % 1000;
      all.push(await store.createRecord(ws.id, { object_type_slug: 'items', data, uniques: [], refs: [], created_by: null, assignee_id: null }));
    }
  });
  afterAll(() => store.close());

  const byId = (a: StoredRecord, b: StoredRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  /** The expected order of a sort on `n`: by value, ties by id, records without `n` last by id. */
  function expectedByN(records: StoredRecord[], ascending: boolean): string[] {
    const sign = ascending ? 1 : -1;
    const withN = records.filter((r) => typeof r.data.n === 'number')
      .sort((a, b) => sign * ((a.data.n as number) - (b.data.n as number) || byId(a, b)));
    const without = records.filter((r) => typeof r.data.n !== 'number').sort((a, b) => sign * byId(a, b));
    return [...withN, ...without].map((r) => r.id);
  }
  const list = async (filter: FilterNode | undefined, sort: SortSpec, offset: number, limit: number) =>
    store.listRecords(ws.id, { object_type_slug: 'items', filter, sort, offset, limit });
  const flagTrue: FilterNode = { kind: 'cmp', field: 'flag', system: false, op: 'eq', value: true, valueKind: 'boolean', multi: false };
  const lacksT1: FilterNode = { kind: 'cmp', field: 'tags', system: false, op: 'ne', value: 't1', valueKind: 'text', multi: true };
  const bySystem = (field: 'created_at' | 'record_id', ascending: boolean): SortSpec => ({ field, system: true, valueKind: 'text', ascending });
  const byN = (ascending: boolean): SortSpec => ({ field: 'n', system: false, valueKind: 'number', ascending });

  it('pages by creation time without a filter', async () => {
    const page = await list(undefined, bySystem('record_id', false), 100, 20);
    expect(page.total).toBe(COUNT);
    expect(page.items.map((r) => r.id)).toEqual([...all].sort(byId).reverse().slice(100, 120).map((r) => r.id));
  });

  it('pages a filter with thousands of matches by a system field', async () => {
    const matching = all.filter((r) => r.data.flag === true);
    const page = await list(flagTrue, bySystem('record_id', true), 2000, 30);
    expect(page.total).toBe(matching.length);
    expect(page.items.map((r) => r.id)).toEqual([...matching].sort(byId).slice(2000, 2030).map((r) => r.id));
  });

  it.each([true, false])('pages a field sort (ascending: %s) into and through the records without a value', async (ascending) => {
    const matching = all.filter((r) => r.data.flag === true);
    const expected = expectedByN(matching, ascending);
    const withN = matching.filter((r) => typeof r.data.n === 'number').length;
    for (const offset of [0, withN - 5, withN + 7, matching.length - 3]) {
      const page = await list(flagTrue, byN(ascending), offset, 10);
      expect(page.items.map((r) => r.id)).toEqual(expected.slice(offset, offset + 10));
      expect(page.total).toBe(matching.length);
    }
  });

  it('pages the complement of a value set, missing values included', async () => {
    const matching = all.filter((r) => !(r.data.tags as string[]).includes('t1'));
    const page = await list(lacksT1, byN(false), 1500, 25);
    expect(page.total).toBe(matching.length);
    expect(page.items.map((r) => r.id)).toEqual(expectedByN(matching, false).slice(1500, 1525));
  });
});
