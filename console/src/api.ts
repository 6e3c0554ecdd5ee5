/**
 * The console's only way to the server: the tools over per-tool REST and workspace settings over
 * /graphql, with the signed-in key in the Authorization header. The key lives in sessionStorage
 * (gone when the tab closes) and never in a URL.
 */

const KEY_ITEM = 'crm.console.key';
const REST_PREFIX = '/v1';

export function currentKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function signIn(key: string): void {
  sessionStorage.setItem(KEY_ITEM, key.trim());
}

export function signOut(): void {
  sessionStorage.removeItem(KEY_ITEM);
}

/** What to do when the server refuses the signed-in key (revoked meanwhile): set by the shell. */
let keyRefused: ((message: string) => void) | null = null;

export function whenKeyRefused(handler: (message: string) => void): void {
  keyRefused = handler;
}

/** A 401 ends the session: the key is forgotten and the shell asks for another. */
function refused(status: number, message: string): void {
  if (status !== 401 || !currentKey()) return;
  signOut();
  keyRefused?.(message);
}

/** A refusal or failure from the server, with the service's error code. */
export class ApiError extends Error {
  constructor(message: string, readonly code: string, readonly status: number) {
    super(message);
  }
}

function headers(): Record<string, string> {
  return { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${currentKey() ?? ''}` };
}

/** Calls one tool (`records.search`, …) and resolves to its result. */
export async function tool<T = any>(name: string, params: Record<string, unknown> = {}): Promise<T> {
  const [category, action] = name.split('.');
  const res = await fetch(`${REST_PREFIX}/${category}/${action}`, { method: 'POST', headers: headers(), body: JSON.stringify(params) });
  const body = await res.json().catch(() => ({ error: `${res.status} ${res.statusText}`, code: 'internal_error' }));
  if (!res.ok) {
    refused(res.status, body.error ?? '');
    throw new ApiError(body.error ?? `${res.status}`, body.code ?? 'internal_error', res.status);
  }
  return body as T;
}

/** Runs one GraphQL operation; the first error becomes an ApiError with its extensions.code. */
export async function gql<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch('/graphql', { method: 'POST', headers: headers(), body: JSON.stringify({ query, variables }) });
  const body = await res.json().catch(() => ({ errors: [{ message: `${res.status} ${res.statusText}` }] }));
  refused(res.status, body.error ?? body.errors?.[0]?.message ?? '');
  if (body.code && body.error) throw new ApiError(body.error, body.code, res.status);
  const first = body.errors?.[0];
  if (first) throw new ApiError(first.message, first.extensions?.code ?? 'internal_error', res.status);
  return body.data as T;
}
