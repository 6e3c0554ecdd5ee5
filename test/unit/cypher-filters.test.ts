import { describe, expect, it } from 'vitest';
import type { ComparisonNode } from '../../src/domain/filter-ast.ts';
import { SAMPLE_ENTRY_FILTERS, SAMPLE_FILTERS, SAMPLE_SORTS } from '../../src/store/neo4j/catalog.ts';
import { entryListStatements, listStatements, searchStatements } from '../../src/store/neo4j/cypher/queries.ts';
import { ENTRY_ITEMS, filterToCypher, sortToCypher } from '../../src/store/neo4j/filter-cypher.ts';

/** The Cypher and parameters the filter translator generates, pinned by snapshots. */

const OBJECT_TYPE_ID = 'obj_01JB0000000000000000000000';
const LIST_ID = 'lst_01JB0000000000000000000000';

describe('filterToCypher', () => {
  it.each(SAMPLE_FILTERS.map(([name, filter]) => [name, filter] as const))('translates %s', (_name, filter) => {
    expect(filterToCypher(filter)).toMatchSnapshot();
  });

  it('is the constant true without a filter', () => {
    expect(filterToCypher(undefined)).toEqual({ cypher: 'true', params: {} });
  });

  it('gives the same text and parameters for the same filter every time', () => {
    const filter = SAMPLE_FILTERS.at(-1)![1];
    expect(filterToCypher(filter)).toEqual(filterToCypher(filter));
  });

  it('never puts a value or a field name into the text', () => {
    for (const [, filter] of SAMPLE_FILTERS) {
      const { cypher, params } = filterToCypher(filter);
      for (const value of Object.values(params).flat()) {
        if (typeof value === 'string') expect(cypher).not.toContain(value);
      }
    }
  });

  it('compares partial text ASCII-lower-cased, leaving other letters as typed', () => {
    const node: ComparisonNode = { kind: 'cmp', field: 'name', system: false, op: 'contains', value: 'ÉcOLE', valueKind: 'text', multi: false };
    expect(filterToCypher(node)).toEqual({
      cypher: 'EXISTS { MATCH (r)-[:HAS_VALUE]->(v:FieldValue) WHERE v.field = $c0_field AND v.lt CONTAINS $c0_value }',
      params: { c0_field: 'name', c0_value: 'École' },
    });
  });

  it('compares booleans as the numbers they are stored as', () => {
    const node: ComparisonNode = { kind: 'cmp', field: 'active', system: false, op: 'in', value: [true, false], valueKind: 'boolean', multi: false };
    expect(filterToCypher(node).params).toEqual({ c0_field: 'active', c0_values: [1, 0] });
  });

  it('makes ne, not_in and is_empty negations, so they hold on a missing value', () => {
    for (const op of ['ne', 'not_in', 'is_empty'] as const) {
      const node: ComparisonNode = { kind: 'cmp', field: 'name', system: false, op, value: op === 'not_in' ? ['a'] : op === 'ne' ? 'a' : null, valueKind: 'text', multi: false };
      expect(filterToCypher(node).cypher).toMatch(/^NOT \(EXISTS \{/);
    }
  });
});

describe('filterToCypher on list entries', () => {
  it.each(SAMPLE_ENTRY_FILTERS.map(([name, filter]) => [name, filter] as const))('translates %s', (_name, filter) => {
    expect(filterToCypher(filter, ENTRY_ITEMS)).toMatchSnapshot();
  });

  it('reads record_id from the record the entry holds, and data fields exactly as on records', () => {
    const [[, systemEq], [, nested]] = [SAMPLE_FILTERS.find(([n]) => n === 'system record_id eq')!, SAMPLE_FILTERS.at(-1)!];
    expect(filterToCypher(systemEq, ENTRY_ITEMS)).toEqual({ cypher: 'r.record_id = $c0_value', params: { c0_value: 'rec_01JB0000000000000000000001' } });
    expect(filterToCypher(nested, ENTRY_ITEMS)).toEqual(filterToCypher(nested));
  });

  it('breaks ties by the entry id, also when sorting by record_id', () => {
    expect(sortToCypher({ field: 'record_id', system: true, valueKind: 'text', ascending: false }, ENTRY_ITEMS).orderBy).toBe('r.record_id DESC, r.id DESC');
  });
});

describe('sortToCypher', () => {
  it.each(SAMPLE_SORTS.map(([name, sort]) => [name, sort] as const))('orders by %s', (_name, sort) => {
    expect(sortToCypher(sort)).toMatchSnapshot();
  });
});

describe('listStatements', () => {
  it('builds the page and the count of a filtered, sorted list', () => {
    const built = listStatements({
      object_type_id: OBJECT_TYPE_ID, filter: SAMPLE_FILTERS.at(-1)![1], sort: SAMPLE_SORTS[3]![1], offset: 25, limit: 25,
    });
    expect(built.page.cypher).toMatchSnapshot('page cypher');
    expect(built.page.params).toMatchSnapshot('page params');
    expect(built.count.cypher).toMatchSnapshot('count cypher');
    expect(built.count.params).toMatchSnapshot('count params');
  });
});

describe('entryListStatements', () => {
  it('builds the page and the count of a filtered, sorted list of entries whose records are live', () => {
    const built = entryListStatements({ list_id: LIST_ID, filter: SAMPLE_FILTERS.at(-1)![1], sort: SAMPLE_SORTS[3]![1], offset: 25, limit: 25 });
    expect(built.page.cypher).toMatchSnapshot('page cypher');
    expect(built.page.params).toMatchSnapshot('page params');
    expect(built.count).toMatchSnapshot('count');
  });
});

describe('searchStatements', () => {
  it('builds the page and the count of a workspace-wide search', () => {
    const built = searchStatements({ query: '+_ws_01jb0000000000000000000000 +acme*', words: ['acme'], any_type: true, offset: 0, limit: 10 });
    expect(built.page.cypher).toMatchSnapshot('page cypher');
    expect(built.count).toMatchSnapshot('count');
  });
});
