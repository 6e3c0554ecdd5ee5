import { isIdOf } from '../../domain/ids.ts';
import type { RecordData } from '../../domain/types.ts';

/**
 * The one encoding of record data in the graph:
 *
 * - `Record.data` holds the whole data object as a JSON string: the source of truth, lossless for
 *   any JSON value (nested objects, mixed arrays), and the only thing reads decode.
 * - One `(:Record)-[:HAS_VALUE]->(:FieldValue {field, t, lt, n})` node per distinct scalar of a
 *   field (one per array element), derived from `data` on every write, exactly as the SQLite
 *   adapter fills its value table: non-empty strings go to `t` (and ASCII-lower-cased to `lt`),
 *   finite numbers to `n`, booleans to `n` as 0/1; null, empty strings, empty arrays and nested
 *   objects get no node, so filters treat them as missing.
 * - `Record.search_text` holds the record's words for the full-text index (see below).
 *
 * Filters and sorting read only FieldValue nodes, so no Cypher text ever names a data field.
 */

export interface FieldValueProps {
  field: string;
  t: string | null;
  lt: string | null;
  n: number | null;
}

/** Lower-cases A-Z only, as SQLite's LIKE compares: other characters match exactly. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/** The FieldValue nodes of a record's data, in data order, distinct per field. */
export function fieldValues(data: RecordData): FieldValueProps[] {
  const out: FieldValueProps[] = [];
  for (const [field, value] of Object.entries(data)) {
    const seen = new Set<string>();
    for (const item of Array.isArray(value) ? value : [value]) {
      let props: FieldValueProps | null = null;
      if (typeof item === 'string' && item !== '') props = { field, t: item, lt: asciiLower(item), n: null };
      else if (typeof item === 'number' && Number.isFinite(item)) props = { field, t: null, lt: null, n: item };
      else if (typeof item === 'boolean') props = { field, t: null, lt: null, n: Number(item) };
      const key = props && (props.t !== null ? `t${props.t}` : `n${props.n}`);
      if (props && key && !seen.has(key)) {
        seen.add(key);
        out.push(props);
      }
    }
  }
  return out;
}

/**
 * Full-text encoding. Words are what SQLite's unicode61 tokenizer (remove_diacritics 2) makes of
 * the same text: runs of letters and digits, diacritics removed, lower-cased. The adapter writes
 * them space-separated and the index uses the whitespace analyzer, so both stores agree on what
 * a word is. Marker tokens `_<workspace id>` and `_<object type id>` (lower-cased) scope a query
 * inside Lucene; no typed word can match them, because typed words never start with `_`.
 */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const MAX_QUERY_WORDS = 16;

function words(text: string): string[] {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
}

const marker = (id: string): string => `_${id.toLowerCase()}`;

/** Whether a string is worth searching: record and user ids held by reference fields are not. */
const searchable = (value: string): boolean => value.trim() !== '' && !isIdOf('record', value) && !isIdOf('user', value);

/** `Record.search_text`, or null when the record has no searchable word. */
export function searchText(workspaceId: string, objectTypeId: string, data: RecordData): string | null {
  const found = Object.values(data)
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((value): value is string => typeof value === 'string' && searchable(value))
    .flatMap(words);
  return found.length === 0 ? null : [marker(workspaceId), marker(objectTypeId), ...found].join(' ');
}

export interface LuceneSearch {
  /** The Lucene query: the scope's marker and every word as a prefix, all required. */
  lucene: string;
  /** The typed words as `search_text` holds words: the hits holding all of them whole rank first. */
  words: string[];
}

/**
 * The Lucene query for what a user typed: every word must match as a prefix, inside the scope's
 * marker (`+_ws_… +acme* +rock*`). Query syntax in the input is only ever a separator. Null when
 * the input holds no word (the search then finds nothing).
 */
export function searchQuery(text: string, scopeId: string): LuceneSearch | null {
  const typed = (text.match(WORD) ?? []).slice(0, MAX_QUERY_WORDS).flatMap(words);
  if (typed.length === 0) return null;
  return { lucene: [`+${marker(scopeId)}`, ...typed.map((w) => `+${w}*`)].join(' '), words: typed };
}
