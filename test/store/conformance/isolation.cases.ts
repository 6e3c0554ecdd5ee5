import { describe, expect, it } from 'vitest';
import {
  addMember, contact, expectCrmError, freshWorkspace, newRecord, NEWEST_FIRST, randomHash, type Harness,
} from './harness.ts';

/** Nothing of workspace A may be read or written through workspace B's id. */
export function isolationCases(h: Harness): void {
  describe('workspace isolation', () => {
    async function twoWorkspaces() {
      const [a, b] = [await freshWorkspace(h, 'A'), await freshWorkspace(h, 'B')];
      const company = await h.store.createRecord(a.id, newRecord('companies', { name: 'Secretcorp' }));
      const person = await h.store.createRecord(a.id, newRecord('contacts', { name: 'Spy', company: company.id }, {
        refs: [{ field: 'company', to_id: company.id }],
      }));
      return { a, b, company, person };
    }

    it('never shows a record of A through B', async () => {
      const { b, company } = await twoWorkspaces();
      expect(await h.store.getRecord(b.id, company.id)).toBeNull();
      expect(await h.store.getRecord(b.id, company.id, { includeDeleted: true })).toBeNull();
      expect(await h.store.getRecords(b.id, [company.id])).toEqual([]);
      expect(await h.store.getRelations(b.id, company.id)).toEqual([]);
    });

    it('never changes a record of A through B', async () => {
      const { a, b, company } = await twoWorkspaces();
      await expectCrmError(h.store.updateRecord(b.id, company.id, { data: { name: 'Mine' }, uniques: [], refs: [] }), 'not_found');
      await expectCrmError(h.store.softDeleteRecord(b.id, company.id), 'not_found');
      await h.store.softDeleteRecord(a.id, company.id);
      await expectCrmError(h.store.restoreRecord(b.id, company.id, []), 'not_found');
      expect((await h.store.getRecord(a.id, company.id, { includeDeleted: true }))?.data).toEqual({ name: 'Secretcorp' });
    });

    it('never lists, counts or finds records of A in B’s object type of the same slug', async () => {
      const { b } = await twoWorkspaces();
      const page = await h.store.listRecords(b.id, { object_type_slug: 'companies', sort: NEWEST_FIRST, offset: 0, limit: 10 });
      expect(page).toEqual({ items: [], total: 0 });
      expect(await h.store.countRecords(b.id, 'companies')).toBe(0);
      expect(await h.store.searchRecords(b.id, { text: 'Secretcorp', offset: 0, limit: 10 })).toEqual({ items: [], total: 0 });
    });

    it('rejects a reference from B to a record of A with not_found', async () => {
      const { b, company } = await twoWorkspaces();
      await expectCrmError(h.store.createRecord(b.id, newRecord('contacts', { name: 'Mole', company: company.id }, {
        refs: [{ field: 'company', to_id: company.id }],
      })), 'not_found');
    });

    it('keeps unique claims per workspace', async () => {
      const { a, b } = await twoWorkspaces();
      await h.store.createRecord(a.id, contact('Ada', 'ada@example.com'));
      await expect(h.store.createRecord(b.id, contact('Ada', 'ada@example.com'))).resolves.toMatchObject({ workspace_id: b.id });
    });

    it('never shows or changes a custom object type of A through B', async () => {
      const { a, b } = await twoWorkspaces();
      await h.store.createObjectType(a.id, { slug: 'secrets', name: 'Secrets', fields: [{ slug: 'name', name: 'Name', type: 'text' }] });
      expect(await h.store.getObjectType(b.id, 'secrets')).toBeNull();
      expect((await h.store.listObjectTypes(b.id)).map((t) => t.slug)).not.toContain('secrets');
      await expectCrmError(h.store.updateObjectType(b.id, 'secrets', { name: 'Mine' }), 'not_found');
      await expectCrmError(h.store.addField(b.id, 'secrets', { slug: 'x', name: 'X', type: 'text' }), 'not_found');
      await expectCrmError(h.store.deleteObjectType(b.id, 'secrets'), 'not_found');
      await expectCrmError(h.store.createRecord(b.id, newRecord('secrets', { name: 'x' })), 'not_found');
      expect((await h.store.getObjectType(a.id, 'secrets'))?.name).toBe('Secrets');
    });

    it('never shows or changes members and keys of A through B', async () => {
      const { a, b } = await twoWorkspaces();
      const user = await addMember(h, a.id);
      const hash = randomHash();
      const key = await h.store.createApiKey({ workspace_id: a.id, user_id: user.id, name: 'k', scopes: [], hash, last_four: hash.slice(-4) });
      expect(await h.store.getUser(b.id, user.id)).toBeNull();
      expect(await h.store.listUsers(b.id)).toEqual([]);
      expect(await h.store.getUsers(b.id, [user.id])).toEqual([]);
      await expectCrmError(h.store.updateUserRole(b.id, user.id, 'owner'), 'not_found');
      expect((await h.store.getUser(a.id, user.id))?.role).toBe('member');
      expect(await h.store.listApiKeys(b.id)).toEqual([]);
      expect((await h.store.listApiKeys(a.id)).map((k) => k.id)).toEqual([key.id]);
    });
  });
}
