import { describe, expect, it } from 'vitest';
import type { Workspace } from '../../../src/domain/types.ts';
import { expectCrmError, freshWorkspace, newRecord, sortedIds, type Harness } from './harness.ts';

const HOSTILE_INPUTS = [
  '"foo*', 'AND OR (', 'NEAR(a b', ')', '*', '"', "'", 'name:acme', '^acme', '-acme', 'acme OR', 'NOT', '{a b}:c',
  'a + b', '\\', '%_', '\u0000', '🙂', '',
];

export function searchCases(h: Harness): void {
  const search = (ws: Workspace, text: string, more: { object_type_slug?: string; offset?: number; limit?: number } = {}) =>
    h.store.searchRecords(ws.id, { text, offset: more.offset ?? 0, limit: more.limit ?? 20, object_type_slug: more.object_type_slug });
  const names = async (ws: Workspace, text: string, more?: { object_type_slug?: string }) =>
    (await search(ws, text, more)).items.map((r) => String(r.data.name)).sort();

  async function directory() {
    const ws = await freshWorkspace(h, 'search');
    const acme = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Acme Corporation', description: 'Rockets and anvils' }));
    await h.store.createRecord(ws.id, newRecord('companies', { name: 'Café Olé', description: 'Coffee' }));
    await h.store.createRecord(ws.id, newRecord('companies', { name: 'Globex', description: 'Anvil resellers' }));
    const wile = await h.store.createRecord(ws.id, newRecord('contacts', { name: 'Wile Coyote', job_title: 'Acme customer', company: acme.id }, {
      refs: [{ field: 'company', to_id: acme.id }],
    }));
    return { ws, acme, wile };
  }

  describe('searchRecords', () => {
    it('finds records by the prefix of a word in any text field', async () => {
      const { ws } = await directory();
      expect(await names(ws, 'acm')).toEqual(['Acme Corporation', 'Wile Coyote']);
      expect(await names(ws, 'anvil')).toEqual(['Acme Corporation', 'Globex']);
    });

    it('requires every word to match', async () => {
      const { ws } = await directory();
      expect(await names(ws, 'acme rock')).toEqual(['Acme Corporation']);
      expect(await names(ws, 'acme globex')).toEqual([]);
    });

    it('ignores case and diacritics', async () => {
      const { ws } = await directory();
      expect(await names(ws, 'CAFE ole')).toEqual(['Café Olé']);
      expect(await names(ws, 'café')).toEqual(['Café Olé']);
    });

    it('ranks a record that is mostly about the word above one that mentions it in passing', async () => {
      const ws = await freshWorkspace(h, 'ranking');
      const passing = await h.store.createRecord(ws.id, newRecord('contacts', {
        name: 'Pat Smith', job_title: 'Once worked at initech for a while long ago, before moving to a bigger firm in another town',
      }));
      const focused = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Initech', description: 'Initech, the initech company' }));
      const result = await search(ws, 'initech');
      expect(result.items.map((r) => r.id)).toEqual([focused.id, passing.id]);
    });

    it('ranks records holding every typed word whole above those matching only a prefix', async () => {
      const ws = await freshWorkspace(h, 'ranking');
      const prefixOnly = await h.store.createRecord(ws.id, newRecord('contacts', { name: 'Anna Ziegler' }));
      const whole = await h.store.createRecord(ws.id, newRecord('contacts', {
        name: 'Ann Lee', job_title: 'Head of procurement for the northern region',
      }));
      expect((await search(ws, 'ann')).items.map((r) => r.id)).toEqual([whole.id, prefixOnly.id]);
      // The first rank needs every word whole: one whole word of two is no better than none.
      const oneOfTwo = await h.store.createRecord(ws.id, newRecord('contacts', { name: 'Annie Lee' }));
      expect((await search(ws, 'ann lee')).items.map((r) => r.id)).toEqual([whole.id, oneOfTwo.id]);
      expect((await search(ws, 'ann le')).items.map((r) => r.id)).toEqual([oneOfTwo.id, whole.id]);
    });

    it('orders hits of equal rank and length by record id', async () => {
      const ws = await freshWorkspace(h, 'ranking');
      const made = [];
      for (const name of ['Zed Quill', 'Amy Quill', 'Max Quill']) made.push(await h.store.createRecord(ws.id, newRecord('contacts', { name })));
      const ids = made.map((r) => r.id).sort();
      expect((await search(ws, 'quill')).items.map((r) => r.id)).toEqual(ids);
      expect((await search(ws, 'quill', { limit: 1, offset: 1 })).items.map((r) => r.id)).toEqual([ids[1]]);
    });

    it('orders a workspace\'s hits the same whatever other workspaces hold', async () => {
      // Corpus statistics (how common a word is across the index) would reorder these two as the
      // other workspace's records change; the order depends on this workspace's records alone.
      const ws = await freshWorkspace(h, 'ranking');
      const x = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Ombra Ombra Tarn', description: 'One' }));
      const y = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Ombra Tarn Tarn', description: 'Two' }));
      const order = async () => (await search(ws, 'ombra tarn')).items.map((r) => r.id);
      const before = await order();
      expect([...before].sort()).toEqual(sortedIds([x, y]));
      const other = await freshWorkspace(h, 'ranking');
      for (let i = 0; i < 30; i++) await h.store.createRecord(other.id, newRecord('companies', { name: `Ombra ${i}` }));
      expect(await order()).toEqual(before);
      for (let i = 0; i < 60; i++) await h.store.createRecord(other.id, newRecord('companies', { name: `Tarn ${i}` }));
      expect(await order()).toEqual(before);
    });

    it('searches one object type when asked to', async () => {
      const { ws } = await directory();
      expect(await names(ws, 'acme', { object_type_slug: 'contacts' })).toEqual(['Wile Coyote']);
      await expectCrmError(search(ws, 'acme', { object_type_slug: 'gizmos' }), 'not_found');
    });

    it('does not find deleted records and finds them again once restored', async () => {
      const { ws, wile } = await directory();
      await h.store.softDeleteRecord(ws.id, wile.id);
      expect(await names(ws, 'coyote')).toEqual([]);
      await h.store.restoreRecord(ws.id, wile.id, []);
      expect(await names(ws, 'coyote')).toEqual(['Wile Coyote']);
    });

    it('finds an updated record by its new text and not by its old text', async () => {
      const { ws, acme } = await directory();
      await h.store.updateRecord(ws.id, acme.id, { data: { name: 'Roadrunner Supplies' }, uniques: [], refs: [] });
      expect(await names(ws, 'rockets')).toEqual([]);
      expect(await names(ws, 'roadrun')).toEqual(['Roadrunner Supplies']);
    });

    it('does not find records of a deleted object type', async () => {
      const ws = await freshWorkspace(h, 'search');
      await h.store.createObjectType(ws.id, { slug: 'pets', name: 'Pets', fields: [{ slug: 'name', name: 'Name', type: 'text' }] });
      await h.store.createRecord(ws.id, newRecord('pets', { name: 'Snowball' }));
      await h.store.deleteObjectType(ws.id, 'pets');
      expect((await search(ws, 'snowball')).total).toBe(0);
    });

    it('does not match the record ids that reference fields hold', async () => {
      const { ws, acme } = await directory();
      expect(await names(ws, acme.id)).toEqual([]);
      expect(await names(ws, 'rec')).toEqual([]);
    });

    it('pages the matches and reports their total', async () => {
      const { ws } = await directory();
      const all = await search(ws, 'a', { limit: 10 });
      const first = await search(ws, 'a', { limit: 2 });
      const rest = await search(ws, 'a', { offset: 2, limit: 10 });
      expect(all.total).toBe(all.items.length);
      expect(first.total).toBe(all.total);
      expect(first.items).toHaveLength(2);
      expect(sortedIds([...first.items, ...rest.items])).toEqual(sortedIds(all.items));
      // A page past the last match is empty and still says how many there are.
      expect(await search(ws, 'a', { offset: all.total, limit: 10 })).toEqual({ items: [], total: all.total });
    });

    it('finds every word a prefix starts, however many words share it', async () => {
      const ws = await freshWorkspace(h, 'search');
      const suffixes = Array.from({ length: 24 }, (_, i) => String.fromCharCode(97 + i));
      await h.store.createRecords(ws.id, suffixes.map((s, i) => newRecord('companies', { name: `Quin${s}ta ${i % 2 ? 'Odd' : 'Even'}` })));
      expect((await search(ws, 'quin')).total).toBe(24);
      expect((await search(ws, 'quin odd')).total).toBe(12);
      expect((await search(ws, 'quinc')).total).toBe(1);
      expect(await names(ws, 'quinbta')).toEqual(['Quinbta Odd']);
    });

    it('finds nothing when one typed word starts no word, whatever the others match', async () => {
      const { ws } = await directory();
      expect(await search(ws, 'acme zyzzyva')).toEqual({ items: [], total: 0 });
      expect(await search(ws, 'zyzzyva acme', { offset: 5 })).toEqual({ items: [], total: 0 });
    });

    it('finds nothing for input without a word', async () => {
      const { ws } = await directory();
      expect(await search(ws, '  *** ()  ')).toEqual({ items: [], total: 0 });
    });

    it.each(HOSTILE_INPUTS)('treats %j as plain words and never fails on it', async (input) => {
      const { ws } = await directory();
      const result = await search(ws, input);
      expect(result.total).toBe(result.items.length);
    });

    it('still finds words next to query syntax', async () => {
      const { ws } = await directory();
      expect(await names(ws, '"globex"')).toEqual(['Globex']);
      expect(await names(ws, '(glob*)')).toEqual(['Globex']);
      expect(await names(ws, '"acme* (rock')).toEqual(['Acme Corporation']);
      // A combining mark on its own is no word (it is removed with the diacritics), not a word
      // that nothing matches.
      expect(await names(ws, 'globex \u0301')).toEqual(['Globex']);
    });
  });
}
