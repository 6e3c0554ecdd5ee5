import type { Store } from '../../domain/store/port.ts';
import { commMethods } from './comms.ts';
import { Connection, type Neo4jOptions } from './connection.ts';
import { dumpMethods } from './dump.ts';
import { entryMethods } from './entries.ts';
import { graphMethods } from './graph.ts';
import { idempotencyMethods } from './idempotency.ts';
import { listMethods } from './lists.ts';
import { loadMethods } from './load.ts';
import { noteMethods } from './notes.ts';
import { objectTypeMethods } from './object-types.ts';
import { queryMethods } from './queries.ts';
import { recordMethods } from './records.ts';
import { reportMethods } from './reports.ts';
import { applySchema } from './schema.ts';
import { keyHolderMethods } from './key-holder.ts';
import { settingsMethods } from './settings.ts';
import { taskMethods } from './tasks.ts';
import { timelineMethods } from './timeline.ts';
import { viewMethods } from './views.ts';

export type { Neo4jOptions } from './connection.ts';
export { translateNeo4jError } from './errors.ts';
export { applyNeo4jSchema, applyNeo4jSchema as migrateNeo4j, schemaStatements } from './schema.ts';
export { purgeNeo4jWorkspaces } from './purge.ts';

/** The end of a call's bracket (Store.beginCall), which this store does not need. */
const callEnded = (): void => undefined;

/**
 * The production Store on Neo4j (community edition, no plugins). `init()` checks the connection
 * once — failing fast with `unavailable` naming the address — and applies `schema/neo4j/*.cypher`.
 * Every session names the database; every unit of work is a managed transaction. `dumpWorkspace`
 * reads in pages and `loadDump` writes in batches (dump.ts, load.ts): neither holds a transaction
 * open across the caller's awaits.
 */
export function createNeo4jStore(opts: Neo4jOptions): Store {
  const conn = new Connection(opts);
  return {
    kind: 'neo4j',
    async init() {
      await conn.verify();
      await applySchema(conn);
    },
    close: () => conn.close(),
    // Nothing here is cached, so a call needs no bracket: every read asks the server.
    beginCall: () => callEnded,
    async health() {
      try {
        await conn.verify();
        return { ok: true };
      } catch (error) {
        return { ok: false, detail: error instanceof Error ? error.message : String(error) };
      }
    },
    ...settingsMethods(conn),
    ...keyHolderMethods(conn),
    ...objectTypeMethods(conn),
    ...recordMethods(conn),
    ...queryMethods(conn),
    ...listMethods(conn),
    ...entryMethods(conn),
    ...viewMethods(conn),
    ...noteMethods(conn),
    ...taskMethods(conn),
    ...timelineMethods(conn),
    ...reportMethods(conn),
    ...commMethods(conn),
    ...graphMethods(conn),
    ...idempotencyMethods(conn),
    ...dumpMethods(conn),
    ...loadMethods(conn),
  };
}
