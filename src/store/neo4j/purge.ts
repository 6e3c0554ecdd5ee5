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
 * Erases every node of one workspace (the workspace node too) over an open connection, in
 * batches so no single transaction grows large. Every node the adapter writes carries
 * `workspace_id`, so nothing of the workspace stays behind. Returns how many nodes went.
 */
export async function purgeWorkspace(conn: Connection, workspaceId: string): Promise<number> {
  let total = 0;
  for (;;) {
    const row = await conn.write((tx) => tx.first(bind(PURGE_WORKSPACE_BATCH, { workspace_id: workspaceId, batch: BATCH })));
    const deleted = Number(row?.deleted ?? 0);
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/**
 * Erases every node of the given workspaces. For test runs on a shared database and for operators
 * removing a workspace for good (or what an interrupted import left, see load.ts); the Store port
 * itself never erases anything, except `loadDump` undoing its own failed import.
 */
export async function purgeNeo4jWorkspaces(opts: Neo4jOptions, workspaceIds: readonly string[]): Promise<number> {
  const conn = new Connection(opts);
  let total = 0;
  try {
    for (const id of workspaceIds) total += await purgeWorkspace(conn, id);
  } finally {
    await conn.close();
  }
  return total;
}
