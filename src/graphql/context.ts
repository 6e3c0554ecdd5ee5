import type { Actor } from '../domain/actor.ts';
import type { Services } from '../domain/services/context.ts';
import { createServices } from '../domain/services/context.ts';
import type { Store } from '../domain/store/port.ts';

/** What every resolver sees: who is calling, and the domain services bound to them. */
export interface GraphQLContext {
  actor: Actor;
  services: Services;
}

export function createContext(store: Store, actor: Actor): GraphQLContext {
  return { actor, services: createServices(store, actor) };
}
