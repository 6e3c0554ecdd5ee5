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

/** One context per call: the call is counted here, below every transport, for billing.get's usage. */
export function createContext(store: Store, actor: Actor, keyPrefix = 'crm'): GraphQLContext {
  countCall(store, actor.workspace_id, actor.via);
  return { actor, services: createServices(store, actor), keyPrefix };
}
