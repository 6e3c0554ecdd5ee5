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
 * Reads on the per-call path, shaped so each call costs one round trip to the store. Nothing
 * here is cached: revocations and role or plan changes, also made by another process, show in
 * the next read.
 */
export interface PerformanceStore {
  /** The key with this hash, its user and its workspace; null for an unknown hash. */
  findKeyHolder(hash: string): Promise<KeyHolder | null>;
}
