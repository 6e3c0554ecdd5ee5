import { isChangedMeanwhile } from '../errors.ts';

/**
 * How many times an update is read, checked and written again when writes from elsewhere (another
 * process on the same store) keep coming between its read and its write. Each write that comes
 * between is one that landed, so this many in a row means that many other writers of the same row
 * at once; the caller then gets the `conflict` and sends the update again.
 */
export const MAX_UPDATE_ATTEMPTS = 50;

/** The read-modify-writes of this process waiting for a row, by row: each runs after the last. */
const turns = new Map<string, Promise<void>>();

/**
 * Runs a read-modify-write of one row so that no other write is lost. `attempt` reads the row,
 * validates the change against what it read, and writes with `unchanged_since` set to the
 * updated_at it read, so a write another one overtook throws changedMeanwhile instead of putting
 * back what that one changed; it is then redone on the new state, with its own diff for the
 * timeline. In this process the updates of one row (`key`) take turns, so they never overtake each
 * other and concurrent callers cost one attempt each, not one per caller before them; the retries
 * are for writers in other processes. Other errors, and the last attempt's, are the caller's.
 */
export async function updateInTurn<T>(key: string, attempt: (again: boolean) => Promise<T>): Promise<T> {
  const before = turns.get(key);
  let done!: () => void;
  const mine = new Promise<void>((resolve) => { done = resolve; });
  const tail = before ? before.then(() => mine) : mine;
  turns.set(key, tail);
  try {
    if (before) await before;
    return await untilUnchanged(attempt);
  } finally {
    done();
    if (turns.get(key) === tail) turns.delete(key);
  }
}

/**
 * Runs a write again, up to MAX_UPDATE_ATTEMPTS times, while it is refused as changed meanwhile:
 * also for a write validated against something (an object type) another call changed before the
 * write's transaction, which `attempt` reads again, not from what the call kept, when `again`.
 */
export async function untilUnchanged<T>(attempt: (again: boolean) => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt(tries > 1);
    } catch (error) {
      if (tries >= MAX_UPDATE_ATTEMPTS || !isChangedMeanwhile(error)) throw error;
    }
  }
}
