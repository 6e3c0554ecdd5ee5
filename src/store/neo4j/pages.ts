import type { Row, Tx } from './connection.ts';
import type { BuiltStatement } from './statement.ts';

/** A page of rows and the count of the same match, both bound to their values. */
export interface PageStatements {
  page: BuiltStatement;
  count: BuiltStatement;
}

/** Reads one page and its total (a `total` column) in the caller's transaction, so both see one snapshot. */
export async function readPage(tx: Tx, statements: PageStatements): Promise<{ rows: Row[]; total: number }> {
  const rows = await tx.rows(statements.page);
  const count = await tx.first(statements.count);
  return { rows, total: Number(count?.total ?? 0) };
}
