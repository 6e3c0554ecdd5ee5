import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Key values are `<prefix>_live_<random><checksum>`: 40 base62 characters (about 238 random bits)
 * then the CRC32 of those 40 characters in 6 base62 characters. Base62 has no `-` or `_`, so a
 * double-click selects the whole key and the `_live_` split is unambiguous; the checksum lets a
 * secret scanner recognise a leaked key offline and lets us refuse a mistyped one before any
 * store lookup.
 */
export const KEY_PATTERN = /^([a-z][a-z0-9]{1,15})_live_([A-Za-z0-9]{46})$/;
/** Keys issued before the checksum: 32 random bytes in base64url (43 characters). They keep working. */
export const LEGACY_KEY_PATTERN = /^([a-z][a-z0-9]{1,15})_live_([A-Za-z0-9_-]{43})$/;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 40;
const CHECKSUM_LENGTH = 6;

export interface GeneratedKey {
  key: string;
  hash: string;
  last_four: string;
}

/** What a presented key looks like: its prefix, or why it cannot be a key of ours. */
export type KeyShape = { ok: true; prefix: string; legacy: boolean } | { ok: false; reason: 'malformed' | 'checksum' };

/** `length` uniformly random base62 characters (bytes ≥ 248 are dropped so `% 62` has no bias). */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** CRC32 of the random part, as 6 base62 digits (62^6 > 2^32), zero-padded. */
export function checksum(random: string): string {
  let n = crc32(random);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** A fresh key; only its hash and last four characters are ever stored. */
export function generateKey(prefix: string): GeneratedKey {
  const random = randomBase62(RANDOM_LENGTH);
  const key = `${prefix}_live_${random}${checksum(random)}`;
  return { key, hash: hashKey(key), last_four: key.slice(-4) };
}

/**
 * Checks a key's shape and checksum without any lookup: a current key whose checksum does not
 * match is a typo (or a forgery) and is refused here; a legacy key has no checksum to check.
 */
export function inspectKey(key: string): KeyShape {
  const current = KEY_PATTERN.exec(key);
  if (current) {
    const body = current[2]!;
    const random = body.slice(0, RANDOM_LENGTH);
    return checksum(random) === body.slice(RANDOM_LENGTH) ? { ok: true, prefix: current[1]!, legacy: false } : { ok: false, reason: 'checksum' };
  }
  const legacy = LEGACY_KEY_PATTERN.exec(key);
  return legacy ? { ok: true, prefix: legacy[1]!, legacy: true } : { ok: false, reason: 'malformed' };
}

/**
 * SHA-256 suffices: keys carry over 230 random bits, so a slow password hash adds latency to every
 * call without adding resistance to guessing.
 */
export function hashKey(key: string): string {
  // The one-shot form: a third of createHash's time, and every call hashes its key.
  return hash('sha256', key, 'hex');
}

/** Constant-time equality of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
