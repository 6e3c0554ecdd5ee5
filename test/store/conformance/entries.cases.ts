import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids.ts';
import type { FilterNode, SortSpec } from '../../../src/domain/filter-ast.ts';
import type { ListEntry } from '../../../src/domain/types.ts';
import {
  allOf, anyOf, cmp, expectCrmError, freshWorkspace, many, num, sleep, sortBy, sys, type Harness,
} from './harness.ts';
import { deals, ev, pipeline } from './work.ts';

const UNKNOWN_ENTRY = 'ent_00000000000000000000000000';
const UNKNOWN_RECORD = 'rec_00000000000000000000000000';

type Label = 'a' | 'b' | 'c' | 'd';

export function entryCases(h: Harness): void {
  /**
   * A pipeline with four deals in it: a (lead, 3, hot), b (qualified, 9, hot+cold), c (won, no
   * score, no labels) and d (no data at all).
   */
  async function stocked() {
    const ws = await freshWorkspace(h, 'entries');
    const list = await pipeline(h, ws.id);
    const [a, b, c, d] = await deals(h, ws.id, 'A', 'B', 'C', 'D');
    const added = await h.store.addListEntries(ws.id, list.id, [
      { record_id: a!.id, data: { stage: 'lead', score: 3, labels: ['hot'] } },
      { record_id: b!.id, data: { stage: 'qualified', score: 9, labels: ['hot', 'cold'] } },
      { record_id: c!.id, data: { stage: 'won' } },
      { record_id: d!.id, data: {} },
    ], null, []);
    const entries = { a: added[0]!, b: added[1]!, c: added[2]!, d: added[3]! };
    const labelOf = new Map(Object.entries(entries).map(([label, entry]) => [entry.id, label as Label]));
    const page = async (filter?: FilterNode, sort: SortSpec = sortBy('record_id', true, 'text', true), offset = 0, limit = 100) => {
      const result = await h.store.listEntries(ws.id, list.id, { filter, sort, offset, limit });
      return { labels: result.items.map((e) => labelOf.get(e.id) ?? e.id), total: result.total, items: result.items };
    };
    const match = async (filter: FilterNode) => {
      const { labels, total } = await page(filter);
      expect(total).toBe(labels.length);
      return [...labels].sort();
    };
    /** Labels ordered by entry id, as entries without the sort value are. */
    const byEntryId = (labels: Label[], ascending: boolean) =>
      [...labels].sort((x, y) => (entries[x].id < entries[y].id ? -1 : 1) * (ascending ? 1 : -1));
    return { ws, list, records: { a: a!, b: b!, c: c!, d: d! }, entries, page, match, byEntryId };
  }

  describe('list entries', () => {
    it('adds entries with ids, their data, the creator and timestamps, and reads them back', async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      const [deal] = await deals(h, ws.id, 'Acme deal');
      const [entry] = await h.store.addListEntries(ws.id, list.id, [{ record_id: deal!.id, data: { stage: 'lead', score: 1 } }], 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV', []);
      expect(entry).toMatchObject({
        workspace_id: ws.id, list_id: list.id, record_id: deal!.id, data: { stage: 'lead', score: 1 },
        created_by: 'usr_01ARZ3NDEKTSV4RRFFQ69G5FAV',
      });
      expect(entry!.id).toMatch(/^ent_/);
      expect(entry!.updated_at).toBe(entry!.created_at);
      expect(await h.store.getListEntry(ws.id, entry!.id)).toEqual(entry);
    });

    it('keeps the ids the entries carry', async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      const [deal] = await deals(h, ws.id, 'Given');
      const id = newId('entry');
      const [entry] = await h.store.addListEntries(ws.id, list.id, [{ id, record_id: deal!.id, data: {} }], null, []);
      expect(entry!.id).toBe(id);
      expect((await h.store.getListEntry(ws.id, id))?.record_id).toBe(deal!.id);
    });

    it('lets a record be in several lists', async () => {
      const ws = await freshWorkspace(h);
      const [one, two] = [await pipeline(h, ws.id, { name: 'One' }), await pipeline(h, ws.id, { name: 'Two' })];
      const [deal] = await deals(h, ws.id, 'Popular');
      await h.store.addListEntries(ws.id, one.id, [{ record_id: deal!.id, data: { stage: 'lead' } }], null, []);
      await h.store.addListEntries(ws.id, two.id, [{ record_id: deal!.id, data: { stage: 'won' } }], null, []);
      expect((await h.store.findListEntries(ws.id, one.id, [deal!.id])).map((e) => e.data)).toEqual([{ stage: 'lead' }]);
      expect((await h.store.findListEntries(ws.id, two.id, [deal!.id])).map((e) => e.data)).toEqual([{ stage: 'won' }]);
    });

    it('rejects a record already in the list with conflict naming the entry, and adds none of the batch', async () => {
      const { ws, list, entries } = await stocked();
      const [fresh] = await deals(h, ws.id, 'Fresh');
      await expectCrmError(h.store.addListEntries(ws.id, list.id, [
        { record_id: fresh!.id, data: {} },
        { record_id: entries.b.record_id, data: { stage: 'won' } },
      ], null, []), 'conflict', { param: 'entries[1].record_id', index: 1 });
      expect(await h.store.findListEntries(ws.id, list.id, [fresh!.id])).toEqual([]);
      expect(await h.store.getListEntry(ws.id, entries.b.id)).toEqual(entries.b);
    });

    it('rejects a record twice in one batch with conflict naming the second, and adds none', async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      const [x, y] = await deals(h, ws.id, 'X', 'Y');
      await expectCrmError(h.store.addListEntries(ws.id, list.id, [
        { record_id: x!.id, data: {} }, { record_id: y!.id, data: {} }, { record_id: x!.id, data: {} },
      ], null, []), 'conflict', { param: 'entries[2].record_id', index: 2 });
      expect(await h.store.findListEntries(ws.id, list.id, [x!.id, y!.id])).toEqual([]);
    });

    it('rejects an unknown or deleted record with not_found, and adds none of the batch', async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      const [live, gone] = await deals(h, ws.id, 'Live', 'Gone');
      await h.store.softDeleteRecord(ws.id, gone!.id);
      for (const missing of [UNKNOWN_RECORD, gone!.id]) {
        await expectCrmError(h.store.addListEntries(ws.id, list.id, [
          { record_id: live!.id, data: {} }, { record_id: missing, data: {} },
        ], null, []), 'not_found');
      }
      expect(await h.store.findListEntries(ws.id, list.id, [live!.id])).toEqual([]);
    });

    it('rejects entries for an unknown or deleted list with not_found', async () => {
      const ws = await freshWorkspace(h);
      const list = await pipeline(h, ws.id);
      const [deal] = await deals(h, ws.id, 'Orphan');
      await expectCrmError(h.store.addListEntries(ws.id, 'lst_00000000000000000000000000', [{ record_id: deal!.id, data: {} }], null, []), 'not_found');
      await h.store.deleteList(ws.id, list.id, []);
      await expectCrmError(h.store.addListEntries(ws.id, list.id, [{ record_id: deal!.id, data: {} }], null, []), 'not_found');
    });

    it('finds the entries of some records in a list, and nothing for records not in it', async () => {
      const { ws, list, entries, records } = await stocked();
      const [outsider] = await deals(h, ws.id, 'Outsider');
      const found = await h.store.findListEntries(ws.id, list.id, [records.a.id, outsider!.id, records.c.id]);
      expect(found.map((e) => e.id).sort()).toEqual([entries.a.id, entries.c.id].sort());
      expect(found.find((e) => e.id === entries.a.id)).toEqual(entries.a);
      expect(await h.store.findListEntries(ws.id, list.id, [])).toEqual([]);
    });

    it('returns null for an unknown entry id', async () => {
      const ws = await freshWorkspace(h);
      expect(await h.store.getListEntry(ws.id, UNKNOWN_ENTRY)).toBeNull();
    });

    it('replaces the data of an entry as a whole and moves updated_at forward', async () => {
      const { ws, entries } = await stocked();
      await sleep(2);
      const updated = await h.store.updateListEntry(ws.id, entries.b.id, { stage: 'won' }, []);
      expect(updated).toMatchObject({ id: entries.b.id, record_id: entries.b.record_id, data: { stage: 'won' }, created_at: entries.b.created_at });
      expect(updated.updated_at > entries.b.updated_at).toBe(true);
      expect(await h.store.getListEntry(ws.id, entries.b.id)).toEqual(updated);
    });

    it('writes an entry update given its updated_at only while the entry still has it, each write moving it forward', async () => {
      const { ws, entries } = await stocked();
      const first = await h.store.updateListEntry(ws.id, entries.b.id, { stage: 'won' }, [], entries.b.updated_at);
      expect(first.updated_at > entries.b.updated_at).toBe(true);
      const stale = h.store.updateListEntry(ws.id, entries.b.id, { stage: 'lost' }, [ev('update', 'entry', 'stale', [entries.b.record_id])], entries.b.updated_at);
      await expectCrmError(stale, 'conflict', { rule: 'changed_meanwhile', id: entries.b.id });
      expect(await h.store.getListEntry(ws.id, entries.b.id)).toEqual(first);
      const second = await h.store.updateListEntry(ws.id, entries.b.id, { stage: 'lost' }, [], first.updated_at);
      expect(second.data).toEqual({ stage: 'lost' });
      expect(second.updated_at > first.updated_at).toBe(true);
    });

    it('filters on the new data of an updated entry, not the old', async () => {
      const { ws, entries, match } = await stocked();
      await h.store.updateListEntry(ws.id, entries.b.id, { stage: 'won', score: 1 }, []);
      expect(await match(cmp('stage', 'eq', 'qualified'))).toEqual([]);
      expect(await match(cmp('stage', 'eq', 'won'))).toEqual(['b', 'c']);
      expect(await match(many('labels', 'contains', 'cold'))).toEqual([]);
      expect(await match(num('score', 'lt', 2))).toEqual(['b']);
    });

    it('rejects updating or removing an unknown entry with not_found', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.updateListEntry(ws.id, UNKNOWN_ENTRY, {}, []), 'not_found');
      await expectCrmError(h.store.removeListEntry(ws.id, UNKNOWN_ENTRY, []), 'not_found');
    });

    it('removes an entry, which then is gone everywhere, and lets the record be added again', async () => {
      const { ws, list, entries, page } = await stocked();
      const removed = await h.store.removeListEntry(ws.id, entries.a.id, []);
      expect(removed).toMatchObject({ id: entries.a.id, record_id: entries.a.record_id, data: entries.a.data });
      expect(await h.store.getListEntry(ws.id, entries.a.id)).toBeNull();
      expect(await h.store.findListEntries(ws.id, list.id, [entries.a.record_id])).toEqual([]);
      expect((await page()).labels).not.toContain('a');
      expect((await page(cmp('stage', 'eq', 'lead'))).total).toBe(0);
      await expectCrmError(h.store.removeListEntry(ws.id, entries.a.id, []), 'not_found');
      const [again] = await h.store.addListEntries(ws.id, list.id, [{ record_id: entries.a.record_id, data: { stage: 'won' } }], null, []);
      expect(again!.id).not.toBe(entries.a.id);
    });
  });

  describe('listing list entries', () => {
    it('lists every entry with its data and the total', async () => {
      const { page, entries } = await stocked();
      const all = await page();
      expect(all.total).toBe(4);
      expect([...all.labels].sort()).toEqual(['a', 'b', 'c', 'd']);
      expect(all.items.find((e: ListEntry) => e.id === entries.b.id)).toEqual(entries.b);
    });

    it.each<[string, FilterNode, Label[]]>([
      ['equality on a status', cmp('stage', 'eq', 'qualified'), ['b']],
      ['in', cmp('stage', 'in', ['lead', 'won']), ['a', 'c']],
      ['ne, true on a missing value', cmp('stage', 'ne', 'lead'), ['b', 'c', 'd']],
      ['a number range', num('score', 'gt', 5), ['b']],
      ['is_empty on a number', num('score', 'is_empty'), ['c', 'd']],
      ['is_not_empty', cmp('stage', 'is_not_empty'), ['a', 'b', 'c']],
      ['contains on a multi-valued field', many('labels', 'contains', 'cold'), ['b']],
      ['ne on a multi-valued field', many('labels', 'ne', 'hot'), ['c', 'd']],
      ['starts_with, ignoring case', cmp('stage', 'starts_with', 'QUAL'), ['b']],
      ['$or', anyOf(cmp('stage', 'eq', 'won'), num('score', 'lt', 5)), ['a', 'c']],
      ['$and', allOf(many('labels', 'eq', 'hot'), num('score', 'gte', 3)), ['a', 'b']],
      ['$and with a negation', allOf(cmp('stage', 'ne', 'won'), num('score', 'is_empty')), ['d']],
    ])('filters entries on their data: %s', async (_name, filter, expected) => {
      const { match } = await stocked();
      expect(await match(filter)).toEqual(expected);
    });

    it('filters on record_id as a system field of the entry', async () => {
      const { match, records } = await stocked();
      expect(await match(sys('record_id', 'eq', records.b.id))).toEqual(['b']);
      expect(await match(sys('record_id', 'in', [records.a.id, records.c.id]))).toEqual(['a', 'c']);
      expect(await match(sys('record_id', 'ne', records.a.id))).toEqual(['b', 'c', 'd']);
    });

    it.each([true, false])('sorts by a data field (ascending: %s), entries without a value last by entry id', async (ascending) => {
      const { page, byEntryId } = await stocked();
      const valued: Label[] = ascending ? ['a', 'b'] : ['b', 'a'];
      expect((await page(undefined, sortBy('score', ascending, 'number'))).labels).toEqual([...valued, ...byEntryId(['c', 'd'], ascending)]);
    });

    it('sorts by the record id of the entries and pages with a total', async () => {
      const { page, records } = await stocked();
      const byRecord = (['a', 'b', 'c', 'd'] as Label[]).sort((x, y) => (records[x].id < records[y].id ? 1 : -1));
      expect((await page(undefined, sortBy('record_id', false, 'text', true))).labels).toEqual(byRecord);
      const second = await page(undefined, sortBy('record_id', false, 'text', true), 1, 2);
      expect(second).toMatchObject({ labels: byRecord.slice(1, 3), total: 4 });
    });

    it('sorts and pages a filtered listing', async () => {
      const { page } = await stocked();
      const result = await page(cmp('stage', 'is_not_empty'), sortBy('score', false, 'number'), 0, 2);
      expect(result).toMatchObject({ labels: ['b', 'a'], total: 3 });
    });

    it('skips entries whose record is deleted, and shows them again when it is restored', async () => {
      const { ws, records, page, match } = await stocked();
      await h.store.softDeleteRecord(ws.id, records.b.id);
      expect((await page()).total).toBe(3);
      expect(await match(cmp('stage', 'eq', 'qualified'))).toEqual([]);
      expect(await match(cmp('stage', 'ne', 'lead'))).toEqual(['c', 'd']);
      expect(await match(sys('record_id', 'eq', records.b.id))).toEqual([]);
      expect((await page(undefined, sortBy('score', false, 'number'))).labels[0]).toBe('a');
      await h.store.restoreRecord(ws.id, records.b.id, []);
      expect(await match(cmp('stage', 'eq', 'qualified'))).toEqual(['b']);
    });

    it('keeps totals exact when the same listings are read before and after every kind of write', async () => {
      const { ws, list, records, entries, page } = await stocked();
      const [e] = await deals(h, ws.id, 'E');
      const totals = async () => [(await page()).total, (await page(cmp('stage', 'eq', 'won'))).total];
      expect(await totals()).toEqual([4, 1]);
      await h.store.addListEntries(ws.id, list.id, [{ record_id: e!.id, data: { stage: 'won' } }], null, []);
      expect(await totals()).toEqual([5, 2]);
      await h.store.updateListEntry(ws.id, entries.b.id, { stage: 'won' }, []);
      expect(await totals()).toEqual([5, 3]);
      await h.store.softDeleteRecord(ws.id, records.c.id);
      expect(await totals()).toEqual([4, 2]);
      await h.store.restoreRecord(ws.id, records.c.id, []);
      expect(await totals()).toEqual([5, 3]);
      await h.store.removeListEntry(ws.id, entries.b.id, []);
      expect(await totals()).toEqual([4, 2]);
    });

    it('rejects listing the entries of a deleted or unknown list with not_found', async () => {
      const { ws, list } = await stocked();
      await h.store.deleteList(ws.id, list.id, []);
      await expectCrmError(h.store.listEntries(ws.id, list.id, { sort: sortBy('created_at', true, 'text', true), offset: 0, limit: 10 }), 'not_found');
      await expectCrmError(h.store.listEntries(ws.id, 'lst_00000000000000000000000000', { sort: sortBy('created_at', true, 'text', true), offset: 0, limit: 10 }), 'not_found');
    });

    it('keeps the entries of one list out of another list of the same records', async () => {
      const { ws, records } = await stocked();
      const other = await pipeline(h, ws.id, { name: 'Other' });
      await h.store.addListEntries(ws.id, other.id, [{ record_id: records.a.id, data: { stage: 'won' } }], null, []);
      const result = await h.store.listEntries(ws.id, other.id, { filter: cmp('stage', 'is_not_empty'), sort: sortBy('created_at', true, 'text', true), offset: 0, limit: 10 });
      expect(result.items.map((e) => [e.record_id, e.data])).toEqual([[records.a.id, { stage: 'won' }]]);
      expect(result.total).toBe(1);
    });
  });
}
