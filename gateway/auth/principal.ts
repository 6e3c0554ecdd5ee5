import type { IncomingMessage } from 'node:http';
import { hashKey, inspectKey, sameHash } from '../../src/domain/api-keys.ts';
import { CrmError } from '../../src/domain/errors.ts';
import type { Store } from '../../src/domain/store/port.ts';
import type { Principal } from '../tools/invoke.ts';

const TOUCH_INTERVAL_MS = 60_000;
const lastTouched = new Map<string, number>();

function unauthorized(message: string): CrmError {
  return new CrmError('unauthorized', message);
}

/**
 * Every `Authorization` field line of a request, in order. Node keeps only the first in
 * `req.headers` and drops the others silently, so a request carrying two keys would act as
 * whichever came first; the raw lines show them all. Most requests have one line, found without
 * building `req.headersDistinct` for every header.
 */
export function authorizationLines(req: IncomingMessage): string[] {
  if (req.headers.authorization === undefined) return [];
  const raw = req.rawHeaders;
  const lines: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization') lines.push(raw[i + 1]!);
  }
  return lines;
}

/**
 * Resolves `Authorization: Bearer <key>` to the calling principal. `header` is the header's value,
 * or every line of it (`authorizationLines`): more than one line is refused, never resolved to one
 * of the keys, since which credential the caller meant cannot be told. The key, the user's role and
 * the workspace's plan are asked of the store on every call, in one read (which SQLite answers
 * from its cache only while no write anywhere could have changed it), so revocations and role or
 * plan changes (also made by the CLI while the server runs) apply to the next call.
 */
export async function authenticate(store: Store, lines: string | readonly string[] | undefined, prefix: string): Promise<Principal> {
  if (typeof lines !== 'string' && lines !== undefined && lines.length > 1) {
    throw unauthorized(`the request has ${lines.length} Authorization headers; send exactly one, "Authorization: Bearer <API_KEY>"`);
  }
  const header = typeof lines === 'string' ? lines : lines?.[0];
  if (!header) throw unauthorized('missing API key: send the header "Authorization: Bearer <API_KEY>"');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('the Authorization header must be "Bearer <API_KEY>"');
  const key = match[1]!;
  // Shape and checksum first: a mistyped key is refused without touching the store.
  const shape = inspectKey(key);
  if (!shape.ok && shape.reason === 'checksum') throw unauthorized('invalid API key: its checksum does not match (mistyped or truncated?)');
  if (!shape.ok || shape.prefix !== prefix) throw unauthorized(`malformed API key: expected "${prefix}_live_<random>"`);
  const hash = hashKey(key);
  const holder = await store.findKeyHolder(hash);
  if (!holder || !sameHash(holder.key.hash, hash)) throw unauthorized('invalid API key');
  const { key: row, user, workspace } = holder;
  if (row.revoked_at) throw unauthorized('this API key was revoked');
  if (!user || !workspace) throw unauthorized('the user or workspace of this API key no longer exists');
  touch(store, row.id);
  return {
    workspace_id: workspace.id, user_id: user.id, role: user.role, key_id: row.id, scopes: row.scopes,
    plan: workspace.plan, trial_ends_at: workspace.trial_ends_at,
  };
}

/** Records last use at most once a minute per key, off the request's critical path. */
function touch(store: Store, keyId: string): void {
  const now = Date.now();
  if (now - (lastTouched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
  lastTouched.set(keyId, now);
  store.touchApiKey(keyId, new Date(now).toISOString()).catch(() => lastTouched.delete(keyId));
}
