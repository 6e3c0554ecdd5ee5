import { Connection, type Neo4jOptions } from './connection.ts';
import { bind, statement } from './statement.ts';

const BATCH = 1000;

/** Up to `$batch` nodes of the workspace, with their relationships; returns how many went. */
export const PURGE_WORKSPACE_BATCH = statement('purgeWorkspaceBatch', ['workspace_id', 'batch'], `
MATCH (n)
WHERE n.workspace_id = $workspace_id
WITH n LIMIT toInteger($batch)
DETACH DELETE n
RETURN count(*) AS deleted`);

/**
 * Erases every node of the given workspaces (the workspace node too), in batches so no single
 * transaction grows large. For test runs on a shared database and for operators removing a
 * workspace for good; the Store port itself never erases anything.
 */
export async function purgeNeo4jWorkspaces(opts: Neo4jOptions, workspaceIds: readonly string[]): Promise<number> {
  const conn = new Connection(opts);
  let total = 0;
  try {
    for (const id of workspaceIds) {
      for (;;) {
        const row = await conn.write((tx) => tx.first(bind(PURGE_WORKSPACE_BATCH, { workspace_id: id, batch: BATCH })));
        const deleted = Number(row?.deleted ?? 0);
        total += deleted;
        if (deleted < BATCH) break;
      }
    }
  } finally {
    await conn.close();
  }
  return total;
}
