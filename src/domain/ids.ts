import { randomBytes } from 'node:crypto';

/**
 * Identifiers are `<prefix>_<26 chars>`: 10 characters of millisecond time and 16 of randomness in
 * Crockford base32 (a ULID body), so ids sort by creation time and never collide in practice.
 */
export const ID_PREFIXES = {
  workspace: 'ws',
  user: 'usr',
  apiKey: 'key',
  objectType: 'obj',
  field: 'fld',
  record: 'rec',
  relation: 'rel',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function encodeRandom(): string {
  const bytes = randomBytes(16);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 32];
  return out;
}

export function newId(kind: IdKind, now: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}_${encodeTime(now)}${encodeRandom()}`;
}

const ID_SHAPE = /^[a-z]{2,4}_[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when the value has the shape of an id of the given kind (it may still not exist). */
export function isIdOf(kind: IdKind, value: string): boolean {
  return ID_SHAPE.test(value) && value.startsWith(`${ID_PREFIXES[kind]}_`);
}
