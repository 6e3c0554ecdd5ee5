import type { StoredRecord } from '../../domain/types.ts';
import type { RecordQuery, SearchQuery } from '../port.ts';
import type { Connection } from './connection.ts';
import { pageByField } from './field-sort.ts';
import { compileFilter, systemSort, type PkSet, type SqlFragment } from './filter-sql.ts';
import { requireObjectType } from './object-types.ts';
import { RECORD_COLUMNS, toRecord, type RecordRow } from './rows.ts';
import { toFtsQuery } from './search-query.ts';

interface Page {
  items: StoredRecord[];
  total: number;
}

/** `SELECT COUNT(*) {from}`. */
function count(c: Connection, from: SqlFragment): number {
  return c.get<{ total: number }>(`SELECT COUNT(*) AS total ${from.sql}`, ...from.params)!.total;
}

/**
 * Up to this many matches, a page is read by collecting the matches and sorting them; above it,
 * by walking the index of the sort order and testing each record, which stops after
 * `offset + limit` matches. SQLite's planner cannot tell the cases apart (how many records share
 * a value differs from field to field), so the exact total, needed anyway, decides.
 */
const FEW_MATCHES = 2000;

/** How many live records of the type a compiled filter matches, without reading the records. */
function countMatches(c: Connection, objectTypePk: number, matches: PkSet): number {
  const inSet = count(c, { sql: `FROM (${matches.repeats ? `SELECT DISTINCT * FROM (${matches.sql})` : matches.sql})`, params: matches.params });
  if (!matches.complement) return inSet;
  return count(c, { sql: 'FROM records r WHERE r.object_type_pk = ? AND r.deleted_at IS NULL', params: [objectTypePk] }) - inSet;
}

/** One page of `SELECT records {from} ORDER BY ...`. */
function pageOf(c: Connection, from: SqlFragment, orderBy: string, offset: number, limit: number): RecordRow[] {
  return c.all<RecordRow>(`SELECT ${RECORD_COLUMNS} ${from.sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, ...from.params, limit, offset);
}

/** Synchronous listing and full-text search of live records. */
export function queryMethods(c: Connection) {
  return {
    listRecords(workspaceId: string, query: RecordQuery): Page {
      const type = requireObjectType(c, workspaceId, query.object_type_slug);
      const matches = query.filter ? compileFilter(query.filter, type.pk) : undefined;
      const where: SqlFragment = matches
        ? { sql: `r.pk ${matches.complement ? 'NOT IN' : 'IN'} (${matches.sql})`, params: matches.params }
        : { sql: '1', params: [] };
      const from = (table: string): SqlFragment => ({
        sql: `FROM ${table} WHERE r.object_type_pk = ? AND r.deleted_at IS NULL AND ${where.sql}`,
        params: [type.pk, ...where.params],
      });
      // One read transaction, so the page and the total see the same snapshot.
      return c.tx(() => {
        const total = matches ? countMatches(c, type.pk, matches) : count(c, from('records r'));
        const walk = total > FEW_MATCHES;
        let rows: RecordRow[];
        if (query.sort.system) {
          const sort = systemSort(query.sort);
          rows = pageOf(c, from(walk ? `records r INDEXED BY ${sort.index}` : 'records r'), sort.orderBy, query.offset, query.limit);
        } else {
          rows = pageByField(c, type.pk, where, query.sort, { offset: query.offset, limit: query.limit, walk });
        }
        return { items: rows.map(toRecord), total };
      });
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
      return c.tx(() => ({
        items: pageOf(c, from, 'bm25(records_fts), r.id', query.offset, query.limit).map(toRecord),
        total: count(c, from),
      }));
    },
  };
}
