import type { CallStyle, Role, Scope } from './types.ts';

/**
 * Who is calling: resolved once from the API key (or the CLI) and carried through every layer.
 * `role` is the creating user's role read at call time, so role changes apply on the next call.
 */
export interface Actor {
  workspace_id: string;
  user_id: string;
  role: Role;
  /** The API key's id, or null for operator calls from the CLI without a key. */
  key_id: string | null;
  /** Empty means every tool. */
  scopes: readonly Scope[];
  via: CallStyle;
  /** The tool being called: a tool call's, or on /graphql the one tool an operation's root fields run (null for several). */
  tool: string | null;
  /** The workspace's plan and trial end, read at call time. */
  plan: string | null;
  trial_ends_at: string | null;
}

/**
 * The actor of one call: the principal an API key resolved to, with the call style and tool. Spelled
 * out, not spread: V8 gives each object made as `{ ...principal, via, tool }` (a spread, then keys
 * the spread did not have) a hidden class of its own, so every property read of a call's actor,
 * in the scope checks and services, missed its inline cache and was looked up from scratch.
 */
export function actorOf(principal: Omit<Actor, 'via' | 'tool'>, via: CallStyle, tool: string | null): Actor {
  return {
    workspace_id: principal.workspace_id, user_id: principal.user_id, role: principal.role, key_id: principal.key_id,
    scopes: principal.scopes, via, tool, plan: principal.plan, trial_ends_at: principal.trial_ends_at,
  };
}

/** Owners and Admins write everything; Members write only what is assigned to them. */
export function canWriteAll(actor: Actor): boolean {
  return actor.role === 'owner' || actor.role === 'admin';
}

/**
 * Whether a plan as given or stored names no plan: blank, or `none` in any case (billing.get shows
 * no plan so). GraphQL's setPlan once stored "none" as a paid plan's name; stores read it as none.
 */
export function meansNoPlan(plan: string | null | undefined): boolean {
  const name = plan?.trim().toLowerCase() ?? '';
  return name === '' || name === 'none';
}

/** True when the trial has ended and no plan is active (then every tool answers subscription_required). */
export function subscriptionLapsed(actor: Pick<Actor, 'plan' | 'trial_ends_at'>, now = Date.now()): boolean {
  if (actor.plan) return false;
  if (!actor.trial_ends_at) return false;
  return Date.parse(actor.trial_ends_at) <= now;
}

/** True when the key's scopes allow the given category (empty scopes allow everything). */
export function hasScope(actor: Pick<Actor, 'scopes'>, scope: Scope): boolean {
  return actor.scopes.length === 0 || actor.scopes.includes(scope);
}
