/**
 * Idempotency keys of the Store port: the first answer to a write sent with an `Idempotency-Key`,
 * kept per API key id so a retry replays it. The claim is made in the store, not in the process,
 * so it holds across gateway replicas sharing one database.
 */
export interface IdempotencyRecord {
  /** Hash of the tool and its parameters; the same key with other parameters is a conflict. */
  fingerprint: string;
  state: 'pending' | 'done';
  /** The stored answer (JSON) once done. */
  outcome: string | null;
  claimed_at: string;
  expires_at: string;
}

export interface IdempotencyClaimInput {
  key_id: string;
  key: string;
  fingerprint: string;
  now: string;
  expires_at: string;
  /** A pending claim made before this instant is abandoned (its process died) and may be taken over. */
  stale_before: string;
}

/** `claimed`: the caller runs the call. Otherwise the live record someone else holds. */
export type IdempotencyClaim = { claimed: true } | { claimed: false; record: IdempotencyRecord };

export interface IdempotencyStore {
  /**
   * In one atomic step: claims the key (a new pending record) unless a live record holds it; an
   * expired or stale one is replaced. Also purges expired keys of every API key (lazily, here).
   */
  claimIdempotencyKey(input: IdempotencyClaimInput): Promise<IdempotencyClaim>;
  /** The live record of a key, or null when there is none or it expired. */
  getIdempotencyKey(keyId: string, key: string, now: string): Promise<IdempotencyRecord | null>;
  /** Stores the answer of a claimed key and marks it done. */
  completeIdempotencyKey(keyId: string, key: string, outcome: string): Promise<void>;
  /** Drops a claim whose call failed for a reason worth retrying (the store was unavailable). */
  releaseIdempotencyKey(keyId: string, key: string): Promise<void>;
}
