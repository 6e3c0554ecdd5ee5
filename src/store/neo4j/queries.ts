import type { StoredRecord } from '../../domain/types.ts';
import type { RecordQuery, SearchQuery } from '../../domain/store/port.ts';
import type { Connection, Tx } from './connection.ts';
import { listStatements, searchStatements } from './cypher/queries.ts';
import { readPage, type PageStatements } from './pages.ts';
import { searchQuery } from './encoding.ts';
import { requireObjectType } from './object-types.ts';
import { props, toRecord } from './rows.ts';

interface Page {
  items: StoredRecord[];
  total: number;
}

/** One page of records and the total of the same match, read in one transaction. */
async function page(tx: Tx, statements: PageStatements): Promise<Page> {
  const { rows, total } = await readPage(tx, statements);
  return { items: rows.map((row) => toRecord(props(row, 'record')!)), total };
}

/** Listing and full-text search of live records. */
export function queryMethods(conn: Connection) {
  return {
    async listRecords(workspaceId: string, query: RecordQuery): Promise<Page> {
      return conn.read(async (tx) => {
        const type = await requireObjectType(tx, workspaceId, query.object_type_slug);
        return page(tx, listStatements({ object_type_id: type.id, ...(query.filter ? { filter: query.filter } : {}), sort: query.sort, offset: query.offset, limit: query.limit }));
      });
    },

    /**
     * Hits holding every typed word whole first, then fewer words first, ties by record id (the
     * SQLite adapter's order); only live records of live object types.
     */
    async searchRecords(workspaceId: string, query: SearchQuery): Promise<Page> {
      return conn.read(async (tx) => {
        const type = query.object_type_slug === undefined ? undefined : await requireObjectType(tx, workspaceId, query.object_type_slug);
        const search = searchQuery(query.text, type ? type.id : workspaceId);
        if (search === null) return { items: [], total: 0 };
        return page(tx, searchStatements({ query: search.lucene, words: search.words, any_type: type === undefined, offset: query.offset, limit: query.limit }));
      });
    },
  };
}
