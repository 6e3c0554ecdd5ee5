import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { IdempotencyClaimInput } from '../../../src/domain/store/port.ts';
import type { Harness } from './harness.ts';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const DAY = 24 * 60 * 60 * 1000;

/** A claim made `ms` after T0, expiring a day later, abandoned after two minutes pending. */
function claim(keyId: string, key: string, fingerprint: string, ms = 0): IdempotencyClaimInput {
  return { key_id: keyId, key, fingerprint, now: at(ms), expires_at: at(ms + DAY), stale_before: at(ms - 120_000) };
}

export function idempotencyCases(h: Harness): void {
  describe('idempotency keys', () => {
    it('lets the first claim run, shows the second the pending record, then the stored answer', async () => {
      const keyId = `key_${randomUUID()}`;
      expect(await h.store.claimIdempotencyKey(claim(keyId, 'k1', 'f1'))).toEqual({ claimed: true });
      const second = await h.store.claimIdempotencyKey(claim(keyId, 'k1', 'f1', 1000));
      expect(second).toMatchObject({ claimed: false, record: { fingerprint: 'f1', state: 'pending', outcome: null, claimed_at: at(0) } });
      await h.store.completeIdempotencyKey(keyId, 'k1', '{"ok":true}');
      expect(await h.store.getIdempotencyKey(keyId, 'k1', at(2000))).toMatchObject({ state: 'done', outcome: '{"ok":true}', expires_at: at(DAY) });
      expect(await h.store.claimIdempotencyKey(claim(keyId, 'k1', 'f2', 3000))).toMatchObject({ claimed: false, record: { fingerprint: 'f1', state: 'done' } });
    });

    it('keeps the same key of two API keys apart', async () => {
      const k = randomUUID();
      expect(await h.store.claimIdempotencyKey(claim(`key_a${k}`, k, 'f'))).toEqual({ claimed: true });
      expect(await h.store.claimIdempotencyKey(claim(`key_b${k}`, k, 'f'))).toEqual({ claimed: true });
    });

    it('gives exactly one of many concurrent claims', async () => {
      const keyId = `key_${randomUUID()}`;
      const claims = await Promise.all(Array.from({ length: 8 }, () => h.store.claimIdempotencyKey(claim(keyId, 'k', 'f'))));
      expect(claims.filter((c) => c.claimed)).toHaveLength(1);
    });

    it('forgets an expired key and lets a new claim take it', async () => {
      const keyId = `key_${randomUUID()}`;
      await h.store.claimIdempotencyKey(claim(keyId, 'k', 'f'));
      await h.store.completeIdempotencyKey(keyId, 'k', '{}');
      expect(await h.store.getIdempotencyKey(keyId, 'k', at(DAY + 1))).toBeNull();
      expect(await h.store.claimIdempotencyKey(claim(keyId, 'k', 'other', DAY + 1))).toEqual({ claimed: true });
    });

    it('lets a claim take over a pending one abandoned long ago, and a release free the key', async () => {
      const keyId = `key_${randomUUID()}`;
      await h.store.claimIdempotencyKey(claim(keyId, 'k', 'f'));
      expect((await h.store.claimIdempotencyKey(claim(keyId, 'k', 'f', 60_000))).claimed).toBe(false);
      expect(await h.store.claimIdempotencyKey(claim(keyId, 'k', 'f', 180_000))).toEqual({ claimed: true });
      await h.store.releaseIdempotencyKey(keyId, 'k');
      expect(await h.store.getIdempotencyKey(keyId, 'k', at(180_001))).toBeNull();
    });
  });
}
