import type { Actor } from '../../src/domain/actor.ts';
import { createServices, type Services } from '../../src/domain/services/context.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { Dice, seeded } from './random.ts';

/** What every family's seed step gets, and what earlier steps made (later families build on it). */
export interface SeedContext {
  store: Store;
  services: Services;
  dice: Dice;
  /** Multiplies every count; 1 is the full demo (a few hundred companies, a few thousand contacts). */
  scale: number;
  /** `addresses[i]` is the email address of `contacts[i]`. */
  made: { companies: string[]; contacts: string[]; deals: string[]; addresses: string[] };
  /** What each step made, by name, for the command's answer. */
  counts: Record<string, number>;
  /** The seed in base 36, put into unique values (domains, emails) so seeds do not collide in one workspace. */
  tag: string;
}

export function seedContext(store: Store, actor: Actor, scale: number, seed: number): SeedContext {
  return {
    store, services: createServices(store, actor), dice: new Dice(seeded(seed)), scale,
    made: { companies: [], contacts: [], deals: [], addresses: [] }, counts: {}, tag: seed.toString(36),
  };
}

/** `n` scaled, at least 1. */
export const scaled = (ctx: SeedContext, n: number): number => Math.max(1, Math.round(n * ctx.scale));
