import { addUser, createKey, createWorkspace, userEmail } from '../src/domain/services/settings.ts';
import type { Store } from '../src/domain/store/port.ts';

export interface Bootstrapped {
  workspace_id: string;
  user_id: string;
  key: string;
  owner_email: string;
}

/** The Owner's email when nobody gave one (a placeholder; the start-up message says how to set it). */
export const PLACEHOLDER_OWNER_EMAIL = 'owner@example.com';

/**
 * On an empty store, creates a workspace, its Owner and one API key, so `npm start` on a fresh
 * machine is immediately usable. The local workspace gets the "developer" plan (no trial end).
 */
export async function bootstrapIfEmpty(store: Store, prefix: string, ownerEmail = PLACEHOLDER_OWNER_EMAIL): Promise<Bootstrapped | null> {
  if ((await store.listWorkspaces()).length > 0) return null;
  // Checked before anything is written: a workspace made first would be left without its Owner,
  // and the next start, finding data, would only offer commands that need one.
  userEmail(ownerEmail, 'owner-email');
  const ws = await createWorkspace(store, { name: 'My workspace', plan: 'developer', trialDays: null });
  const owner = await addUser(store, { workspace_id: ws.id, email: ownerEmail, name: 'Owner', role: 'owner' });
  const { key } = await createKey(store, { workspace_id: ws.id, user_id: owner.id, name: 'first key', scopes: [], prefix });
  return { workspace_id: ws.id, user_id: owner.id, key, owner_email: owner.email };
}
