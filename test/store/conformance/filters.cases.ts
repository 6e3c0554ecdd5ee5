import { describe, expect, it } from 'vitest';
import type { FilterNode } from '../../../src/domain/filter-ast.ts';
import { gadgets, type Gadget } from './gadgets.ts';
import { allOf, anyOf, bool, cmp, many, num, sleep, sys, type Harness } from './harness.ts';

interface FilterCase {
  title: string;
  filter: FilterNode;
  expected: Gadget[];
}

/** Each case runs against the gadgets of gadgets.ts; `expected` is sorted. */
export const FILTER_CASES: FilterCase[] = [
  { title: 'eq on text matches the exact value', filter: cmp('name', 'eq', 'Alpha'), expected: ['alpha'] },
  { title: 'eq on text is case-sensitive', filter: cmp('name', 'eq', 'alpha'), expected: [] },
  { title: 'ne on text is true where the field is missing', filter: cmp('name', 'ne', 'Alpha'), expected: ['beta', 'delta', 'epsilon', 'gamma'] },
  { title: 'in on text matches any of the values', filter: cmp('name', 'in', ['Alpha', 'DELTA']), expected: ['alpha', 'delta'] },
  { title: 'not_in on text is true where the field is missing', filter: cmp('name', 'not_in', ['Alpha', 'DELTA']), expected: ['beta', 'epsilon', 'gamma'] },
  { title: 'contains ignores ASCII case', filter: cmp('name', 'contains', 'tA'), expected: ['beta', 'delta'] },
  { title: 'contains takes % literally', filter: cmp('name', 'contains', '%'), expected: ['beta'] },
  { title: 'contains takes _ literally', filter: cmp('name', 'contains', '_'), expected: ['beta'] },
  { title: 'starts_with ignores ASCII case', filter: cmp('name', 'starts_with', 'g'), expected: ['gamma'] },
  { title: 'starts_with takes wildcards literally', filter: cmp('name', 'starts_with', '_%'), expected: [] },
  { title: 'ends_with ignores ASCII case', filter: cmp('name', 'ends_with', 'A'), expected: ['alpha', 'delta'] },
  { title: 'ends_with takes % literally', filter: cmp('name', 'ends_with', '0%'), expected: ['beta'] },
  { title: 'is_empty on text matches records without the field', filter: cmp('name', 'is_empty'), expected: ['epsilon'] },
  { title: 'is_not_empty on text matches records with the field', filter: cmp('name', 'is_not_empty'), expected: ['alpha', 'beta', 'delta', 'gamma'] },
  { title: 'eq on a number matches equal numbers', filter: num('score', 'eq', 15), expected: ['epsilon'] },
  { title: 'gt on a number is false where the field is missing', filter: num('score', 'gt', 10), expected: ['beta', 'epsilon'] },
  { title: 'gte on a number includes the bound', filter: num('score', 'gte', 10), expected: ['alpha', 'beta', 'epsilon'] },
  { title: 'lt on a number is false where the field is missing', filter: num('score', 'lt', 100), expected: ['alpha', 'beta', 'epsilon', 'gamma'] },
  { title: 'lte on a number includes the bound', filter: num('score', 'lte', 10), expected: ['alpha', 'gamma'] },
  { title: 'ne on a number is true where the field is missing', filter: num('score', 'ne', 10), expected: ['beta', 'delta', 'epsilon', 'gamma'] },
  { title: 'in on a number matches any of the values', filter: num('score', 'in', [5, 20]), expected: ['beta', 'gamma'] },
  { title: 'not_in on a number is true where the field is missing', filter: num('score', 'not_in', [5, 20]), expected: ['alpha', 'delta', 'epsilon'] },
  { title: 'is_empty on a number matches records without it', filter: num('score', 'is_empty'), expected: ['delta'] },
  { title: 'eq true on a boolean matches true only', filter: bool('active', 'eq', true), expected: ['alpha', 'delta'] },
  { title: 'eq false on a boolean does not match missing values', filter: bool('active', 'eq', false), expected: ['beta'] },
  { title: 'ne true on a boolean is true where the field is missing', filter: bool('active', 'ne', true), expected: ['beta', 'epsilon', 'gamma'] },
  { title: 'in on a boolean matches any of the values', filter: bool('active', 'in', [false]), expected: ['beta'] },
  { title: 'is_empty on a boolean matches records without it', filter: bool('active', 'is_empty'), expected: ['epsilon', 'gamma'] },
  { title: 'gt on a date compares ISO strings', filter: cmp('due', 'gt', '2024-01-01'), expected: ['alpha', 'beta'] },
  { title: 'lte on a date includes the bound', filter: cmp('due', 'lte', '2023-12-31'), expected: ['gamma'] },
  { title: 'eq on a multi-valued field means has the element', filter: many('tags', 'eq', 'blue'), expected: ['alpha', 'beta'] },
  { title: 'contains on a multi-valued field means has the element', filter: many('tags', 'contains', 'blue'), expected: ['alpha', 'beta'] },
  { title: 'contains on a multi-valued field matches whole elements only', filter: many('tags', 'contains', 'blu'), expected: [] },
  { title: 'in on a multi-valued field means has any of the elements', filter: many('tags', 'in', ['red', 'green']), expected: ['alpha', 'delta'] },
  { title: 'not_in on a multi-valued field means has none of the elements', filter: many('tags', 'not_in', ['blue']), expected: ['delta', 'epsilon', 'gamma'] },
  { title: 'ne on a multi-valued field means lacks the element', filter: many('tags', 'ne', 'red'), expected: ['beta', 'delta', 'epsilon', 'gamma'] },
  { title: 'is_empty on a multi-valued field matches empty and missing arrays', filter: many('tags', 'is_empty'), expected: ['epsilon', 'gamma'] },
  { title: 'is_not_empty on a multi-valued field matches arrays with elements', filter: many('tags', 'is_not_empty'), expected: ['alpha', 'beta', 'delta'] },
  {
    title: '$and requires every condition',
    filter: allOf(num('score', 'gte', 10), many('tags', 'eq', 'blue')),
    expected: ['alpha', 'beta'],
  },
  {
    title: '$or accepts any condition',
    filter: anyOf(cmp('name', 'eq', 'DELTA'), num('score', 'lt', 10)),
    expected: ['delta', 'gamma'],
  },
  {
    title: '$or nested in $and combines both',
    filter: allOf(anyOf(many('tags', 'eq', 'green'), many('tags', 'eq', 'red')), bool('active', 'eq', true)),
    expected: ['alpha', 'delta'],
  },
  {
    title: '$and nested in $or combines both',
    filter: anyOf(allOf(num('score', 'gt', 10), bool('active', 'eq', false)), cmp('name', 'starts_with', 'g')),
    expected: ['beta', 'gamma'],
  },
  {
    title: '$and subtracts a condition that is true on missing values',
    filter: allOf(num('score', 'gte', 10), many('tags', 'ne', 'red')),
    expected: ['beta', 'epsilon'],
  },
  {
    title: '$and of conditions true on missing values needs all of them',
    filter: allOf(cmp('name', 'ne', 'Alpha'), many('tags', 'not_in', ['green'])),
    expected: ['beta', 'epsilon', 'gamma'],
  },
  {
    title: '$or adds a condition that is true on missing values',
    filter: anyOf(cmp('name', 'eq', 'Alpha'), num('score', 'is_empty')),
    expected: ['alpha', 'delta'],
  },
  {
    title: '$or of conditions true on missing values needs one of them',
    filter: anyOf(num('score', 'is_empty'), bool('active', 'ne', true)),
    expected: ['beta', 'delta', 'epsilon', 'gamma'],
  },
  {
    title: '$and nested after a plain condition in $or keeps its grouping',
    filter: anyOf(cmp('name', 'eq', 'DELTA'), allOf(num('score', 'gte', 10), bool('active', 'eq', false))),
    expected: ['beta', 'delta'],
  },
  {
    title: 'a negation nested in $or nested in $and is applied in place',
    filter: allOf(anyOf(num('score', 'lt', 10), many('tags', 'is_empty')), cmp('name', 'is_not_empty')),
    expected: ['gamma'],
  },
  {
    title: 'in on a multi-valued field lists a record once when several elements match',
    filter: many('tags', 'in', ['red', 'blue']),
    expected: ['alpha', 'beta'],
  },
];

export function filterCases(h: Harness): void {
  describe('listRecords filters', () => {
    it.each(FILTER_CASES)('$title', async ({ filter, expected }) => {
      const g = await gadgets(h);
      expect(await g.match(filter)).toEqual(expected);
    });

    it('filters on record_id with eq, in and not_in', async () => {
      const g = await gadgets(h);
      const { alpha, beta } = g.records;
      expect(await g.match(sys('record_id', 'eq', alpha.id))).toEqual(['alpha']);
      expect(await g.match(sys('record_id', 'in', [alpha.id, beta.id]))).toEqual(['alpha', 'beta']);
      expect(await g.match(sys('record_id', 'not_in', [alpha.id]))).toEqual(['beta', 'delta', 'epsilon', 'gamma']);
    });

    it('never treats a system field as missing', async () => {
      const g = await gadgets(h);
      expect(await g.match(sys('record_id', 'is_empty'))).toEqual([]);
      expect(await g.match(sys('created_at', 'is_not_empty'))).toHaveLength(5);
    });

    it('filters on created_at and updated_at as timestamps', async () => {
      const g = await gadgets(h);
      const newest = Object.values(g.records).map((r) => r.created_at).sort().at(-1)!;
      expect(await g.match(sys('created_at', 'gte', g.records.alpha.created_at))).toHaveLength(5);
      expect(await g.match(sys('created_at', 'lt', '2000-01-01T00:00:00.000Z'))).toEqual([]);
      await sleep(3);
      await h.store.updateRecord(g.ws.id, g.records.beta.id, { data: { ...g.records.beta.data, score: 21 }, uniques: [], refs: [] });
      expect(await g.match(sys('updated_at', 'gt', newest))).toEqual(['beta']);
    });

    it('matches long contains and ends_with patterns as short ones: ASCII case ignored, wildcards literal', async () => {
      const g = await gadgets(h);
      const long = 'Résumé of the quarterly pipeline review, 50% done_ '.repeat(4);
      await h.store.updateRecord(g.ws.id, g.records.alpha.id, { data: { ...g.records.alpha.data, name: `Alpha ${long}END` }, uniques: [], refs: [] });
      await h.store.updateRecord(g.ws.id, g.records.gamma.id, { data: { ...g.records.gamma.data, name: 'a'.repeat(300) }, uniques: [], refs: [] });
      const part = long.slice(3, 90);
      expect(part.length).toBeGreaterThan(32);
      expect(await g.match(cmp('name', 'contains', part.toUpperCase().replaceAll('É', 'é')))).toEqual(['alpha']);
      expect(await g.match(cmp('name', 'contains', part.replace('é', 'É')))).toEqual([]);
      expect(await g.match(cmp('name', 'contains', `${'a'.repeat(40)}b`))).toEqual([]);
      expect(await g.match(cmp('name', 'contains', 'a'.repeat(299)))).toEqual(['gamma']);
      expect(await g.match(cmp('name', 'ends_with', `${long.slice(-60)}end`))).toEqual(['alpha']);
      expect(await g.match(cmp('name', 'ends_with', long.slice(-60)))).toEqual([]);
      expect(await g.match(cmp('name', 'ends_with', 'A'.repeat(33)))).toEqual(['gamma']);
      expect(await g.match(cmp('name', 'ends_with', `x${'a'.repeat(300)}`))).toEqual([]);
    });

    it('treats an empty string as a missing value', async () => {
      const g = await gadgets(h);
      await h.store.updateRecord(g.ws.id, g.records.alpha.id, { data: { ...g.records.alpha.data, name: '' }, uniques: [], refs: [] });
      expect(await g.match(cmp('name', 'is_empty'))).toEqual(['alpha', 'epsilon']);
      expect(await g.match(cmp('name', 'starts_with', ''))).toEqual(['beta', 'delta', 'gamma']);
    });

    it('does not match deleted records', async () => {
      const g = await gadgets(h);
      await h.store.softDeleteRecord(g.ws.id, g.records.alpha.id);
      expect(await g.match(many('tags', 'eq', 'blue'))).toEqual(['beta']);
      expect(await g.match(cmp('name', 'ne', 'nobody'))).toEqual(['beta', 'delta', 'epsilon', 'gamma']);
    });

    it('matches the new values of an updated record and not the old ones', async () => {
      const g = await gadgets(h);
      await h.store.updateRecord(g.ws.id, g.records.delta.id, { data: { name: 'Delta', score: 99 }, uniques: [], refs: [] });
      expect(await g.match(num('score', 'gt', 50))).toEqual(['delta']);
      expect(await g.match(many('tags', 'eq', 'green'))).toEqual([]);
      expect(await g.match(cmp('name', 'eq', 'DELTA'))).toEqual([]);
    });

    it('matches a restored record again', async () => {
      const g = await gadgets(h);
      await h.store.softDeleteRecord(g.ws.id, g.records.delta.id);
      await h.store.restoreRecord(g.ws.id, g.records.delta.id, []);
      expect(await g.match(many('tags', 'eq', 'green'))).toEqual(['delta']);
    });
  });
}
