import type { IdempotencyClaim, IdempotencyClaimInput, IdempotencyRecord } from '../../domain/store/port-idempotency.ts';
import type { Connection } from './connection.ts';

const COLUMNS = 'fingerprint, state, outcome, claimed_at, expires_at';

/** Synchronous idempotency-key methods of the Store: one upsert decides who runs the call. */
export function idempotencyMethods(c: Connection) {
  const live = (keyId: string, key: string, now: string) => c.get<IdempotencyRecord>(
    `SELECT ${COLUMNS} FROM idempotency_keys WHERE key_id = ? AND idem_key = ? AND expires_at > ?`, keyId, key, now,
  ) ?? null;

  return {
    claimIdempotencyKey(input: IdempotencyClaimInput): IdempotencyClaim {
      return c.tx(() => {
        c.run('DELETE FROM idempotency_keys WHERE expires_at <= ?', input.now);
        // The conflict branch only replaces an abandoned claim: the insert-or-takeover is one
        // statement, so two processes on one file cannot both claim the key.
        const claimed = c.run(`INSERT INTO idempotency_keys (key_id, idem_key, ${COLUMNS}) VALUES (?, ?, ?, 'pending', NULL, ?, ?)
          ON CONFLICT (key_id, idem_key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'pending', outcome = NULL,
            claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
          WHERE idempotency_keys.state = 'pending' AND idempotency_keys.claimed_at < ?`,
        input.key_id, input.key, input.fingerprint, input.now, input.expires_at, input.stale_before).changes === 1;
        if (claimed) return { claimed: true } as const;
        return { claimed: false, record: live(input.key_id, input.key, input.now)! } as const;
      });
    },
    getIdempotencyKey: live,
    completeIdempotencyKey(keyId: string, key: string, outcome: string): void {
      c.run(`UPDATE idempotency_keys SET state = 'done', outcome = ? WHERE key_id = ? AND idem_key = ?`, outcome, keyId, key);
    },
    releaseIdempotencyKey(keyId: string, key: string): void {
      c.run(`DELETE FROM idempotency_keys WHERE key_id = ? AND idem_key = ? AND state = 'pending'`, keyId, key);
    },
  };
}
