import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashKey } from '../../src/domain/api-keys.ts';
import { callTool, startHarness, STYLES, type Harness } from './harness.ts';

/** Key formats at the edge: the checksum refuses typos before the store is asked; old keys still work. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** A key in the format issued before checksums (base64url, 43 characters), stored the way old keys were. */
async function legacyKey(): Promise<string> {
  const key = `crm_live_${'Ab3-_x'.repeat(7)}Z`;
  await h.server.store.createApiKey({
    workspace_id: h.ws.id, user_id: h.ws.owner.user_id, name: 'legacy', scopes: [], hash: hashKey(key), last_four: key.slice(-4),
  });
  return key;
}

describe.each(STYLES)('API keys over %s', (style) => {
  it('accepts a key of the format issued before checksums', async () => {
    const key = style === 'rest' ? await legacyKey() : `crm_live_${'Ab3-_x'.repeat(7)}Z`;
    expect(key.length - 'crm_live_'.length).toBe(43);
    expect(await callTool(h, style, key, 'objects.list', {})).toMatchObject({ ok: true });
  });

  it('refuses a key with one character mistyped with 401 and never looks it up', async () => {
    const key = h.ws.owner.key;
    expect(await callTool(h, style, key, 'objects.list', {})).toMatchObject({ ok: true });
    const i = key.length - 10;
    const typo = key.slice(0, i) + (key[i] === 'q' ? 'r' : 'q') + key.slice(i + 1);
    const lookups = vi.spyOn(h.server.store, 'findApiKeyByHash');
    try {
      const out = await callTool(h, style, typo, 'objects.list', {});
      expect(out).toMatchObject({ ok: false, status: 401 });
      expect(out.ok || out.message).toContain('checksum');
      expect(lookups).not.toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
    }
  });
});
