import { describe, expect, it } from 'vitest';
import { STANDARD_OBJECT_TYPES } from '../../../src/domain/standard-objects.ts';
import {
  addMember, expectCrmError, freshWorkspace, randomHash, sleep, uniqueName, type Harness,
} from './harness.ts';

export function settingsCases(h: Harness): void {
  describe('lifecycle', () => {
    it('reports itself healthy', async () => {
      expect(await h.store.health()).toMatchObject({ ok: true });
    });

    it('runs init again without losing data', async () => {
      const ws = await freshWorkspace(h);
      await h.store.init();
      expect(await h.store.getWorkspace(ws.id)).toEqual(ws);
    });
  });

  describe('workspaces', () => {
    it('creates a workspace with the standard object types and their fields in order', async () => {
      const ws = await freshWorkspace(h);
      const types = await h.store.listObjectTypes(ws.id);
      expect(types.map((t) => t.slug)).toEqual(STANDARD_OBJECT_TYPES.map((t) => t.slug));
      for (const [i, type] of types.entries()) {
        const expected = STANDARD_OBJECT_TYPES[i]!;
        expect(type).toMatchObject({ workspace_id: ws.id, name: expected.name, standard: true, deleted_at: null });
        expect(type.fields.map((f) => [f.slug, f.type, f.position])).toEqual(expected.fields.map((f, p) => [f.slug, f.type, p]));
      }
      const contacts = types.find((t) => t.slug === 'contacts')!;
      expect(contacts.fields.find((f) => f.slug === 'email')).toMatchObject({ unique: true, required: false, archived: false });
      expect(contacts.fields.find((f) => f.slug === 'company')?.config).toEqual({ target: 'companies', many: false });
    });

    it('gives a new workspace an id, timestamps and no plan or trial by default', async () => {
      const ws = await freshWorkspace(h);
      expect(ws.id).toMatch(/^ws_/);
      expect(ws).toMatchObject({ plan: null, trial_ends_at: null });
      expect(Date.parse(ws.created_at)).not.toBeNaN();
      expect(ws.updated_at).toBe(ws.created_at);
    });

    it('keeps the plan and trial end given at creation', async () => {
      const ws = await h.store.createWorkspace({
        name: uniqueName('plan'), plan: 'pro', trial_ends_at: '2030-01-01T00:00:00.000Z', objectTypes: [],
      });
      expect(await h.store.getWorkspace(ws.id)).toMatchObject({ plan: 'pro', trial_ends_at: '2030-01-01T00:00:00.000Z' });
      expect(await h.store.listObjectTypes(ws.id)).toEqual([]);
    });

    it('gets a workspace by id and returns null for an unknown id', async () => {
      const ws = await freshWorkspace(h);
      expect(await h.store.getWorkspace(ws.id)).toEqual(ws);
      expect(await h.store.getWorkspace('ws_00000000000000000000000000')).toBeNull();
    });

    it('lists every workspace, new ones included', async () => {
      const [a, b] = [await freshWorkspace(h), await freshWorkspace(h)];
      const listed = (await h.store.listWorkspaces()).map((w) => w.id);
      expect(listed).toEqual(expect.arrayContaining([a.id, b.id]));
    });

    it('updates only the settings a patch names', async () => {
      const ws = await h.store.createWorkspace({ name: uniqueName('patch'), plan: 'pro', objectTypes: [] });
      await sleep(2);
      const renamed = await h.store.updateWorkspace(ws.id, { name: 'Renamed' });
      expect(renamed).toMatchObject({ name: 'Renamed', plan: 'pro', trial_ends_at: null, created_at: ws.created_at });
      expect(renamed.updated_at > ws.updated_at).toBe(true);
      const cleared = await h.store.updateWorkspace(ws.id, { plan: null, trial_ends_at: '2031-05-01T00:00:00.000Z' });
      expect(cleared).toMatchObject({ name: 'Renamed', plan: null, trial_ends_at: '2031-05-01T00:00:00.000Z' });
      expect(await h.store.getWorkspace(ws.id)).toEqual(cleared);
    });

    it('rejects updating an unknown workspace with not_found', async () => {
      await expectCrmError(h.store.updateWorkspace('ws_00000000000000000000000000', { name: 'x' }), 'not_found');
    });
  });

  describe('users', () => {
    it('creates a member and gets it back', async () => {
      const ws = await freshWorkspace(h);
      const user = await h.store.createUser({ workspace_id: ws.id, email: 'Ada@Example.com', name: 'Ada', role: 'admin' });
      expect(user).toMatchObject({ workspace_id: ws.id, email: 'Ada@Example.com', name: 'Ada', role: 'admin' });
      expect(user.id).toMatch(/^usr_/);
      expect(await h.store.getUser(ws.id, user.id)).toEqual(user);
      expect(await h.store.getUser(ws.id, 'usr_00000000000000000000000000')).toBeNull();
    });

    it('rejects an email that is already a member, ignoring case, with conflict', async () => {
      const ws = await freshWorkspace(h);
      await addMember(h, ws.id, 'grace@example.com');
      await expectCrmError(addMember(h, ws.id, 'GRACE@example.com'), 'conflict', { param: 'email' });
      expect(await h.store.listUsers(ws.id)).toHaveLength(1);
    });

    it('allows the same email in another workspace', async () => {
      const [a, b] = [await freshWorkspace(h), await freshWorkspace(h)];
      await addMember(h, a.id, 'shared@example.com');
      await expect(addMember(h, b.id, 'shared@example.com')).resolves.toMatchObject({ workspace_id: b.id });
    });

    it('lists the members of the workspace only, oldest first', async () => {
      const [a, b] = [await freshWorkspace(h), await freshWorkspace(h)];
      const first = await addMember(h, a.id);
      await sleep(2);
      const second = await addMember(h, a.id);
      await addMember(h, b.id);
      expect((await h.store.listUsers(a.id)).map((u) => u.id)).toEqual([first.id, second.id]);
    });

    it('gets the members among some ids in list order, leaving out ids of no member', async () => {
      const [a, b] = [await freshWorkspace(h), await freshWorkspace(h)];
      const first = await addMember(h, a.id);
      await sleep(2);
      const second = await addMember(h, a.id);
      await addMember(h, a.id);
      const elsewhere = await addMember(h, b.id);
      const ids = [second.id, 'usr_00000000000000000000000000', first.id, elsewhere.id, second.id];
      expect(await h.store.getUsers(a.id, ids)).toEqual([first, second]);
      expect(await h.store.getUsers(a.id, [])).toEqual([]);
    });

    it("changes a member's role", async () => {
      const ws = await freshWorkspace(h);
      const user = await addMember(h, ws.id);
      expect(await h.store.updateUserRole(ws.id, user.id, 'owner')).toMatchObject({ id: user.id, role: 'owner' });
      expect((await h.store.getUser(ws.id, user.id))?.role).toBe('owner');
    });

    it('rejects changing the role of an unknown user with not_found', async () => {
      const ws = await freshWorkspace(h);
      await expectCrmError(h.store.updateUserRole(ws.id, 'usr_00000000000000000000000000', 'admin'), 'not_found');
    });

    it('rejects a member of an unknown workspace with not_found', async () => {
      await expectCrmError(addMember(h, 'ws_00000000000000000000000000'), 'not_found');
    });
  });

  describe('api keys', () => {
    const keyFor = async (workspaceId: string, userId: string, hash = randomHash()) =>
      h.store.createApiKey({ workspace_id: workspaceId, user_id: userId, name: 'ci', scopes: ['records', 'objects'], hash, last_four: hash.slice(-4) });

    it('creates a key and finds it by the hash of its value', async () => {
      const ws = await freshWorkspace(h);
      const user = await addMember(h, ws.id);
      const key = await keyFor(ws.id, user.id);
      expect(key).toMatchObject({ workspace_id: ws.id, user_id: user.id, name: 'ci', scopes: ['records', 'objects'], last_used_at: null, revoked_at: null });
      expect(key.id).toMatch(/^key_/);
      expect(await h.store.findApiKeyByHash(key.hash)).toEqual(key);
    });

    it('returns null for a hash no key has', async () => {
      expect(await h.store.findApiKeyByHash(randomHash())).toBeNull();
    });

    it('lists the keys of the workspace only', async () => {
      const [a, b] = [await freshWorkspace(h), await freshWorkspace(h)];
      const [userA, userB] = [await addMember(h, a.id), await addMember(h, b.id)];
      const keys = [await keyFor(a.id, userA.id), await keyFor(a.id, userA.id)];
      await keyFor(b.id, userB.id);
      expect((await h.store.listApiKeys(a.id)).map((k) => k.id).sort()).toEqual(keys.map((k) => k.id).sort());
    });

    it('revokes a key, which stays findable with revoked_at set', async () => {
      const ws = await freshWorkspace(h);
      const key = await keyFor(ws.id, (await addMember(h, ws.id)).id);
      const revoked = await h.store.revokeApiKey(key.id);
      expect(revoked?.revoked_at).toEqual(expect.any(String));
      expect(await h.store.findApiKeyByHash(key.hash)).toMatchObject({ id: key.id, revoked_at: revoked?.revoked_at });
    });

    it('keeps the first revocation time when a key is revoked twice', async () => {
      const ws = await freshWorkspace(h);
      const key = await keyFor(ws.id, (await addMember(h, ws.id)).id);
      const first = await h.store.revokeApiKey(key.id);
      await sleep(3);
      const second = await h.store.revokeApiKey(key.id);
      expect(second?.revoked_at).toBe(first?.revoked_at);
    });

    it('returns null when revoking a key that does not exist', async () => {
      expect(await h.store.revokeApiKey('key_00000000000000000000000000')).toBeNull();
    });

    it('records when a key was last used', async () => {
      const ws = await freshWorkspace(h);
      const key = await keyFor(ws.id, (await addMember(h, ws.id)).id);
      await h.store.touchApiKey(key.id, '2030-02-03T04:05:06.789Z');
      expect((await h.store.findApiKeyByHash(key.hash))?.last_used_at).toBe('2030-02-03T04:05:06.789Z');
    });

    it('rejects a key for a user of another workspace with not_found', async () => {
      const [a, b] = [await freshWorkspace(h), await freshWorkspace(h)];
      const outsider = await addMember(h, b.id);
      await expectCrmError(keyFor(a.id, outsider.id), 'not_found');
      expect(await h.store.listApiKeys(a.id)).toEqual([]);
    });
  });
}
