import type { SystemField } from '../../domain/filter-ast.ts';
import { RECORD_COLUMNS } from './rows.ts';

/**
 * A kind of item that filters and sorts work on: records (partitioned by object type) and list
 * entries (partitioned by list). Each has an items table with an integer `pk`, always aliased `r`
 * in queries, and a value table shaped like record_values (one row per scalar: v_text or v_num,
 * keyed by item, field and the scalar's place among the field's values), so one filter compiler
 * and one pager serve both. Table and column names come from here, never from callers.
 */
export interface ItemSpace {
  table: string;
  /** SELECT list on `r`. */
  columns: string;
  /**
   * The value table (alias `v`, `sv` or `m`), keyed by (item, field, seq), and its column holding
   * the item pk.
   */
  values: string;
  itemKey: string;
  /** The partition column, on both tables: an item is filtered within one scope. */
  scope: string;
  /** SQL on `r` that holds for the items a listing shows. */
  live: string;
  /**
   * True when value rows exist only for live items, so counting matches can read the value index
   * alone; otherwise counts go through the items table and `live`.
   */
  valuesOnlyLive: boolean;
  /**
   * A SELECT of one value, `version`, that every committed write changing the scope's items or
   * their liveness moves (by triggers, whoever writes); `?` is bound to the scope pk as many times
   * as it appears. Cached totals are keyed by it (count-cache.ts).
   */
  versionSql: string;
  /** How many `?` versionSql has. */
  versionParams: number;
  /** The column of `r` behind each system field. */
  system: { readonly [F in SystemField]: string };
  /** Indexes of the items table in (scope, system field, id) order, for walking a sort. */
  systemIndexes: { readonly [F in SystemField]: string };
  /** Indexes of the value table in (scope, field, value, item) order. */
  valueIndexes: { readonly text: string; readonly num: string };
  /** `INSERT` of one value row: item pk, scope pk, field, seq, v_text, v_num. */
  insertValue: string;
  /** `INSERT OR FAIL` of VALUES_PER_INSERT value rows, bound in the same order (record-index.ts, writeValueRows). */
  insertValues: string;
}

/**
 * Value rows a bulk write inserts per statement: one bind and one step for 64 rows instead of
 * one each (docs/decisions.md, "Value rows 64 a statement"). `OR FAIL`, since a statement that
 * writes many rows and could fail with ABORT (the default) must be able to undo its own rows, so
 * SQLite runs it in a statement journal that first copies every page it touches; with FAIL, and
 * the item key checked at COMMIT (migration 30), none can. No row there can fail a constraint (the
 * batch's items were just written, each (item, field, seq) is numbered once), and if one did, FAIL
 * keeps only that statement's earlier rows, which the error then rolls back with the transaction.
 */
export const VALUES_PER_INSERT = 64;

function itemSpace(space: Omit<ItemSpace, 'insertValue' | 'insertValues' | 'versionParams'>): ItemSpace {
  const head = `INTO ${space.values} (${space.itemKey}, ${space.scope}, field, seq, v_text, v_num) VALUES `;
  const row = '(?, ?, ?, ?, ?, ?)';
  return Object.freeze({
    ...space,
    versionParams: space.versionSql.split('?').length - 1,
    insertValue: `INSERT ${head}${row}`,
    insertValues: `INSERT OR FAIL ${head}${Array(VALUES_PER_INSERT).fill(row).join(', ')}`,
  });
}

/** Live records of one object type. Soft delete drops a record's value rows, restore rebuilds them. */
export const RECORDS = itemSpace({
  table: 'records',
  columns: RECORD_COLUMNS,
  values: 'record_values',
  itemKey: 'record_pk',
  scope: 'object_type_pk',
  live: 'r.deleted_at IS NULL',
  valuesOnlyLive: true,
  versionSql: 'SELECT version FROM record_versions WHERE object_type_pk = ?',
  system: { record_id: 'r.id', created_at: 'r.created_at', updated_at: 'r.updated_at' },
  systemIndexes: { record_id: 'records_live_by_id', created_at: 'records_live_by_created', updated_at: 'records_live_by_updated' },
  valueIndexes: { text: 'record_values_by_text', num: 'record_values_by_num' },
});

export const ENTRY_COLUMNS = 'r.pk, r.id, r.workspace_id, r.list_pk, r.list_id, r.record_id, r.data, r.created_by, r.created_at, r.updated_at';

/**
 * Entries of one list whose record is live. An entry keeps its value rows while its record is
 * soft-deleted (the record may come back), so `live` is tested on every count.
 */
export const ENTRIES = itemSpace({
  table: 'list_entries',
  columns: ENTRY_COLUMNS,
  values: 'entry_values',
  itemKey: 'entry_pk',
  scope: 'list_pk',
  live: 'EXISTS (SELECT 1 FROM records lr WHERE lr.id = r.record_id AND lr.deleted_at IS NULL)',
  valuesOnlyLive: false,
  // The list's entry writes (migration 17) and every record write of the list's object type, which
  // covers the soft deletes and restores that hide and show entries.
  versionSql: `SELECT coalesce((SELECT version FROM list_versions WHERE list_pk = ?), 0) || ':' || (
      SELECT total(rv.version) FROM lists l
        JOIN object_types t ON t.workspace_id = l.workspace_id AND t.slug = l.object_type_slug
        JOIN record_versions rv ON rv.object_type_pk = t.pk
      WHERE l.pk = ?) AS version`,
  system: { record_id: 'r.record_id', created_at: 'r.created_at', updated_at: 'r.updated_at' },
  systemIndexes: { record_id: 'list_entries__record', created_at: 'list_entries_by_created', updated_at: 'list_entries_by_updated' },
  valueIndexes: { text: 'entry_values_by_text', num: 'entry_values_by_num' },
});
