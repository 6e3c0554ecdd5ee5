import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrmError, type ErrorCode } from '../../src/domain/errors.ts';
import type { Store } from '../../src/domain/store/port.ts';

/** The request header a write may carry; its answer is replayed to a retry with the same key. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim pending this long belongs to a process that died; a retry may take it over. */
const STALE_AFTER_MS = 2 * 60 * 1000;
/** How long a concurrent duplicate waits for the first call's answer before giving up with 409. */
const WAIT_MS = 30_000;
const POLL_MS = 20;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
/** Refusals about the caller's standing, not the request: once a plan or role changes, the retry should run. */
const ABOUT_THE_CALLER: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['permission_denied', 'subscription_required', 'rate_limited', 'unauthorized']);

type Outcome = { ok: true; result: unknown } | { ok: false; code: ErrorCode; message: string; details?: unknown };

/** Canonical JSON: object keys sorted, so the same parameters in another order are the same call. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function conflict(message: string): CrmError {
  return new CrmError('conflict', message, { param: IDEMPOTENCY_HEADER });
}

function replay(outcome: Outcome): unknown {
  if (outcome.ok) return outcome.result;
  throw new CrmError(outcome.code, outcome.message, outcome.details as CrmError['details']);
}

/**
 * The Idempotency-Key a request carries, or undefined when it has none. A header sent empty is
 * returned as '' (checkIdempotencyKey refuses it): read as absent, it ran the write unprotected,
 * which a client whose key came out empty would not know.
 */
export function idempotencyHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers['idempotency-key'];
  return value === undefined ? undefined : String(value);
}

/** The header's value checked: printable ASCII without spaces, 1–255 characters. */
export function checkIdempotencyKey(value: string): string {
  if (!KEY_SHAPE.test(value)) {
    throw new CrmError('validation_error', `${IDEMPOTENCY_HEADER}: 1 to 255 printable ASCII characters without spaces`, {
      param: IDEMPOTENCY_HEADER, rule: 'format',
    });
  }
  return value;
}

/**
 * Runs `call` at most once per (API key id, idempotency key) within 24 h. The store claim decides
 * who runs it, so duplicates on other replicas wait too. A refusal of the request (4xx) is an
 * answer and is kept; a 5xx, or a refusal about the caller's role or plan, releases the claim so a
 * retry runs again.
 */
export async function once(
  store: Store, scope: { keyId: string; key: string; tool: string; params: unknown }, call: () => Promise<unknown>,
): Promise<unknown> {
  const fingerprint = createHash('sha256').update(`${scope.tool}\n${canonical(scope.params)}`).digest('hex');
  const mismatch = () => conflict(`${IDEMPOTENCY_HEADER} ${JSON.stringify(scope.key)} was already used with other parameters or another tool; send a new key`);
  const started = Date.now();
  const claim = await store.claimIdempotencyKey({
    key_id: scope.keyId, key: scope.key, fingerprint, now: new Date(started).toISOString(),
    expires_at: new Date(started + IDEMPOTENCY_TTL_MS).toISOString(), stale_before: new Date(started - STALE_AFTER_MS).toISOString(),
  });
  if (!claim.claimed) {
    let record: typeof claim.record | null = claim.record;
    while (record?.state === 'pending' && record.fingerprint === fingerprint && Date.now() - started < WAIT_MS) {
      await sleep(POLL_MS);
      record = await store.getIdempotencyKey(scope.keyId, scope.key, new Date().toISOString());
    }
    if (!record) return once(store, scope, call); // released by a failed first call: run it now
    if (record.fingerprint !== fingerprint) throw mismatch();
    if (record.state === 'pending') throw conflict(`a request with ${IDEMPOTENCY_HEADER} ${JSON.stringify(scope.key)} is still in progress; retry later`);
    return replay(JSON.parse(record.outcome!) as Outcome);
  }
  let outcome: Outcome;
  try {
    outcome = { ok: true, result: await call() };
  } catch (err) {
    if (!(err instanceof CrmError) || err.status >= 500 || ABOUT_THE_CALLER.has(err.code)) {
      await store.releaseIdempotencyKey(scope.keyId, scope.key).catch(() => undefined);
      throw err;
    }
    outcome = { ok: false, code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) };
  }
  await store.completeIdempotencyKey(scope.keyId, scope.key, JSON.stringify(outcome));
  return replay(outcome);
}
