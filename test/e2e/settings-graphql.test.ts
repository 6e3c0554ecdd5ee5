import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, startHarness, type Harness } from './harness.ts';

/** Workspace settings over /graphql: Owner only, inside the caller's workspace. */
describe('workspace settings over GraphQL', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  const gql = async (key: string, query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(`${h.url}/graphql`, {
      method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: any; errors?: { message: string; extensions: { code: string; details?: any } }[] };
  };
  const CREATE = 'mutation($n: String!, $s: [String!]!, $u: String) { createApiKey(name: $n, scopes: $s, user_id: $u) { key api_key { key_id name scopes last_four user_email revoked_at } } }';

  it('lets the Owner list members, keys and plan, never showing a key hash or value', async () => {
    const answer = await gql(h.ws.owner.key, '{ settings { workspace { plan trial_ends_at } members { email role } api_keys { name last_four user_email last_used_at } } }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data.settings.workspace.plan).toBe('pro');
    expect(answer.data.settings.members.map((m: { email: string }) => m.email)).toContain('member@e2e.test');
    expect(answer.data.settings.api_keys.length).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(answer)).not.toMatch(/_live_/);
  });

  it.each(['admin', 'member'] as const)('refuses every settings field to an %s with permission_denied', async (role) => {
    const key = h.ws[role].key;
    for (const query of ['{ settings { members { email } } }', 'mutation { revokeApiKey(key_id: "key_x") { key_id } }', 'mutation { setPlan(plan: "free") { plan } }']) {
      const answer = await gql(key, query);
      expect(answer.errors?.[0]?.extensions.code).toBe('permission_denied');
      expect(answer.errors?.[0]?.message).toContain('only the workspace owner');
    }
  });

  it("refuses every settings field to an Owner's scoped key, so it cannot mint itself an unscoped one", async () => {
    for (const [query, variables] of [
      [CREATE, { n: 'escalate', s: [] }], ['{ settings { api_keys { name } } }', undefined],
      ['mutation { setPlan(plan: "pro") { plan } }', undefined], ['mutation { revokeApiKey(key_id: "key_x") { key_id } }', undefined],
    ] as const) {
      const answer = await gql(h.ws.recordsOnly, query, variables);
      expect(answer.data?.createApiKey ?? null, query).toBeNull();
      expect(answer.errors?.[0]?.extensions, query).toMatchObject({ code: 'permission_denied', details: { role: 'owner', scopes: ['records'] } });
      expect(answer.errors?.[0]?.message).toContain('without scopes');
    }
    const keys = await gql(h.ws.owner.key, '{ settings { api_keys { name } } }');
    expect(keys.data.settings.api_keys.map((k: { name: string }) => k.name)).not.toContain('escalate');
  });

  it('creates a key whose value works once shown, limited to its scopes, and revokes it for the next call', async () => {
    const made = await gql(h.ws.owner.key, CREATE, { n: 'zapier', s: ['records'] });
    const { key, api_key } = made.data.createApiKey;
    expect(api_key).toMatchObject({ name: 'zapier', scopes: ['records'], last_four: key.slice(-4), user_email: 'owner@e2e.test', revoked_at: null });
    expect(await callTool(h, 'bridge', key, 'records.search', { query: 'x' })).toMatchObject({ ok: true });
    expect(await callTool(h, 'mcp', key, 'notes.list', {})).toMatchObject({ ok: false, code: 'permission_denied' });

    const revoked = await gql(h.ws.owner.key, 'mutation($k: String!) { revokeApiKey(key_id: $k) { revoked_at } }', { k: api_key.key_id });
    expect(revoked.data.revokeApiKey.revoked_at).toMatch(/^\d{4}-/);
    expect(await callTool(h, 'rest', key, 'records.search', { query: 'x' })).toMatchObject({ ok: false, status: 401, code: 'unauthorized' });
  });

  it('names the unknown scope and suggests the nearest', async () => {
    const answer = await gql(h.ws.owner.key, CREATE, { n: 'typo', s: ['recods'] });
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', details: { param: 'scopes', suggestion: 'records' } });
  });

  it("never reaches another workspace's keys or members", async () => {
    const theirs = await gql(h.other.owner.key, '{ settings { api_keys { key_id } members { id } } }');
    const keyId = theirs.data.settings.api_keys[0].key_id;
    const revoke = await gql(h.ws.owner.key, 'mutation($k: String!) { revokeApiKey(key_id: $k) { key_id } }', { k: keyId });
    expect(revoke.errors?.[0]?.extensions.code).toBe('not_found');
    const role = await gql(h.ws.owner.key, 'mutation($u: String!) { setMemberRole(user_id: $u, role: "member") { id } }', { u: theirs.data.settings.members[0].id });
    expect(role.errors?.[0]?.extensions.code).toBe('not_found');
    const forOther = await gql(h.ws.owner.key, CREATE, { n: 'x', s: [], u: h.other.owner.user_id });
    expect(forOther.errors?.[0]?.extensions.code).toBe('not_found');
  });

  it('adds a member, changes a role with effect on the next call, and keeps the last owner', async () => {
    const w = await h.newWorkspace();
    const added = await gql(w.owner.key, 'mutation { addMember(email: "New@E2E.test", role: "member") { id email role } }');
    expect(added.data.addMember).toMatchObject({ email: 'new@e2e.test', role: 'member' });
    const again = await gql(w.owner.key, 'mutation { addMember(email: "new@e2e.test", role: "admin") { id } }');
    expect(again.errors?.[0]?.extensions.code).toBe('conflict');

    const promote = await gql(w.owner.key, 'mutation($u: String!) { setMemberRole(user_id: $u, role: "owner") { role } }', { u: w.admin.user_id });
    expect(promote.data.setMemberRole.role).toBe('owner');
    expect((await gql(w.admin.key, '{ settings { workspace { plan } } }')).errors).toBeUndefined();

    const demoteSelf = await gql(w.owner.key, 'mutation($u: String!) { setMemberRole(user_id: $u, role: "member") { role } }', { u: w.owner.user_id });
    expect(demoteSelf.data.setMemberRole.role).toBe('member');
    const last = await gql(w.admin.key, 'mutation($u: String!) { setMemberRole(user_id: $u, role: "admin") { role } }', { u: w.admin.user_id });
    expect(last.errors?.[0]?.extensions).toMatchObject({ code: 'conflict', details: { rule: 'last_owner' } });
  });

  it('sets the plan and trial end, which the next tool call sees', async () => {
    const w = await h.newWorkspace();
    const lapsed = await gql(w.owner.key, 'mutation { setPlan(plan: "", trial_ends_at: "2020-01-01T00:00:00Z") { plan trial_ends_at } }');
    expect(lapsed.data.setPlan).toEqual({ plan: null, trial_ends_at: '2020-01-01T00:00:00.000Z' });
    expect(await callTool(h, 'rest', w.owner.key, 'records.search', { query: 'x' })).toMatchObject({ ok: false, code: 'subscription_required' });
    const paid = await gql(w.owner.key, 'mutation { setPlan(plan: "team") { plan } }');
    expect(paid.data.setPlan.plan).toBe('team');
    expect(await callTool(h, 'rest', w.owner.key, 'records.search', { query: 'x' })).toMatchObject({ ok: true });
    // "none" clears the plan, as the CLI's --plan none does: no paid plan of that name lifts the lapsed trial.
    const none = await gql(w.owner.key, 'mutation { setPlan(plan: " None ") { plan } }');
    expect(none.data.setPlan.plan).toBeNull();
    expect(await callTool(h, 'rest', w.owner.key, 'records.search', { query: 'x' })).toMatchObject({ ok: false, code: 'subscription_required' });
    const bad = await gql(w.owner.key, 'mutation { setPlan(trial_ends_at: "soon") { plan } }');
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'validation_error', details: { param: 'trial_ends_at' } });
  });
});
