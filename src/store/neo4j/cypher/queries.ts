import type { FilterNode, SortSpec } from '../../../domain/filter-ast.ts';
import { ENTRY_ITEMS, filterToCypher, RECORD_ITEMS, sortToCypher, type ItemSpace } from '../filter-cypher.ts';
import type { PageStatements } from '../pages.ts';
import { ENTRY } from './entries.ts';
import { RECORD } from './records.ts';

/**
 * The statements built at run time: a page of records or list entries (filter + sort) with its
 * total, and a page of full-text hits with theirs. SKIP and LIMIT go through toInteger() because
 * the driver sends JavaScript numbers as floats.
 */

export interface ListParams {
  object_type_id: string;
  filter?: FilterNode;
  sort: SortSpec;
  offset: number;
  limit: number;
}

/** A kind of item that can be listed: its match (binding `r`, with its liveness test) and projection. */
interface Listing {
  space: ItemSpace;
  /** `MATCH (r…)\nWHERE <live>`; the filter is ANDed to it. */
  match: string;
  /** `<projection> AS <column>`. */
  returns: string;
}

const RECORD_LISTING: Listing = {
  space: RECORD_ITEMS,
  match: 'MATCH (r:Record {object_type_id: $object_type_id})\nWHERE r.deleted_at IS NULL',
  returns: `${RECORD} AS record`,
};

/** An entry is listed while the record it holds is live (the list's liveness is checked by the caller). */
const ENTRY_LISTING: Listing = {
  space: ENTRY_ITEMS,
  match: 'MATCH (r:ListEntry {list_id: $list_id})\nWHERE EXISTS { MATCH (r)-[:ENTRY_OF]->(held:Record) WHERE held.deleted_at IS NULL }',
  returns: `${ENTRY} AS entry`,
};

interface ItemQuery {
  filter?: FilterNode | undefined;
  sort: SortSpec;
  offset: number;
  limit: number;
}

/** One page of the live items of a listing passing the filter, ordered, and the count of the same match. */
function pageStatements(listing: Listing, scope: Record<string, unknown>, q: ItemQuery): PageStatements {
  const where = filterToCypher(q.filter, listing.space);
  const sort = sortToCypher(q.sort, listing.space);
  const match = `${listing.match} AND (${where.cypher})`;
  const params = { ...scope, ...where.params };
  return {
    page: {
      cypher: `${match}\n${sort.match}\nRETURN ${listing.returns}\nORDER BY ${sort.orderBy}\nSKIP toInteger($offset) LIMIT toInteger($limit)`,
      params: { ...params, ...sort.params, offset: q.offset, limit: q.limit },
    },
    count: { cypher: `${match}\nRETURN count(r) AS total`, params },
  };
}

/** records.list: live records of one object type passing the filter, ordered, one page. */
export function listStatements(q: ListParams): PageStatements {
  return pageStatements(RECORD_LISTING, { object_type_id: q.object_type_id }, q);
}

export interface EntryListParams extends Omit<ListParams, 'object_type_id'> {
  list_id: string;
}

/** lists.entries: entries of one list whose record is live, filtered on entry data, ordered, one page. */
export function entryListStatements(q: EntryListParams): PageStatements {
  return pageStatements(ENTRY_LISTING, { list_id: q.list_id }, q);
}

export interface SearchParams {
  /** The Lucene query from `searchQuery()`, already scoped by its marker. */
  query: string;
  /** The typed words from `searchQuery()`. */
  words: string[];
  /** Without an object type, hits of soft-deleted object types are left out. */
  any_type: boolean;
  offset: number;
  limit: number;
}

/**
 * records.search: full-text hits that are live records (of live types). Lucene's score is not
 * used: it weighs words by how common they are across the whole index, every workspace's records
 * included. Hits holding every typed word whole come first, then those with fewer words (the
 * markers add two to every count), ties by id, as on SQLite.
 */
export function searchStatements(q: SearchParams): PageStatements {
  const liveType = q.any_type ? '\n  AND EXISTS { MATCH (o:ObjectType {id: r.object_type_id}) WHERE o.deleted_at IS NULL }' : '';
  const match = `CALL db.index.fulltext.queryNodes('record_search', $query) YIELD node AS r\nWHERE r.deleted_at IS NULL${liveType}`;
  return {
    page: {
      cypher: `${match}\nWITH r, split(r.search_text, ' ') AS tokens\n` +
        `WITH r, all(word IN $words WHERE word IN tokens) AS whole, size(tokens) AS word_count\n` +
        `RETURN ${RECORD} AS record\nORDER BY whole DESC, word_count ASC, r.id ASC\nSKIP toInteger($offset) LIMIT toInteger($limit)`,
      params: { query: q.query, words: q.words, offset: q.offset, limit: q.limit },
    },
    count: { cypher: `${match}\nRETURN count(r) AS total`, params: { query: q.query } },
  };
}
