import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterNode } from '../../../src/domain/filter-ast.ts';
import { Connection } from '../../../src/store/sqlite/connection.ts';
import { pageItems } from '../../../src/store/sqlite/item-pages.ts';
import { RECORDS } from '../../../src/store/sqlite/items.ts';
import { requireObjectType } from '../../../src/store/sqlite/object-types.ts';
import type { RecordRow } from '../../../src/store/sqlite/rows.ts';
import { FILTER_CASES } from '../conformance/filters.cases.ts';
import { gadgets, type Gadgets } from '../conformance/gadgets.ts';
import { NEWEST_FIRST, sortBy } from '../conformance/harness.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/**
 * Pages with many matches test each walked record against the filter instead of reading the
 * filter's set of matches. Forcing that path on the gadgets (threshold 0) must give the answers
 * the filter suite expects, page order included.
 */
describe('sqlite pages read by walking the sort order', () => {
  let t: TempStore;
  let g: Gadgets;
  let c: Connection;
  let typePk: number;

  beforeAll(async () => {
    t = await tempStore();
    g = await gadgets({ adapter: 'sqlite', store: t.store });
    c = new Connection(t.path);
    c.open();
    typePk = requireObjectType(c, g.ws.id, 'gadgets').pk;
  });
  afterAll(async () => {
    await c.close();
    await t.cleanup();
  });

  const labelsOf = (rows: RecordRow[]) => rows.map((row) => Object.entries(g.records).find(([, r]) => r.id === row.id)![0]);

  it.each(FILTER_CASES)('matches as the filter suite expects when walked: $title', ({ filter, expected }) => {
    const walked = pageItems<RecordRow>(c, RECORDS, typePk, { filter, sort: NEWEST_FIRST, offset: 0, limit: 100 }, 0);
    expect(labelsOf(walked.rows).sort()).toEqual(expected);
    expect(walked.total).toBe(expected.length);
  });

  it.each(FILTER_CASES)('walks a field sort in the same order as the sorted set: $title', ({ filter }) => {
    const score = sortBy('score', true, 'number');
    const due = sortBy('due', false);
    for (const sort of [score, { ...score, multi: false }, due, { ...due, multi: false }, sortBy('tags', true)]) {
      const query = { filter, sort, offset: 0, limit: 100 };
      const walked = pageItems<RecordRow>(c, RECORDS, typePk, query, 0);
      const sorted = pageItems<RecordRow>(c, RECORDS, typePk, query, Number.POSITIVE_INFINITY);
      expect(labelsOf(walked.rows)).toEqual(labelsOf(sorted.rows));
    }
  });

  it('narrows the walk to the range of the sort field the filter admits, in both directions', () => {
    const atLeast10 = { kind: 'cmp', field: 'score', system: false, op: 'gte', value: 10, valueKind: 'number', multi: false } as const;
    for (const ascending of [true, false]) {
      // Marked single-valued, the range alone tests the comparison; unmarked, it is tested again per item.
      for (const multi of [undefined, false]) {
        const query = { filter: atLeast10, sort: { ...sortBy('score', ascending, 'number'), multi }, offset: 1, limit: 2 };
        const walked = pageItems<RecordRow>(c, RECORDS, typePk, query, 0);
        expect(labelsOf(walked.rows)).toEqual(ascending ? ['epsilon', 'beta'] : ['epsilon', 'alpha']);
        expect(walked.total).toBe(3);
      }
    }
  });

  it('keeps items lacking the sort value out of a page once the range has replaced the comparison', () => {
    // Ten past the three that have a score >= 10: the page must stop there, not continue with
    // the items that have no score at all (the comparison left the per-item test, not the filter).
    const atLeast10 = { kind: 'cmp', field: 'score', system: false, op: 'gte', value: 10, valueKind: 'number', multi: false } as const;
    const query = { filter: atLeast10, sort: { ...sortBy('score', true, 'number'), multi: false }, offset: 0, limit: 10 };
    expect(labelsOf(pageItems<RecordRow>(c, RECORDS, typePk, query, 0).rows)).toEqual(['alpha', 'epsilon', 'beta']);
  });

  /** Two of the five gadgets, by a field other than the sort's. */
  const named: FilterNode = { kind: 'cmp', field: 'name', system: false, op: 'in', value: ['Alpha', 'DELTA'], valueKind: 'text', multi: false };
  const byScore = { ...sortBy('score', false, 'number'), multi: false };

  /** The statements `read` runs through the connection's `all`, with their parameters. */
  function statementsOf(read: () => void): Array<{ sql: string; params: unknown[] }> {
    const seen: Array<{ sql: string; params: unknown[] }> = [];
    const all = c.all.bind(c);
    c.all = ((sql: string, ...params: never[]) => {
      seen.push({ sql, params });
      return all(sql, ...params);
    }) as typeof c.all;
    try {
      read();
    } finally {
      c.all = all;
    }
    return seen;
  }

  // The walk drives by the sort field's value rows; a test on another field's values names the
  // item by the value row's key, so SQLite runs it before reading the item's row and a rejected
  // item costs no row read. Named by `r.pk`, it would run only after each row was read.
  it('tests other fields\' values before reading a walked item\'s row', () => {
    const seen = statementsOf(() => {
      const page = pageItems<RecordRow>(c, RECORDS, typePk, { filter: named, sort: byScore, offset: 0, limit: 10 }, 0);
      expect(labelsOf(page.rows).sort()).toEqual(['alpha', 'delta']);
    });
    const walk = seen.find(({ sql }) => sql.includes('INDEXED BY record_values_by_num'))!;
    expect(walk).toBeDefined();
    const plan = t.raw().prepare(`EXPLAIN QUERY PLAN ${walk.sql}`).all(...walk.params).map((row) => (row as { detail: string }).detail);
    const valueTest = plan.findIndex((line) => /SEARCH p USING PRIMARY KEY \(record_pk=\? AND field=\?\)/.test(line));
    const rowRead = plan.findIndex((line) => /SEARCH r USING INTEGER PRIMARY KEY/.test(line));
    expect(valueTest).toBeGreaterThanOrEqual(0);
    expect(rowRead).toBeGreaterThan(valueTest);
  });

  // Below FEW_MATCHES the choice weighs the items a walk would visit, (offset + limit) × scope /
  // total, against the matches a sort would read, a walked item counted a third of a sorted match.
  // Two of the five gadgets match: reaching one of them visits ~2.5 items (walked), reaching
  // three ~7.5 (sorted). Counted as equal, both would be sorted.
  it('walks when the items it would visit cost less than sorting the matches', () => {
    const walked = (limit: number): boolean => statementsOf(() => {
      expect(pageItems<RecordRow>(c, RECORDS, typePk, { filter: named, sort: byScore, offset: 0, limit }).total).toBe(2);
    }).some(({ sql }) => sql.includes('INDEXED BY'));
    expect(Object.keys(g.records)).toHaveLength(5);
    expect(walked(1)).toBe(true);
    expect(walked(3)).toBe(false);
  });

  it('sees a write made through another connection in the next total', async () => {
    const before = pageItems<RecordRow>(c, RECORDS, typePk, { sort: NEWEST_FIRST, offset: 0, limit: 1 }).total;
    await t.store.createRecord(g.ws.id, { object_type_slug: 'gadgets', data: { name: 'Other process' }, uniques: [], refs: [], created_by: null, assignee_id: null });
    expect(pageItems<RecordRow>(c, RECORDS, typePk, { sort: NEWEST_FIRST, offset: 0, limit: 1 }).total).toBe(before + 1);
  });
});
