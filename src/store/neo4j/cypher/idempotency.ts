import { statement } from '../statement.ts';

/**
 * Idempotency keys are `(:IdempotencyKey {key_id, key, fingerprint, state, outcome, claimed_at,
 * expires_at})`, outside any workspace. The claim is one MERGE under the (key_id, key) constraint:
 * it takes the key when it is new, expired or abandoned, and otherwise returns who holds it.
 */
export const PURGE_IDEMPOTENCY = statement('purgeIdempotencyKeys', ['now'], `
MATCH (k:IdempotencyKey) WHERE k.expires_at <= $now
WITH k LIMIT 1000
DELETE k`);

export const CLAIM_IDEMPOTENCY = statement('claimIdempotencyKey', ['key_id', 'key', 'fingerprint', 'now', 'expires_at', 'stale_before'], `
MERGE (k:IdempotencyKey {key_id: $key_id, key: $key})
ON CREATE SET k.state = 'new'
WITH k, (k.state = 'new' OR k.expires_at <= $now OR (k.state = 'pending' AND k.claimed_at < $stale_before)) AS claimed
FOREACH (_ IN CASE WHEN claimed THEN [1] ELSE [] END |
  SET k.fingerprint = $fingerprint, k.state = 'pending', k.outcome = null, k.claimed_at = $now, k.expires_at = $expires_at)
RETURN claimed, k.fingerprint AS fingerprint, k.state AS state, k.outcome AS outcome, k.claimed_at AS claimed_at, k.expires_at AS expires_at`);

export const GET_IDEMPOTENCY = statement('getIdempotencyKey', ['key_id', 'key', 'now'], `
MATCH (k:IdempotencyKey {key_id: $key_id, key: $key}) WHERE k.expires_at > $now
RETURN k.fingerprint AS fingerprint, k.state AS state, k.outcome AS outcome, k.claimed_at AS claimed_at, k.expires_at AS expires_at`);

export const COMPLETE_IDEMPOTENCY = statement('completeIdempotencyKey', ['key_id', 'key', 'outcome'], `
MATCH (k:IdempotencyKey {key_id: $key_id, key: $key})
SET k.state = 'done', k.outcome = $outcome`);

export const RELEASE_IDEMPOTENCY = statement('releaseIdempotencyKey', ['key_id', 'key'], `
MATCH (k:IdempotencyKey {key_id: $key_id, key: $key}) WHERE k.state = 'pending'
DELETE k`);
