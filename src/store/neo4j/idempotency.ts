import type { IdempotencyClaim, IdempotencyClaimInput, IdempotencyRecord } from '../../domain/store/port-idempotency.ts';
import type { Connection, Row } from './connection.ts';
import * as Q from './cypher/idempotency.ts';
import { bind } from './statement.ts';

function toRecord(row: Row): IdempotencyRecord {
  return {
    fingerprint: String(row.fingerprint), state: row.state === 'done' ? 'done' : 'pending',
    outcome: row.outcome == null ? null : String(row.outcome), claimed_at: String(row.claimed_at), expires_at: String(row.expires_at),
  };
}

/** Idempotency-key methods of the Neo4j Store (cypher/idempotency.ts has the statements). */
export function idempotencyMethods(conn: Connection) {
  return {
    async claimIdempotencyKey(input: IdempotencyClaimInput): Promise<IdempotencyClaim> {
      return conn.write(async (tx) => {
        await tx.rows(bind(Q.PURGE_IDEMPOTENCY, { now: input.now }));
        const row = (await tx.first(bind(Q.CLAIM_IDEMPOTENCY, { ...input })))!;
        return row.claimed ? { claimed: true } : { claimed: false, record: toRecord(row) };
      });
    },
    async getIdempotencyKey(keyId: string, key: string, now: string): Promise<IdempotencyRecord | null> {
      const row = await conn.read((tx) => tx.first(bind(Q.GET_IDEMPOTENCY, { key_id: keyId, key, now })));
      return row ? toRecord(row) : null;
    },
    async completeIdempotencyKey(keyId: string, key: string, outcome: string): Promise<void> {
      await conn.write((tx) => tx.rows(bind(Q.COMPLETE_IDEMPOTENCY, { key_id: keyId, key, outcome })));
    },
    async releaseIdempotencyKey(keyId: string, key: string): Promise<void> {
      await conn.write((tx) => tx.rows(bind(Q.RELEASE_IDEMPOTENCY, { key_id: keyId, key })));
    },
  };
}
