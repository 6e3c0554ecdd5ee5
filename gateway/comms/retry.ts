import type { Store } from '../../src/domain/store/port.ts';
import type { Comm, CommKind } from '../../src/domain/store/port-comms.ts';
import type { NewEvent } from '../../src/domain/store/port-work.ts';
import type { ResourceType } from '../../src/domain/types.ts';
import type { Logger } from '../logger.ts';

/** How long a claimed item stays invisible to other workers: a crash mid-send retries it after this. */
export const LEASE_MS = 120_000;

/** How outbound work is retried: exponential backoff from `baseMs`, `failed` after `maxAttempts`. */
export interface RetryPolicy {
  baseMs: number;
  maxAttempts: number;
}

/** When to try again after `attempts` failed tries: base, 2×base, 4×base, … */
export function nextAttemptAt(policy: RetryPolicy, attempts: number, now = Date.now()): string {
  return new Date(now + policy.baseMs * 2 ** Math.max(0, attempts - 1)).toISOString();
}

/** A status change made by the service itself (no user, key or tool), for the timeline. */
export function systemEvent(type: ResourceType, item: Comm, before: string, after: string): NewEvent {
  return {
    actor_id: null, key_id: null, via: null, tool: null, action: 'update', resource_type: type, resource_id: item.id,
    record_ids: item.record_ids, diff: { status: { before, after } },
  };
}

/**
 * Records one failed try: back to the queue with the next backoff, or `failed` with the reply
 * once the attempts are used up. Returns the new status.
 */
export async function recordFailure(
  store: Store, item: Comm, policy: RetryPolicy, reply: Record<string, unknown>, status: { retry: string; failed: string; type?: ResourceType },
): Promise<string> {
  const attempts = item.attempts + 1;
  const data = { ...item.data, ...reply };
  if (attempts >= policy.maxAttempts) {
    const events = status.type ? [systemEvent(status.type, item, item.status, status.failed)] : [];
    await store.updateComm(item.workspace_id, item.kind, item.id, { status: status.failed, attempts, data, next_attempt_at: null }, events);
    return status.failed;
  }
  await store.updateComm(item.workspace_id, item.kind, item.id, { status: status.retry, attempts, data, next_attempt_at: nextAttemptAt(policy, attempts) });
  return status.retry;
}

/**
 * Claims due items of a kind (with a lease, so replicas never take the same one) and works them
 * one by one, at most `limit` in a round; a failure to record one outcome is logged and does not
 * stop the others. Items are claimed a few at a time, as many as `itemMs` (the longest one item's
 * work may take) lets finish within half the lease: a batch claimed whole could outlast its lease
 * behind slow servers (ten emails at up to 50 s each against 120 s), and another replica then
 * claimed and sent its last items again. With `together`, the items of one claim are worked at
 * once: webhook deliveries, so one workspace's slow receiver holds the others' for one timeout,
 * not one timeout per delivery of it (nine slow deliveries kept another workspace's for 94 s).
 */
export async function workDue(
  store: Store, kind: CommKind, status: string, limit: number, itemMs: number, logger: Logger, work: (item: Comm) => Promise<void>,
  together = false,
): Promise<number> {
  const chunk = Math.max(1, Math.min(limit, Math.floor(LEASE_MS / 2 / itemMs)));
  const one = async (item: Comm): Promise<void> => {
    try {
      await work(item);
    } catch (error) {
      logger.error(`${kind}: could not record a delivery outcome`, { id: item.id, error: String((error as Error).message) });
    }
  };
  let worked = 0;
  while (worked < limit) {
    const now = Date.now();
    const due = await store.claimDueComms(kind, [status], new Date(now).toISOString(), new Date(now + LEASE_MS).toISOString(), Math.min(chunk, limit - worked));
    if (together) await Promise.all(due.map(one));
    else for (const item of due) await one(item);
    worked += due.length;
    if (due.length < chunk) break;
  }
  return worked;
}
