import type { FilterNode, SortSpec } from '../../../domain/filter-ast.ts';
import { filterToCypher, sortToCypher } from '../filter-cypher.ts';
import type { BuiltStatement } from '../statement.ts';
import { RECORD } from './records.ts';

/**
 * The statements built at run time: a page of records (filter + sort) with its total, and a page
 * of full-text hits with theirs. SKIP and LIMIT go through toInteger() because the driver sends
 * JavaScript numbers as floats.
 */

export interface PageStatements {
  page: BuiltStatement;
  count: BuiltStatement;
}

export interface ListParams {
  object_type_id: string;
  filter?: FilterNode;
  sort: SortSpec;
  offset: number;
  limit: number;
}

/** records.list: live records of one object type passing the filter, ordered, one page. */
export function listStatements(q: ListParams): PageStatements {
  const where = filterToCypher(q.filter);
  const sort = sortToCypher(q.sort);
  const match = `MATCH (r:Record {object_type_id: $object_type_id})\nWHERE r.deleted_at IS NULL AND (${where.cypher})`;
  const scope = { object_type_id: q.object_type_id, ...where.params };
  return {
    page: {
      cypher: `${match}\n${sort.match}\nRETURN ${RECORD} AS record\nORDER BY ${sort.orderBy}\nSKIP toInteger($offset) LIMIT toInteger($limit)`,
      params: { ...scope, ...sort.params, offset: q.offset, limit: q.limit },
    },
    count: { cypher: `${match}\nRETURN count(r) AS total`, params: scope },
  };
}

export interface SearchParams {
  /** The Lucene query from `searchQuery()`, already scoped by its marker. */
  query: string;
  /** Without an object type, hits of soft-deleted object types are left out. */
  any_type: boolean;
  offset: number;
  limit: number;
}

/** records.search: full-text hits that are live records (of live types), best first, ties by id. */
export function searchStatements(q: SearchParams): PageStatements {
  const liveType = q.any_type ? '\n  AND EXISTS { MATCH (o:ObjectType {id: r.object_type_id}) WHERE o.deleted_at IS NULL }' : '';
  const match = `CALL db.index.fulltext.queryNodes('record_search', $query) YIELD node AS r, score\nWHERE r.deleted_at IS NULL${liveType}`;
  return {
    page: {
      cypher: `${match}\nRETURN ${RECORD} AS record\nORDER BY score DESC, r.id ASC\nSKIP toInteger($offset) LIMIT toInteger($limit)`,
      params: { query: q.query, offset: q.offset, limit: q.limit },
    },
    count: { cypher: `${match}\nRETURN count(r) AS total`, params: { query: q.query } },
  };
}
