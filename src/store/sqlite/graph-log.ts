import { perConnection, type Connection } from './connection.ts';

/**
 * The workspaces whose graph change log a bulk write of this connection has paused (graph-cache.ts,
 * withGraphLogPaused, which also marks them in `graph_changes_paused` for the triggers that still
 * read it). Only ever filled inside the writing transaction.
 */
export const pausedGraphLogs = perConnection(() => new Set<string>());

/**
 * Logs an inserted edge in `graph_changes`, so that every connection's graph cache reads both ends
 * again, unless a bulk write of its workspace paused the log (it logs the whole workspace once).
 * Edges are inserted by relations.ts and graph.ts only, and every insert calls this but
 * createLinks', which always runs paused. Until migration 28 a trigger on `relations` did it; on a
 * table with foreign keys an AFTER INSERT trigger makes every insert run in a statement journal
 * (docs/decisions.md, "Edge inserts without triggers").
 */
export function logInsertedEdge(c: Connection, workspaceId: string, fromId: string, toId: string): void {
  if (pausedGraphLogs(c).has(workspaceId)) return;
  c.run('INSERT INTO graph_changes (workspace_id, a, b) VALUES (?, ?, ?)', workspaceId, fromId, toId);
}
