import { describe, expect, it } from 'vitest';
import type { RecordSummary } from '../../../src/domain/store/port.ts';
import { freshWorkspace, newRecord, uniqueName, type Harness } from './harness.ts';

const byId = (summaries: readonly RecordSummary[]) => [...summaries].sort((a, b) => a.record_id.localeCompare(b.record_id));

/**
 * recordSummaries: how answers name records. Every case reads the summaries once before the change
 * it checks, so a store that keeps them (the SQLite graph cache) must notice the change.
 */
export function recordSummaryCases(h: Harness): void {
  describe('record summaries', () => {
    it('names live records of the workspace by their display name, once per id', async () => {
      const ws = await freshWorkspace(h);
      const other = await freshWorkspace(h, 'other');
      const acme = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Acme' }));
      const ann = await h.store.createRecord(ws.id, newRecord('contacts', { name: 'Ann', company: acme.id }, { refs: [{ field: 'company', to_id: acme.id }] }));
      const deal = await h.store.createRecord(ws.id, newRecord('deals', { name: 'Big one', stage: 'lead' }));
      const foreign = await h.store.createRecord(other.id, newRecord('companies', { name: 'Elsewhere' }));
      const summaries = await h.store.recordSummaries(ws.id, [deal.id, ann.id, acme.id, ann.id, foreign.id, 'rec_00000000000000000000000000']);
      expect(byId(summaries)).toEqual(byId([
        { record_id: acme.id, object_type_slug: 'companies', display_name: 'Acme' },
        { record_id: ann.id, object_type_slug: 'contacts', display_name: 'Ann' },
        { record_id: deal.id, object_type_slug: 'deals', display_name: 'Big one' },
      ]));
      expect(await h.store.recordSummaries(other.id, [acme.id])).toEqual([]);
      expect(await h.store.recordSummaries(ws.id, [])).toEqual([]);
    });

    it('follows a change of the data, and leaves the name when another field changes', async () => {
      const ws = await freshWorkspace(h);
      const acme = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Acme', industry: 'tech' }));
      expect((await h.store.recordSummaries(ws.id, [acme.id]))[0]?.display_name).toBe('Acme');
      await h.store.updateRecord(ws.id, acme.id, { data: { name: 'Acme Corp', industry: 'tech' }, uniques: [], refs: [] });
      expect((await h.store.recordSummaries(ws.id, [acme.id]))[0]?.display_name).toBe('Acme Corp');
      await h.store.updateRecord(ws.id, acme.id, { data: { name: 'Acme Corp', employee_count: 12 }, uniques: [], refs: [] });
      expect((await h.store.recordSummaries(ws.id, [acme.id]))[0]?.display_name).toBe('Acme Corp');
    });

    it('leaves out a deleted record and names it again once restored', async () => {
      const ws = await freshWorkspace(h);
      const acme = await h.store.createRecord(ws.id, newRecord('companies', { name: 'Acme' }));
      expect(await h.store.recordSummaries(ws.id, [acme.id])).toHaveLength(1);
      await h.store.softDeleteRecord(ws.id, acme.id);
      expect(await h.store.recordSummaries(ws.id, [acme.id])).toEqual([]);
      await h.store.restoreRecord(ws.id, acme.id, []);
      expect(await h.store.recordSummaries(ws.id, [acme.id])).toEqual([{ record_id: acme.id, object_type_slug: 'companies', display_name: 'Acme' }]);
    });

    it('follows the field definitions: an archived first text field gives way to the next', async () => {
      const ws = await freshWorkspace(h);
      const slug = uniqueName('projects').toLowerCase().replace(/[^a-z0-9]/g, '_').slice(0, 30);
      await h.store.createObjectType(ws.id, {
        slug, name: 'Projects', fields: [{ slug: 'code', name: 'Code', type: 'text' }, { slug: 'title', name: 'Title', type: 'text' }],
      });
      const project = await h.store.createRecord(ws.id, newRecord(slug, { code: 'P-1', title: 'Apollo' }));
      expect((await h.store.recordSummaries(ws.id, [project.id]))[0]?.display_name).toBe('P-1');
      await h.store.updateField(ws.id, slug, 'code', { archived: true });
      expect((await h.store.recordSummaries(ws.id, [project.id]))[0]?.display_name).toBe('Apollo');
      await h.store.updateField(ws.id, slug, 'code', { archived: false });
      expect((await h.store.recordSummaries(ws.id, [project.id]))[0]?.display_name).toBe('P-1');
      // A name field, added later, names the record once it has a value.
      await h.store.addField(ws.id, slug, { slug: 'name', name: 'Name', type: 'text' });
      await h.store.updateRecord(ws.id, project.id, { data: { code: 'P-1', title: 'Apollo', name: 'Moonshot' }, uniques: [], refs: [] });
      expect((await h.store.recordSummaries(ws.id, [project.id]))[0]?.display_name).toBe('Moonshot');
    });
  });
}
