import { describe, expect, it } from 'vitest';
import { addMember, freshWorkspace, randomHash, type Harness } from './harness.ts';

/** Authentication reads a key with its user and workspace at once; every change shows in the next read. */
export function keyHolderCases(h: Harness): void {
  describe('API key holders', () => {
    async function keyed() {
      const ws = await freshWorkspace(h, 'key holder');
      const user = await addMember(h, ws.id);
      const hash = randomHash();
      const key = await h.store.createApiKey({ workspace_id: ws.id, user_id: user.id, name: 'k', scopes: ['records'], hash, last_four: 'abcd' });
      return { ws, user, hash, key };
    }

    it('finds the key by its hash with its user and workspace', async () => {
      const { ws, user, hash, key } = await keyed();
      const holder = await h.store.findKeyHolder(hash);
      expect(holder?.key).toEqual(await h.store.findApiKeyByHash(hash));
      expect(holder?.key.id).toBe(key.id);
      expect(holder?.user).toEqual(await h.store.getUser(ws.id, user.id));
      expect(holder?.workspace).toEqual(await h.store.getWorkspace(ws.id));
    });

    it('answers null for an unknown hash', async () => {
      expect(await h.store.findKeyHolder(randomHash())).toBeNull();
    });

    it('shows a revocation, a role change and a plan change in the next read', async () => {
      const { ws, user, hash, key } = await keyed();
      await h.store.findKeyHolder(hash);
      await h.store.revokeApiKey(key.id);
      await h.store.updateUserRole(ws.id, user.id, 'admin');
      await h.store.updateWorkspace(ws.id, { plan: 'enterprise' });
      const holder = await h.store.findKeyHolder(hash);
      expect(holder?.key.revoked_at).not.toBeNull();
      expect(holder?.user?.role).toBe('admin');
      expect(holder?.workspace?.plan).toBe('enterprise');
    });
  });
}
