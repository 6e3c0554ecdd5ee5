import { validationError } from '../errors.ts';
import { isIdOf } from '../ids.ts';
import type { FieldConfig, FieldDef, FieldType } from '../types.ts';
import { characterCount, dedupe, enumError, expectInteger, expectString, listNames, longerThan, typeError } from './checks.ts';

/**
 * One validator per field type. Each takes a value that is not null
 * (null means "no value" and is handled by the caller), checks it strictly and returns the value
 * to store, normalised:
 *
 * | type | accepts | stores |
 * |---|---|---|
 * | text | a string of at most 10,000 characters | as given |
 * | number | a JSON number from -1e15 to 1e15 (numeric strings are rejected) | the number |
 * | currency | such a number: an amount in major units of `config.currency_code` (default USD) | the number |
 * | checkbox | a boolean | the boolean |
 * | date | `YYYY-MM-DD`, a real calendar date | as given |
 * | timestamp | ISO-8601 date-time with `Z` or `±hh:mm` | `new Date(v).toISOString()` (UTC, ms) |
 * | select, status | one of `config.options`, case-sensitive (filters also take `retired_options`) | as given |
 * | multi_select | an array of options | de-duplicated, order kept |
 * | email | `local@domain.tld` | trimmed, lower-cased |
 * | phone | 7–20 digits; digits, spaces, `+ - ( ) .` only (`+` only first) | trimmed |
 * | url | `http(s)://host/...` or a bare domain `host/...`; host has a dot | trimmed, scheme and host lower-cased, path kept; bare stays bare |
 * | rating | an integer from 1 to `config.max` (default 5) | the integer |
 * | record_reference | a record id (`rec_…`); with `config.many` an array of them | the id; de-duplicated array |
 * | user | a user id (`usr_…`) | the id |
 *
 * Failures are validation_error with the parameter, a rule (`type`, `format`, `range`,
 * `max_length`, `enum`) and, for options, the allowed values and the nearest one.
 */

export type StoredScalar = string | number | boolean;
export type StoredValue = StoredScalar | string[];

/** What a validator needs to know about a field. */
export type FieldShape = Pick<FieldDef, 'type' | 'config'>;

type ScalarCheck = (value: unknown, param: string, config: FieldConfig) => StoredScalar;

export const TEXT_MAX_LENGTH = 10_000;
export const DEFAULT_RATING_MAX = 5;
/** The highest `max` a rating field may have. */
export const RATING_MAX_LIMIT = 10;
export const DEFAULT_CURRENCY = 'USD';

function text(value: unknown, param: string): string {
  return boundedText(expectString(value, param), param);
}

/**
 * A text of at most TEXT_MAX_LENGTH characters and without NUL (U+0000), which the gateway refuses
 * in any parameter and a CSV import could still bring: SQLite's LIKE stops reading at one.
 */
export function boundedText(s: string, param: string): string {
  if (longerThan(s, TEXT_MAX_LENGTH)) {
    throw validationError(param, `${param} must be at most ${TEXT_MAX_LENGTH} characters, got ${characterCount(s)}`, { rule: 'max_length', max: TEXT_MAX_LENGTH });
  }
  if (s.includes('\0')) throw validationError(param, `${param} holds a NUL character (U+0000), which is not text`, { rule: 'unicode' });
  return s;
}

/**
 * The largest magnitude a number or currency value may have. Reports and analytics add values up
 * (a sum over a million records of this size stays finite and far inside a double's range), and
 * two values of 1e308 used to make the pipeline's total Infinity, which no JSON answer can carry.
 */
export const NUMBER_MAX_MAGNITUDE = 1e15;

function finiteNumber(value: unknown, param: string, expected: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw typeError(param, expected, value);
  if (Math.abs(value) > NUMBER_MAX_MAGNITUDE) {
    const bound = value > 0 ? { rule: 'max', max: NUMBER_MAX_MAGNITUDE } : { rule: 'min', min: -NUMBER_MAX_MAGNITUDE };
    throw validationError(param, `${param} must be between -1e15 and 1e15, got ${value}`, bound);
  }
  return value;
}

function formatError(param: string, expected: string, value: unknown) {
  return validationError(param, `${param} must be ${expected}, got ${JSON.stringify(value)}`, { rule: 'format', expected });
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** True for a real day of the Gregorian calendar in years 1–9999. */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  const lengths = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= lengths[month - 1]!;
}

const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_EXPECTED = 'a date YYYY-MM-DD';

function date(value: unknown, param: string): string {
  const s = expectString(value, param, DATE_EXPECTED);
  if (!isDateText(s)) throw formatError(param, DATE_EXPECTED, s);
  return s;
}

/** True for `YYYY-MM-DD` naming a real day (isCalendarDate): `2026-02-30` is not one. */
export function isDateText(text: string): boolean {
  const m = DATE_SHAPE.exec(text);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

const TIMESTAMP_SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;
const TIMESTAMP_EXPECTED = 'an ISO-8601 timestamp with a time zone, e.g. 2026-01-31T09:30:00Z';

/**
 * An ISO-8601 timestamp with `Z` or `±hh:mm` as UTC text (`toISOString`), or null unless every part
 * is real: a calendar day, a time up to 23:59:59, an offset up to 23:59. `Date.parse` alone rolls
 * `2026-02-30T10:00Z` over to March 2nd and `10:61` to 11:01.
 */
export function isoTimestamp(text: string): string | null {
  const s = text.trim().toUpperCase();
  const m = TIMESTAMP_SHAPE.exec(s);
  const n = (i: number): number => Number(m?.[i] ?? 0);
  const valid = m !== null && isCalendarDate(n(1), n(2), n(3)) && n(4) <= 23 && n(5) <= 59 && n(6) <= 59 && n(7) <= 23 && n(8) <= 59;
  const iso = valid ? new Date(s).toISOString() : '';
  // Offsets can push year 1 or 9999 out of the four-digit range, where text order breaks.
  return /^\d{4}-/.test(iso) ? iso : null;
}

/**
 * isoTimestamp that also takes the offset in ISO-8601's basic form (`+0200`), as the time
 * parameters of tasks and meetings always have; a record's timestamp field keeps `±hh:mm`.
 */
export function zonedTimestamp(text: string): string | null {
  return isoTimestamp(text.trim().replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
}

/**
 * A date (`2026-12-01`: its first instant in UTC, or its last for `edge` 'end') or an ISO-8601
 * timestamp with a time zone, as UTC text; null unless it is a real day and time.
 */
export function dayOrTimestamp(text: string, edge: 'start' | 'end' = 'start'): string | null {
  if (isDateText(text)) return `${text}T${edge === 'end' ? '23:59:59.999' : '00:00:00.000'}Z`;
  return zonedTimestamp(text);
}

function timestamp(value: unknown, param: string): string {
  const iso = isoTimestamp(expectString(value, param, TIMESTAMP_EXPECTED));
  if (iso === null) throw formatError(param, TIMESTAMP_EXPECTED, value);
  return iso;
}

function option(value: unknown, param: string, config: FieldConfig): string {
  const options = config.options ?? [];
  const s = expectString(value, param, 'a string (one of the options)');
  if (options.includes(s)) return s;
  if (config.retired_options?.includes(s)) {
    throw validationError(param, `${param} ${JSON.stringify(s)} is a retired option: records may keep it, but it cannot be written; allowed: ${listNames(options)}`, {
      rule: 'enum', allowed: options, retired: true,
    });
  }
  throw enumError(param, s, options);
}

/** A filter's option: one the field offers or one it retired, which records may still hold. */
function filterOption(value: unknown, param: string, config: FieldConfig): string {
  const s = expectString(value, param, 'a string (one of the options)');
  if (config.options?.includes(s) || config.retired_options?.includes(s)) return s;
  throw enumError(param, s, [...(config.options ?? []), ...(config.retired_options ?? [])]);
}

const EMAIL_SHAPE = /^[^\s@"(),:;<>[\]\\]+@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}$/;

function email(value: unknown, param: string): string {
  const s = expectString(value, param, 'an email address').trim().toLowerCase();
  if (s.length > 254 || !EMAIL_SHAPE.test(s)) throw formatError(param, 'an email address like name@example.com', value);
  return s;
}

const PHONE_CHARS = /^\+?[0-9 ().-]+$/;

function phone(value: unknown, param: string): string {
  const s = expectString(value, param, 'a phone number').trim();
  const digits = s.replace(/\D/g, '').length;
  if (!PHONE_CHARS.test(s) || digits < 7 || digits > 20) {
    throw formatError(param, 'a phone number of 7 to 20 digits (digits, spaces and + - ( ) . only)', value);
  }
  return s;
}

const URL_SHAPE = /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^/?#\s]+)([/?#]\S*)?$/i;
const HOST_SHAPE = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::\d{1,5})?$/;
const URL_EXPECTED = 'an http(s) URL or a bare domain like acme.com';

function url(value: unknown, param: string): string {
  const s = expectString(value, param, URL_EXPECTED).trim();
  const m = URL_SHAPE.exec(s);
  const scheme = m?.[1]?.toLowerCase();
  const host = m?.[2]?.toLowerCase() ?? '';
  if (!m || (scheme !== undefined && scheme !== 'http' && scheme !== 'https') || !HOST_SHAPE.test(host)) {
    throw formatError(param, URL_EXPECTED, value);
  }
  return `${scheme !== undefined ? `${scheme}://` : ''}${host}${m[3] ?? ''}`;
}

function rating(value: unknown, param: string, config: FieldConfig): number {
  return expectInteger(value, param, 1, config.max ?? DEFAULT_RATING_MAX);
}

function idOf(kind: 'record' | 'user', example: string): ScalarCheck {
  const expected = `a ${kind} id (${example})`;
  return (value, param) => {
    const s = expectString(value, param, expected);
    if (!isIdOf(kind, s)) throw formatError(param, expected, s);
    return s;
  };
}

const SCALAR_CHECKS: { readonly [T in FieldType]: ScalarCheck } = {
  text,
  number: (v, p) => finiteNumber(v, p, 'a number'),
  currency: (v, p, c) => finiteNumber(v, p, `a number (an amount in ${c.currency_code ?? DEFAULT_CURRENCY})`),
  checkbox: (v, p) => {
    if (typeof v !== 'boolean') throw typeError(p, 'a boolean', v);
    return v;
  },
  date,
  timestamp,
  select: option,
  multi_select: option,
  status: option,
  email,
  phone,
  url,
  rating,
  record_reference: idOf('record', 'rec_ followed by 26 characters'),
  user: idOf('user', 'usr_ followed by 26 characters'),
};

/**
 * What a stored scalar of each type must be for the value index and every reader of it: its JSON
 * type, and for dates, timestamps and ids the one text form writes have always stored (dates and
 * timestamps are indexed and ordered as text). Not today's write rules (a length, a magnitude, an
 * email's shape, an option's membership): data written under earlier rules is kept by every later
 * write, so a store may hold what a write would now refuse. Each entry is what the value must be.
 */
const STORED_SCALARS: { readonly [T in FieldType]: readonly [expected: string, holds: (value: unknown) => boolean] } = (() => {
  const someText = ['a non-empty string', (v: unknown) => typeof v === 'string' && v !== ''] as const;
  const aNumber = ['a number', (v: unknown) => typeof v === 'number' && Number.isFinite(v)] as const;
  const anId = (kind: 'record' | 'user', example: string) => [`a ${kind} id (${example})`, (v: unknown) => typeof v === 'string' && isIdOf(kind, v)] as const;
  return {
    text: someText, email: someText, phone: someText, url: someText, select: someText, multi_select: someText, status: someText,
    number: aNumber, currency: aNumber,
    rating: ['a whole number', (v) => Number.isInteger(v)],
    checkbox: ['true or false', (v) => typeof v === 'boolean'],
    date: ['a date as YYYY-MM-DD', (v) => typeof v === 'string' && isDateText(v)],
    timestamp: ['a UTC timestamp as stored, e.g. 2026-01-31T09:30:00.000Z', (v) => typeof v === 'string' && isoTimestamp(v) === v],
    record_reference: anId('record', 'rec_ followed by 26 characters'),
    user: anId('user', 'usr_ followed by 26 characters'),
  };
})();

/**
 * Why a value a store holds cannot be the field's (STORED_SCALARS; for a multi-valued field, a
 * non-empty array of distinct such scalars), as what it must be; null when it can.
 */
export function storedValueProblem(field: FieldShape, value: unknown): string | null {
  const [expected, holds] = STORED_SCALARS[field.type];
  if (!isMultiValued(field)) return holds(value) ? null : expected;
  const many = `a non-empty array of distinct values, each ${expected}`;
  if (!Array.isArray(value) || value.length === 0 || !value.every(holds)) return many;
  return new Set(value).size === value.length ? null : many;
}

/** True when the field stores an array: multi_select, and record_reference with `many`. */
export function isMultiValued(field: FieldShape): boolean {
  return field.type === 'multi_select' || (field.type === 'record_reference' && field.config.many === true);
}

/** One value of the field's type; for a multi-valued field, one element (an option, a record id). */
export function validateScalar(field: FieldShape, value: unknown, param: string): StoredScalar {
  return SCALAR_CHECKS[field.type](value, param, field.config);
}

/**
 * One value a filter compares with, as validateScalar checks it, except for what records written
 * under an earlier definition may hold: an option the field retired, and a rating above a max
 * that was lowered since (any rating from 1 to 10).
 */
export function validateFilterScalar(field: FieldShape, value: unknown, param: string): StoredScalar {
  if (field.type === 'select' || field.type === 'status' || field.type === 'multi_select') return filterOption(value, param, field.config);
  // A rating's max may have been lowered since a record was rated: filters take any rating a max can allow.
  if (field.type === 'rating') return expectInteger(value, param, 1, RATING_MAX_LIMIT);
  return validateScalar(field, value, param);
}

/** The whole value to store for a non-null input; an array for multi-valued fields (may be empty). */
export function validateFieldValue(field: FieldShape, value: unknown, param: string): StoredValue {
  if (!isMultiValued(field)) return validateScalar(field, value, param);
  const expected = field.type === 'multi_select' ? 'an array of options' : 'an array of record ids';
  if (!Array.isArray(value)) throw typeError(param, expected, value);
  return dedupe(value.map((item, i) => validateScalar(field, item, `${param}[${i}]`) as string));
}

/**
 * The string a unique field's value is claimed under. Urls ignore their scheme and a trailing
 * slash, so `https://acme.com/` and `acme.com` cannot both be claimed.
 */
export function uniqueKey(field: FieldShape, value: StoredValue): string {
  const s = String(value);
  return field.type === 'url' ? s.replace(/^https?:\/\//, '').replace(/\/$/, '') : s;
}

/**
 * Every stored url that is the same value as `value` (a stored url) by uniqueKey: without a scheme,
 * with http:// or https://, each with and without a trailing slash. A filter's eq and in on a url
 * field match all of them, so "find acme.com, else create it" finds the record whose unique
 * `https://acme.com/` refuses the create.
 */
export function urlSpellings(value: string): string[] {
  const url: FieldShape = { type: 'url', config: {} };
  const key = uniqueKey(url, value);
  // Each spelling must have the value's key: a key ending in "/" (acme.com/ of acme.com//) is not
  // also spelt without it, which is the key acme.com of another value.
  return ['', 'http://', 'https://'].flatMap((scheme) => [`${scheme}${key}`, `${scheme}${key}/`]).filter((s) => uniqueKey(url, s) === key);
}
