import { randomFillSync } from 'node:crypto';

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
  list: 'lst',
  entry: 'ent',
  view: 'viw',
  note: 'nte',
  task: 'tsk',
  report: 'rpt',
  event: 'evt',
  email: 'eml',
  message: 'msg',
  meeting: 'mtg',
  integration: 'int',
  ticket: 'tkt',
  delivery: 'dlv',
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

/**
 * Random bytes drawn from the CSPRNG a few kilobytes at a time: one call per id cost more than the
 * rest of the id (and a tenth of a bulk load that makes an id per link).
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

/** The next 16 random bytes of the pool, as base-32 digit values. */
function randomDigits(): number[] {
  if (used + 16 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const digits: number[] = [];
  for (let i = used; i < used + 16; i++) digits.push(pool[i]! % 32);
  used += 16;
  return digits;
}

function encodeRandom(): string {
  let out = '';
  for (const digit of randomDigits()) out += ALPHABET[digit];
  return out;
}

export function newId(kind: IdKind, now: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}_${encodeTime(now)}${encodeRandom()}`;
}

/** The last monotonic id's time and random digits (base-32 values), shared by every kind. */
let lastTime = -1;
let lastDigits: number[] = [];

/** Adds one to base-32 digits in place; false when they overflow (all were 31). */
function increment(digits: number[]): boolean {
  for (let i = digits.length - 1; i >= 0; i--) {
    if (digits[i]! < 31) {
      digits[i] = digits[i]! + 1;
      return true;
    }
    digits[i] = 0;
  }
  return false;
}

/**
 * An id like `newId` that also sorts after every monotonic id this process made before, even
 * within one millisecond or when the clock steps back: a later call in the same (or an earlier)
 * millisecond keeps the last time and adds one to the last random part (a monotonic ULID). Used
 * where order of writing matters, e.g. timeline events read newest first by id.
 */
export function newMonotonicId(kind: IdKind, now: number = Date.now()): string {
  if (now > lastTime) {
    lastTime = now;
    lastDigits = randomDigits();
  } else if (!increment(lastDigits)) {
    lastTime += 1;
    lastDigits = randomDigits();
  }
  return `${ID_PREFIXES[kind]}_${encodeTime(lastTime)}${lastDigits.map((d) => ALPHABET[d]).join('')}`;
}

const ID_SHAPE = /^[a-z]{2,4}_[0-9A-HJKMNP-TV-Z]{26}$/;

/** True when the value has the shape of an id of the given kind (it may still not exist). */
export function isIdOf(kind: IdKind, value: string): boolean {
  return ID_SHAPE.test(value) && value.startsWith(`${ID_PREFIXES[kind]}_`);
}

/** Each alphabet character's digit value, by char code. */
const DIGIT = new Int8Array(128);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;

/**
 * Writes a record id's 26 characters after `rec_` to `out[at..at+2]` as three numbers (10, 10 and
 * 6 base-32 digits, exact in a double) whose order is the ids' code-unit order: the alphabet is in
 * code-unit order and every such id has the same length. NaN in all three for an id of another
 * shape, which a caller then compares as a string.
 */
export function writeRecordIdKeys(id: string, out: Float64Array, at: number): void {
  if (!isIdOf('record', id)) {
    out[at] = out[at + 1] = out[at + 2] = Number.NaN;
    return;
  }
  for (let part = 0; part < 3; part++) {
    let value = 0;
    for (let i = 4 + part * 10, end = Math.min(i + 10, 30); i < end; i++) value = value * 32 + DIGIT[id.charCodeAt(i)]!;
    out[at + part] = value;
  }
}
