import { describe, expect, it } from 'vitest';
import type { Relation } from '../../../src/domain/types.ts';
import { expectCrmError, freshWorkspace, newRecord, sleep, type Harness } from './harness.ts';

/** The parts of an edge that do not depend on when it was written. */
const shape = (relations: Relation[]) =>
  relations
    .map(({ type, source, from_id, from_object, to_id, to_object }) => ({ type, source, from_id, from_object, to_id, to_object }))
    .sort((a, b) => `${a.from_id}${a.type}${a.to_id}`.localeCompare(`${b.from_id}${b.type}${b.to_id}`));

export function relationCases(h: Harness): void {
  describe('relations', () => {
    async function companyWithContact() {
      const ws = await freshWorkspace(h);
      const company = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Acme' }));
      const person = await h.store.createRecord(ws.id, newRecord('contacts', { name: 'Wile', company: company.id }, {
        refs: [{ field: 'company', to_id: company.id }],
      }));
      return { ws, company, person };
    }

    it('stores a reference as one edge that both ends see as stored', async () => {
      const { ws, company, person } = await companyWithContact();
      const edge = { type: 'company', source: 'field', from_id: person.id, from_object: 'contacts', to_id: company.id, to_object: 'companies' };
      const fromPerson = await h.store.getRelations(ws.id, person.id);
      expect(shape(fromPerson)).toEqual([edge]);
      expect(fromPerson[0]?.created_at).toEqual(expect.any(String));
      expect(shape(await h.store.getRelations(ws.id, company.id))).toEqual([edge]);
    });

    it('gives each edge the summary of the live record at its other end, in both directions', async () => {
      const { ws, company, person } = await companyWithContact();
      const [outgoing] = await h.store.getRelations(ws.id, person.id);
      expect(outgoing?.other).toEqual({ record_id: company.id, object_type_slug: 'companies', display_name: company.data['name'] });
      const [incoming] = await h.store.getRelations(ws.id, company.id);
      expect(incoming?.other).toEqual({ record_id: person.id, object_type_slug: 'contacts', display_name: person.data['name'] });
      // The other end's current name, not a copy taken when the edge (or an earlier read) saw it.
      await h.store.updateRecord(ws.id, company.id, { data: { name: 'Acme Corp' }, uniques: [], refs: [] });
      expect((await h.store.getRelations(ws.id, person.id))[0]?.other.display_name).toBe('Acme Corp');
      await h.store.softDeleteRecord(ws.id, person.id);
      expect(await h.store.getRelations(ws.id, company.id)).toEqual([]);
      await h.store.restoreRecord(ws.id, person.id, []);
      expect((await h.store.getRelations(ws.id, company.id)).map((r) => r.other.record_id)).toEqual([person.id]);
    });

    it('stores one edge per target of a many-reference', async () => {
      const ws = await freshWorkspace(h);
      const [ann, ben] = [
        await h.store.createRecord(ws.id, newRecord('contacts', { name: 'Ann' })),
        await h.store.createRecord(ws.id, newRecord('contacts', { name: 'Ben' })),
      ];
      const deal = await h.store.createRecord(ws.id, newRecord('deals', { name: 'Big', contacts: [ann.id, ben.id] }, {
        refs: [{ field: 'contacts', to_id: ann.id }, { field: 'contacts', to_id: ben.id }],
      }));
      const edges = shape(await h.store.getRelations(ws.id, deal.id));
      expect(edges.map((e) => [e.type, e.from_id, e.to_id, e.to_object])).toEqual(
        [[ 'contacts', deal.id, ann.id, 'contacts'], ['contacts', deal.id, ben.id, 'contacts']].sort((a, b) => a.join().localeCompare(b.join())),
      );
      expect(shape(await h.store.getRelations(ws.id, ben.id)).map((e) => e.from_id)).toEqual([deal.id]);
    });

    it('replaces the field edges when a record is updated', async () => {
      const { ws, company, person } = await companyWithContact();
      const other = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Globex' }));
      await h.store.updateRecord(ws.id, person.id, { data: { name: 'Wile', company: other.id }, uniques: [], refs: [{ field: 'company', to_id: other.id }] });
      expect(await h.store.getRelations(ws.id, company.id)).toEqual([]);
      expect(shape(await h.store.getRelations(ws.id, person.id)).map((e) => e.to_id)).toEqual([other.id]);
      await h.store.updateRecord(ws.id, person.id, { data: { name: 'Wile' }, uniques: [], refs: [] });
      expect(await h.store.getRelations(ws.id, person.id)).toEqual([]);
    });

    it('keeps an unchanged edge, with its creation time, across an update', async () => {
      const { ws, company, person } = await companyWithContact();
      const [before] = await h.store.getRelations(ws.id, person.id);
      await sleep(3);
      await h.store.updateRecord(ws.id, person.id, { data: { name: 'Wile E.', company: company.id }, uniques: [], refs: [{ field: 'company', to_id: company.id }] });
      expect(await h.store.getRelations(ws.id, person.id)).toEqual([before]);
    });

    it('hides an edge while the other end is deleted and shows it again after a restore', async () => {
      const { ws, company, person } = await companyWithContact();
      await h.store.softDeleteRecord(ws.id, company.id);
      expect(await h.store.getRelations(ws.id, person.id)).toEqual([]);
      await h.store.restoreRecord(ws.id, company.id, []);
      expect(shape(await h.store.getRelations(ws.id, person.id)).map((e) => e.to_id)).toEqual([company.id]);
      await h.store.softDeleteRecord(ws.id, person.id);
      expect(await h.store.getRelations(ws.id, company.id)).toEqual([]);
    });

    it('rejects a reference to an unknown record with not_found and writes nothing', async () => {
      const ws = await freshWorkspace(h);
      const missing = 'rec_00000000000000000000000000';
      await expectCrmError(h.store.createRecord(ws.id, newRecord('contacts', { name: 'Lost', company: missing }, {
        refs: [{ field: 'company', to_id: missing }],
      })), 'not_found');
      expect(await h.store.countRecords(ws.id, 'contacts')).toBe(0);
    });

    it('shows a record that references itself once', async () => {
      const ws = await freshWorkspace(h);
      const firm = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Self' }));
      await h.store.updateRecord(ws.id, firm.id, { data: { name: 'Self' }, uniques: [], refs: [{ field: 'parent', to_id: firm.id }] });
      expect(shape(await h.store.getRelations(ws.id, firm.id)).map((e) => [e.from_id, e.type, e.to_id])).toEqual([[firm.id, 'parent', firm.id]]);
    });

    it('returns no relations for a record without references', async () => {
      const ws = await freshWorkspace(h);
      const lonely = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Alone' }));
      expect(await h.store.getRelations(ws.id, lonely.id)).toEqual([]);
    });
  });
}
