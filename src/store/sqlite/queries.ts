import type { StoredRecord } from '../../domain/types.ts';
import type { RecordQuery, SearchQuery } from '../../domain/store/port.ts';
import type { Connection } from './connection.ts';
import type { SqlFragment } from './filter-sql.ts';
import { count, pageItems } from './item-pages.ts';
import { RECORDS } from './items.ts';
import { requireObjectType } from './object-types.ts';
import { RECORD_COLUMNS, toRecord, type RecordRow } from './rows.ts';
import { toFtsQuery } from './search-query.ts';

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

    /** Best bm25 match first, ties by record id; only live records of live object types. */
    searchRecords(workspaceId: string, query: SearchQuery): Page {
      const type = query.object_type_slug === undefined ? undefined : requireObjectType(c, workspaceId, query.object_type_slug);
      const match = toFtsQuery(query.text);
      if (match === null) return { items: [], total: 0 };
      const ofType: SqlFragment = type
        ? { sql: 'r.object_type_pk = ?', params: [type.pk] }
        : { sql: 'r.object_type_pk IN (SELECT pk FROM object_types WHERE workspace_id = ? AND deleted_at IS NULL)', params: [workspaceId] };
      const from = {
        sql: `FROM records_fts f JOIN records r ON r.pk = f.rowid
              WHERE records_fts MATCH ? AND r.workspace_id = ? AND r.deleted_at IS NULL AND ${ofType.sql}`,
        params: [match, workspaceId, ...ofType.params],
      };
      // The matches (id and rank only) are found once and both counted and paged from there; a
      // page past the end has no row to carry the total, so only then is it counted apart.
      return c.tx(() => {
        const rows = c.all<RecordRow & { total: number }>(
          `WITH m AS MATERIALIZED (SELECT r.pk, bm25(records_fts) AS score ${from.sql})
           SELECT (SELECT COUNT(*) FROM m) AS total, ${RECORD_COLUMNS} FROM m JOIN records r ON r.pk = m.pk
           ORDER BY m.score, r.id LIMIT ? OFFSET ?`,
          ...from.params, query.limit, query.offset,
        );
        return { items: rows.map(toRecord), total: rows[0]?.total ?? (query.offset > 0 ? count(c, from) : 0) };
      });
    },
  };
}
