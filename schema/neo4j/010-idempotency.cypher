// Idempotency keys: the first answer to a write, per API key id, for 24 hours.
// Community edition only; every statement is IF NOT EXISTS.

// The claim MERGEs on this pair; the constraint makes concurrent claims of one key serialise.
CREATE CONSTRAINT idempotency_key IF NOT EXISTS
FOR (n:IdempotencyKey) REQUIRE (n.key_id, n.key) IS UNIQUE;

// The lazy purge of expired keys.
CREATE INDEX idempotency_expiry IF NOT EXISTS
FOR (n:IdempotencyKey) ON (n.expires_at);
