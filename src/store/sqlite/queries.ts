import type { StoredRecord } from '../../domain/types.ts';
import type { RecordQuery, SearchQuery } from '../../domain/store/port.ts';
import type { Connection } from './connection.ts';
import type { SqlFragment } from './filter-sql.ts';
import { count, pageItems } from './item-pages.ts';
import { RECORDS } from './items.ts';
import { requireObjectType } from './object-types.ts';
import { catchUpSearch } from './record-index.ts';
import { RECORD_COLUMNS, toRecord, type RecordRow } from './rows.ts';
import { toFtsQuery } from './search-query.ts';
import { prefixExpression } from './search-terms.ts';

interface Page {
  items: StoredRecord[];
  total: number;
}

/** Synchronous listing and full-text search of live records. */
export function queryMethods(c: Connection) {
  return {
    listRecords(workspaceId: string, query: RecordQuery): Page {
      const type = requireObjectType(c, workspaceId, query.object_type_slug);
      const { rows, total } = pageItems<RecordRow>(c, RECORDS, type.pk, query);
      return { items: rows.map(toRecord), total };
    },

    /**
     * Records matching every typed word as a prefix; those where every word is also a whole word
     * first, then fewer words of text first (a record mostly about the words above one that
     * mentions them in passing), ties by record id. Only live records of live object types. The
     * order needs nothing of other records, so no other workspace's data can move it.
     */
    searchRecords(workspaceId: string, query: SearchQuery): Page {
      const type = query.object_type_slug === undefined ? undefined : requireObjectType(c, workspaceId, query.object_type_slug);
      const match = toFtsQuery(query.text);
      if (match === null) return { items: [], total: 0 };
      // An object type belongs to one workspace, so the type decides the workspace; and only live
      // records are in the index (record-index.ts), each with its `search_docs` row.
      const ofType: SqlFragment = type
        ? { sql: 's.object_type_pk = ?', params: [type.pk] }
        : { sql: 's.object_type_pk IN (SELECT pk FROM object_types WHERE workspace_id = ? AND deleted_at IS NULL)', params: [workspaceId] };
      const where = `WHERE records_fts MATCH ? AND ${ofType.sql}`;
      // The matches (pk, id and length only, one `search_docs` row each) are found once, then
      // counted and ranked; only the page's rows are read from `records`. A page past the end has
      // no row to carry the total, so only then is it counted apart.
      // `sz` is FTS5's own count of the row's tokens (one column, copied from
      // `records_fts_docsize`), a big-endian varint: a longer one is a larger count, and of equal
      // lengths the bytes order as the counts do (test/store/sqlite/search-order.test.ts holds
      // FTS5 to that).
      // Single writes leave their search rows behind: written here first, a search sees every one.
      catchUpSearch(c);
      const reader = c.scattered;
      return reader.read(() => {
        // Each plain word as the terms it starts (search-terms.ts), read in the same snapshot as the index.
        const prefixes = prefixExpression(reader, match.typed);
        if (prefixes === null) return { items: [], total: 0 };
        const params = [prefixes.expression, ...ofType.params];
        // The whole-word tier needs a match of its own only when the vocabulary cannot tell it:
        // with a word that is no term no match is in it, with words that are their only term all are.
        const tiered = prefixes.whole === 'some';
        const tier = { some: 'pk NOT IN (SELECT pk FROM whole)', all: '0', none: '1' }[prefixes.whole];
        const rows = reader.all<RecordRow & { total: number }>(
          `WITH m AS MATERIALIZED (
             SELECT s.pk, s.id, s.sz FROM records_fts f JOIN search_docs s ON s.pk = f.rowid ${where}
           ),${tiered ? `
           whole AS MATERIALIZED (SELECT rowid AS pk FROM records_fts WHERE records_fts MATCH ?),` : ''}
           page AS MATERIALIZED (
             SELECT pk, ${tier} AS tier, length(sz) AS width, sz, id FROM m
             ORDER BY tier, width, sz, id LIMIT +? OFFSET ?
           )
           SELECT (SELECT COUNT(*) FROM m) AS total, ${RECORD_COLUMNS} FROM page JOIN records r ON r.pk = page.pk
           ORDER BY page.tier, page.width, page.sz, page.id`,
          ...params, ...(tiered ? [match.words] : []), query.limit, query.offset,
        );
        const from = { sql: `FROM records_fts f JOIN search_docs s ON s.pk = f.rowid ${where}`, params };
        return { items: rows.map(toRecord), total: rows[0]?.total ?? (query.offset > 0 ? count(reader, from) : 0) };
      });
    },
  };
}
