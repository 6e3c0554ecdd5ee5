import type { ApiKey, User, Workspace } from '../types.ts';

/** An API key with the user it acts for and its workspace, as one read returns them. */
export interface KeyHolder {
  key: ApiKey;
  /** Null when the user no longer exists. */
  user: User | null;
  /** Null when the workspace no longer exists. */
  workspace: Workspace | null;
}

/**
 * Reads on the per-call path, shaped so each call costs one round trip to the store.
 * Revocations and role or plan changes, also made by another process, show in the next call.
 */
export interface PerformanceStore {
  /** The key with this hash, its user and its workspace; null for an unknown hash. */
  findKeyHolder(hash: string): Promise<KeyHolder | null>;
  /**
   * Marks one call in flight until the returned function runs; the gateway brackets every call
   * with it, from before authentication to the answer. A store that caches rows another process
   * may change can then check for that process's commits once per call begun rather than before
   * every cached read: a call still sees every commit made before it began. Synchronous.
   */
  beginCall(): () => void;
}
