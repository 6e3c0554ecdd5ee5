import type { Store } from '../store/port.ts';
import { generateKey } from '../api-keys.ts';
import { meansNoPlan } from '../actor.ts';
import { CrmError, notFound, validationError } from '../errors.ts';
import { dayOrTimestamp } from '../fields.ts';
import { nearest } from '../suggest.ts';
import { STANDARD_OBJECT_TYPES } from '../standard-objects.ts';
import { ROLES, SCOPES, type ApiKey, type Role, type Scope, type User, type Workspace } from '../types.ts';

/**
 * Workspace settings: workspaces, members, API keys, plan and trial. Operator-level functions
 * used by the CLI and by Owner-only GraphQL mutations; callers check who may run them.
 */

export const DEFAULT_TRIAL_DAYS = 14;

export async function createWorkspace(
  store: Store,
  input: { name: string; plan?: string | null; trialDays?: number | null },
): Promise<Workspace> {
  const name = input.name.trim();
  if (!name) throw validationError('name', 'a workspace needs a name', { rule: 'required' });
  const days = input.trialDays === undefined ? DEFAULT_TRIAL_DAYS : input.trialDays;
  const trial_ends_at = days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString();
  return store.createWorkspace({ name, plan: planName(input.plan ?? null), trial_ends_at, objectTypes: [...STANDARD_OBJECT_TYPES] });
}

export async function requireWorkspace(store: Store, id: string): Promise<Workspace> {
  const ws = await store.getWorkspace(id);
  if (!ws) throw notFound('workspace', id);
  return ws;
}

export function parseRole(value: string): Role {
  if ((ROLES as readonly string[]).includes(value)) return value as Role;
  const suggestion = nearest(value, ROLES);
  throw validationError('role', `role must be one of ${ROLES.join(', ')}, got ${JSON.stringify(value)}`, {
    rule: 'enum', allowed: ROLES, ...(suggestion ? { suggestion } : {}),
  });
}

export function parseScopes(values: readonly string[]): Scope[] {
  const out: Scope[] = [];
  for (const raw of values) {
    const value = raw.trim();
    if (!value) continue;
    if (!(SCOPES as readonly string[]).includes(value)) {
      const suggestion = nearest(value, SCOPES);
      throw validationError('scopes', `unknown scope ${JSON.stringify(value)}${suggestion ? `; did you mean "${suggestion}"?` : ''}`, {
        rule: 'enum', allowed: SCOPES, ...(suggestion ? { suggestion } : {}),
      });
    }
    if (!out.includes(value as Scope)) out.push(value as Scope);
  }
  return out;
}

export async function addUser(store: Store, input: { workspace_id: string; email: string; name?: string | null; role: Role }): Promise<User> {
  await requireWorkspace(store, input.workspace_id);
  const email = userEmail(input.email);
  return store.createUser({ workspace_id: input.workspace_id, email, name: input.name ?? null, role: input.role });
}

/** A member's email as stored: trimmed and lower-cased; `validation_error` on `param` when it is not one. */
export function userEmail(given: string, param = 'email'): string {
  const email = given.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw validationError(param, `${param} ${JSON.stringify(given)} is not an email address`, { rule: 'format' });
  return email;
}

/** The users of a workspace (`not_found` for an unknown workspace, so a wrong store is noticed). */
export async function listUsers(store: Store, workspaceId: string): Promise<User[]> {
  await requireWorkspace(store, workspaceId);
  return store.listUsers(workspaceId);
}

export interface CreatedKey {
  key_id: string;
  /** Shown once; never stored. */
  key: string;
  api_key: ApiKey;
}

export async function createKey(
  store: Store,
  input: { workspace_id: string; user_id: string; name: string; scopes: Scope[]; prefix: string },
): Promise<CreatedKey> {
  await requireWorkspace(store, input.workspace_id);
  const user = await store.getUser(input.workspace_id, input.user_id);
  if (!user) throw notFound('user', input.user_id);
  if (!input.name.trim()) throw validationError('name', 'a key needs a name', { rule: 'required' });
  const generated = generateKey(input.prefix);
  const api_key = await store.createApiKey({
    workspace_id: input.workspace_id, user_id: user.id, name: input.name.trim(), scopes: input.scopes,
    hash: generated.hash, last_four: generated.last_four,
  });
  return { key_id: api_key.id, key: generated.key, api_key };
}

export async function listKeys(store: Store, workspaceId: string): Promise<ApiKey[]> {
  await requireWorkspace(store, workspaceId);
  return store.listApiKeys(workspaceId);
}

export async function revokeKey(store: Store, keyId: string): Promise<ApiKey> {
  const key = await store.revokeApiKey(keyId);
  if (!key) throw notFound('api_key', keyId);
  return key;
}

/** A trial end as given: a date is the first instant of its day (UTC); 2026-02-30 is refused, not March 2nd. */
function trialEnd(text: string): string {
  const at = dayOrTimestamp(text);
  if (at === null) throw validationError('trial_ends_at', `trial_ends_at must be a date (2026-12-01) or an ISO-8601 date-time with a time zone, got ${JSON.stringify(text)}`, { rule: 'format' });
  return at;
}

const PLAN_MAX_LENGTH = 64;

/**
 * A plan as given, trimmed; blank, null or `none` (any case, as billing.get shows no plan) clears
 * it, the workspace falling back to its trial, on every path alike (the CLI, GraphQL's setPlan,
 * the console). Any other name is a paid plan, so a lone space must not read as one, nor "none"
 * turn a lapsed trial into an active plan, nor may a name carry control characters into
 * billing.get and the console.
 */
function planName(plan: string | null): string | null {
  if (meansNoPlan(plan)) return null;
  const name = plan!.trim();
  if (name.length > PLAN_MAX_LENGTH || /[\u0000-\u001f\u007f]/.test(name)) {
    throw validationError('plan', `plan must be a name of at most ${PLAN_MAX_LENGTH} characters without control characters`, { rule: 'format', max: PLAN_MAX_LENGTH });
  }
  return name;
}

export async function setBilling(
  store: Store,
  input: { workspace_id: string; plan?: string | null; trial_ends_at?: string | null },
): Promise<Workspace> {
  await requireWorkspace(store, input.workspace_id);
  const patch: { plan?: string | null; trial_ends_at?: string | null } = {};
  if (input.plan !== undefined) patch.plan = planName(input.plan);
  if (input.trial_ends_at !== undefined) patch.trial_ends_at = input.trial_ends_at === null ? null : trialEnd(input.trial_ends_at);
  if (!Object.keys(patch).length) throw new CrmError('validation_error', 'give a plan or a trial end', { param: 'plan', rule: 'required' });
  return store.updateWorkspace(input.workspace_id, patch);
}
