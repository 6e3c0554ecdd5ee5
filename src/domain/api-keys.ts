import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Key values are `<prefix>_live_<random>`: 32 random bytes in base62-ish base64url (43 chars). */
export const KEY_PATTERN = /^([a-z][a-z0-9]{1,15})_live_([A-Za-z0-9_-]{43})$/;

export interface GeneratedKey {
  key: string;
  hash: string;
  last_four: string;
}

/** A fresh key; only its hash and last four characters are ever stored. */
export function generateKey(prefix: string): GeneratedKey {
  const key = `${prefix}_live_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashKey(key), last_four: key.slice(-4) };
}

/**
 * SHA-256 suffices: keys carry 256 random bits, so a slow password hash adds latency to every
 * call without adding resistance to guessing.
 */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Constant-time equality of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
