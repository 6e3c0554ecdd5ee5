import { RequestCache } from '@pothos/plugin-scope-auth';
import type { Actor } from '../domain/actor.ts';
import type { Services } from '../domain/services/context.ts';
import { createServices } from '../domain/services/context.ts';
import { countCall } from '../domain/comms/usage.ts';
import type { Store } from '../domain/store/port.ts';

/** What every resolver sees: who is calling, and the domain services bound to them. */
export interface GraphQLContext {
  actor: Actor;
  services: Services;
  /** The `<prefix>` of new API keys (KEY_PREFIX); only the settings mutations read it. */
  keyPrefix: string;
}

/**
 * One context per call: the call is counted here, below every transport, for billing.get's usage
 * (`calls`: a /graphql operation counts one per root field, as the rate limiter does; 0 when its
 * caller counts them itself). Run an operation with it once, then release it (releaseContext).
 */
export function createContext(store: Store, actor: Actor, keyPrefix = 'crm', calls = 1): GraphQLContext {
  countCall(store, actor.workspace_id, actor.via, calls);
  return { actor, services: createServices(store, actor), keyPrefix };
}

/**
 * Drops the scope plugin's cache of a call once its operation has run. Pothos keeps it in a
 * module-wide WeakMap keyed by the context, and the cache holds the context: an entry whose value
 * reaches its own key. V8's young-generation GC keeps the values of such a table's young entries,
 * so every call's cache, context, services and what they reached survived each scavenge and was
 * promoted, to wait for a full GC. Deleted, the entry is ordinary garbage that dies young.
 * Idempotent; a context used again afterwards gets a fresh cache.
 */
export function releaseContext(context: object): void {
  RequestCache.clearForContext(context);
}
