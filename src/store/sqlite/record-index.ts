import { changedMeanwhile } from '../../domain/errors.ts';
import { claimsOutdated } from '../../domain/fields/record-data.ts';
import { isIdOf } from '../../domain/ids.ts';
import type { RecordData } from '../../domain/types.ts';
import type { UniqueClaim } from '../../domain/store/port.ts';
import { perConnection, type Connection } from './connection.ts';
import { guard } from './errors.ts';
import { RECORDS, VALUES_PER_INSERT, type ItemSpace } from './items.ts';
import { recordSearchTerms } from './search-terms.ts';

/**
 * The derived rows of a live record: one `record_values` row per scalar (one per array element),
 * its text in `records_fts` with its `search_docs` row, and its unique claims. Soft delete removes
 * them, restore rebuilds. A batch of records (createRecords) writes its search rows at once; a
 * single record's are written behind (see catchUpSearch).
 * List entries have value rows of the same shape in `entry_values`.
 */

interface IndexedValue {
  text: string | null;
  num: number | null;
}

/**
 * Strings go to v_text, numbers and booleans (0/1) to v_num. Empty strings, empty arrays, null and
 * nested objects are not indexed, so filters treat them as missing.
 */
function indexedValues(value: unknown): IndexedValue[] {
  const out = new Map<string, IndexedValue>();
  for (const item of Array.isArray(value) ? value : [value]) {
    if (typeof item === 'string' && item !== '') out.set(`t${item}`, { text: item, num: null });
    else if (typeof item === 'number' && Number.isFinite(item)) out.set(`n${item}`, { text: null, num: item });
    else if (typeof item === 'boolean') out.set(`n${Number(item)}`, { text: null, num: Number(item) });
  }
  return [...out.values()];
}

/** Whether a string is worth searching: record and user ids held by reference fields are not. */
const searchable = (value: string): boolean => value.trim() !== '' && !isIdOf('record', value) && !isIdOf('user', value);

/** The text FTS indexes for a record: its string values (and string array elements), one a line. */
export function searchText(data: RecordData): string {
  return Object.values(data)
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((value): value is string => typeof value === 'string' && searchable(value))
    .join('\n');
}

export interface IndexTarget {
  pk: number;
  object_type_pk: number;
  id: string;
}

/** A live record and its data, as the batch index writers take them. */
export interface IndexItem {
  record: IndexTarget;
  data: RecordData;
}

/** Writes the value rows of an item's data (records and entries alike, see items.ts). */
export function indexValues(c: Connection, space: ItemSpace, itemPk: number, scopePk: number, data: RecordData): void {
  for (const row of valueRows([], itemPk, scopePk, data)) c.run(space.insertValue, ...row);
}

export function unindexValues(c: Connection, space: ItemSpace, itemPk: number): void {
  c.run(`DELETE FROM ${space.values} WHERE ${space.itemKey} = ?`, itemPk);
}

/** The value rows of one live record now, its search rows behind (see catchUpSearch). */
export function indexRecord(c: Connection, record: IndexTarget, data: RecordData): void {
  indexValues(c, RECORDS, record.pk, record.object_type_pk, data);
  oweSearchRows(c, record.pk);
}

/** A value row as `insertValue` binds it: item pk, scope pk, field, seq, v_text, v_num. */
export type ValueRow = [number, number, string, number, string | null, number | null];
const VALUE_COLUMNS = 6;

/**
 * Appends the value rows of an item's data to `out`: one per indexed scalar, `seq` numbering a
 * field's values from 0 (the key's last part, so bulk and single writes must number alike).
 */
export function valueRows(out: ValueRow[], itemPk: number, scopePk: number, data: RecordData): ValueRow[] {
  for (const [field, value] of Object.entries(data)) {
    const values = indexedValues(value);
    for (let seq = 0; seq < values.length; seq++) out.push([itemPk, scopePk, field, seq, values[seq]!.text, values[seq]!.num]);
  }
  return out;
}

/** Orders value rows as the value indexes hold them: (scope, field, text or number). */
export function byIndexOrder(a: ValueRow, b: ValueRow): number {
  if (a[1] !== b[1]) return a[1] - b[1];
  if (a[2] !== b[2]) return a[2] < b[2] ? -1 : 1;
  if (a[4] !== b[4]) return a[4] === null ? -1 : b[4] === null ? 1 : a[4] < b[4] ? -1 : 1;
  return (a[5] ?? 0) - (b[5] ?? 0);
}

/**
 * The value rows and search text of live records. The value rows of the whole set are written in
 * the value indexes' own order (writeValueRows).
 */
export function indexRecords(c: Connection, records: readonly IndexItem[]): void {
  const rows: ValueRow[] = [];
  for (const { record, data } of records) valueRows(rows, record.pk, record.object_type_pk, data);
  writeValueRows(c, RECORDS, rows);
  writeSearchRows(c, records);
}

/**
 * Writes the value rows of many items of one space (records or entries), sorting `rows` in the
 * value indexes' own order: a bulk write then walks each index once from left to right instead
 * of touching a random page per value, which is what kept a large load slow once the index
 * outgrew the page cache. Whole statements of VALUES_PER_INSERT rows, then the rest one a statement.
 */
export function writeValueRows(c: Connection, space: ItemSpace, rows: ValueRow[]): void {
  if (rows.length > 1) rows.sort(byIndexOrder);
  let at = 0;
  if (rows.length >= VALUES_PER_INSERT) {
    const many = c.stmt(space.insertValues);
    const params: Array<string | number | null> = new Array(VALUE_COLUMNS * VALUES_PER_INSERT);
    for (; at + VALUES_PER_INSERT <= rows.length; at += VALUES_PER_INSERT) {
      for (let i = 0; i < VALUES_PER_INSERT; i++) {
        const row = rows[at + i]!;
        for (let j = 0; j < VALUE_COLUMNS; j++) params[VALUE_COLUMNS * i + j] = row[j] ?? null;
      }
      many.run(...params);
    }
  }
  const values = c.stmt(space.insertValue);
  for (; at < rows.length; at++) values.run(...rows[at]!);
}

/** The search rows of live records that have none: their text, its `search_docs` row and its terms. */
function writeSearchRows(c: Connection, records: readonly IndexItem[]): void {
  const search = c.stmt('INSERT INTO records_fts (rowid, body) VALUES (?, ?)');
  // The word count FTS5 has just written for the row, beside what a search filters and orders by.
  // Read, then written by a plain INSERT: an INSERT ... SELECT needs a statement transaction, and
  // opening one makes FTS5 flush its pending terms as a new segment (its savepoint hook), so every
  // record became a segment of its own, merged later: 15-20 µs a row, 3-6 times these two.
  const size = c.stmt('SELECT sz FROM records_fts_docsize WHERE id = ?');
  const doc = c.stmt('INSERT INTO search_docs (pk, object_type_pk, id, sz) VALUES (?, ?, ?, ?)');
  const bodies: string[] = [];
  for (const { record, data } of records) {
    const body = searchText(data);
    if (body !== '') {
      search.run(record.pk, body);
      const written = size.get(record.pk) as { sz: Buffer } | undefined;
      // Never so (FTS5 writes the row with the text); a record left without its search_docs row
      // would also look unindexed to the next catch-up, whose insert would then collide.
      if (!written) throw new Error(`records_fts holds no word count for record ${record.id}`);
      doc.run(record.pk, record.object_type_pk, record.id, written.sz);
      bodies.push(body);
    }
  }
  recordSearchTerms(c, bodies);
  if (bodies.length > 0) oweSearchMerge(c, bodies.length);
}

/** The value rows of a record go now, its search rows behind (see catchUpSearch). */
export function unindexRecord(c: Connection, recordPk: number): void {
  unindexValues(c, RECORDS, recordPk);
  oweSearchRows(c, recordPk);
}

/**
 * How soon after a single write its search rows are written, at the latest (a search writes them
 * first). Meanwhile more writes join the batch: FTS5 writes a segment per transaction, so a create
 * that indexed its own text wrote one of a page or two plus the merges of all those small
 * segments, a fifth of the ~42 pages its transaction wrote (bench/write-pages.ts).
 */
const SEARCH_BEHIND_MS = 100;

/** The write-behind timer of a connection: set while a catch-up is due. */
const searchBehind = perConnection(() => ({ timer: null as NodeJS.Timeout | null }));

/**
 * Names a record whose search rows no longer match its text, and makes sure a catch-up is due.
 * The name is a row of `search_pending`, written in the record's own transaction: a rollback takes
 * it back, and a crash leaves it for the next catch-up.
 */
function oweSearchRows(c: Connection, recordPk: number): void {
  c.run('INSERT OR IGNORE INTO search_pending (pk) VALUES (?)', recordPk);
  const behind = searchBehind(c);
  if (behind.timer) return;
  behind.timer = setTimeout(() => {
    behind.timer = null;
    if (!c.isOpen) return;
    try {
      c.holdIfAsked();
      catchUpSearch(c);
    } catch {
      // Left named in search_pending: the next search or single write catches up again.
    }
  }, SEARCH_BEHIND_MS);
  behind.timer.unref();
}

/** The pending records with what rewriting their search rows needs; `data` is null for a record no longer live. */
type PendingRow = [pk: number, objectTypePk: number | null, id: string | null, data: string | null, indexed: number];

/**
 * Rewrites the search rows of every record named in `search_pending`, in one transaction (or in
 * the caller's), and clears the names: each loses the rows it had and, if live, gets rows for its
 * text as it is now. Every search runs this first, so it sees every committed write; otherwise a
 * timer runs it SEARCH_BEHIND_MS after a single write, for all writes since.
 */
export function catchUpSearch(c: Connection): void {
  if (!c.get('SELECT 1 AS one FROM search_pending LIMIT 1')) return;
  c.tx(() => {
    const pending = c.rows<PendingRow>(
      `SELECT p.pk, r.object_type_pk, r.id, CASE WHEN r.deleted_at IS NULL THEN r.data END, s.pk IS NOT NULL
       FROM search_pending p LEFT JOIN records r ON r.pk = p.pk LEFT JOIN search_docs s ON s.pk = p.pk
       ORDER BY p.pk`,
    );
    let removed = 0;
    const live: IndexItem[] = [];
    for (const [pk, objectTypePk, id, data, indexed] of pending) {
      if (indexed) {
        c.run('DELETE FROM records_fts WHERE rowid = ?', pk);
        c.run('DELETE FROM search_docs WHERE pk = ?', pk);
        removed++;
      }
      if (data !== null) live.push({ record: { pk, object_type_pk: objectTypePk!, id: id! }, data: JSON.parse(data) as RecordData });
    }
    if (removed > 0) oweSearchMerge(c, removed);
    writeSearchRows(c, live);
    c.run('DELETE FROM search_pending');
  });
}

const SEARCH_MERGE = 'search index merge';
/**
 * Pages of merging allowed per record a transaction adds to or removes from the search index.
 * FTS5 keeps the index as segments in levels and merges four of a level into one of the next;
 * left to itself (automerge, now 0) it did that in quanta of 64 pages per level inside whichever
 * commit crossed its 64th page written since the last, so while a large merge was under way one
 * create in 64 wrote a few hundred pages (~10 ms at 100k records, and every call in flight waited
 * behind it). Asked for here, just before each write commits, the work comes in small steps (a
 * step ends at a term boundary, so a common word's doclist still comes whole). This keeps pace
 * with automerge, which owes about one page per level for each page written (a record's write is
 * about a page; an index of 4^8 pages has about eight levels); a bulk write's allowance covers
 * every merge then due.
 */
export const MERGE_PAGES_PER_RECORD = 8;

/**
 * The settle step of SEARCH_MERGE on a connection: FTS5's `merge` command with the allowance. A
 * positive allowance merges only levels holding `usermerge` (4) segments or with a merge under way.
 */
const mergeSearchIndex = perConnection((c) => (records: number) => {
  c.run(`INSERT INTO records_fts (records_fts, rank) VALUES ('merge', ?)`, Math.min(records * MERGE_PAGES_PER_RECORD, 2 ** 31 - 1));
});

/** Owes the merge allowance of `records` search rows written or removed in the open transaction. */
function oweSearchMerge(c: Connection, records: number): void {
  c.owe(SEARCH_MERGE, records, mergeSearchIndex(c));
}

/** The fields whose values a type's records claim now: its live unique fields. */
const CLAIMING_FIELDS = 'SELECT slug FROM fields WHERE object_type_pk = ? AND is_unique = 1 AND archived = 0';

/**
 * Refuses, as changed meanwhile, a write whose claims were worked out from an object type that
 * has since started or stopped claiming a field's values (claimsOutdated): read in the write's
 * transaction, so a field made unique by a call between the write's validation and its
 * transaction cannot end up with unclaimed duplicates. `memo` keeps a batch's reads per type.
 */
export function assertClaimsCurrent(
  c: Connection, type: { pk: number; slug: string }, data: RecordData, uniques: readonly UniqueClaim[], memo?: Map<number, Set<string>>,
): void {
  let claiming = memo?.get(type.pk);
  if (!claiming) {
    claiming = new Set(c.all<{ slug: string }>(CLAIMING_FIELDS, type.pk).map((row) => row.slug));
    memo?.set(type.pk, claiming);
  }
  if (!claimsOutdated(claiming, data, uniques)) return;
  // Another process may have made the change: the retry must not read the type from the cache again.
  c.forgetCallVersion();
  throw changedMeanwhile('object type', type.slug);
}

/**
 * Claims each unique value for the record; `conflict` naming the field when one is taken. With
 * `ifFree` a taken value is left to its holder instead (loading a dump: a field made unique after
 * its values were written may hold duplicates, and the earlier record keeps the claim).
 */
export function claimUniques(c: Connection, record: IndexTarget, uniques: readonly UniqueClaim[], opts: { ifFree?: boolean } = {}): void {
  const distinct = new Map(uniques.map((claim) => [`${claim.field}\u0000${claim.value}`, claim]));
  const insert = `INSERT${opts.ifFree ? ' OR IGNORE' : ''} INTO record_uniques (object_type_pk, field, value, record_pk) VALUES (?, ?, ?, ?)`;
  for (const claim of distinct.values()) {
    guard(() => c.run(insert, record.object_type_pk, claim.field, claim.value, record.pk), { field: claim.field });
  }
}

export function releaseUniques(c: Connection, recordPk: number): void {
  c.run('DELETE FROM record_uniques WHERE record_pk = ?', recordPk);
}
