import { describe } from 'vitest';
import type { Workspace } from '../../src/domain/types.ts';
import { createNeo4jStore, purgeNeo4jWorkspaces, type Neo4jOptions } from '../../src/store/neo4j/index.ts';
import type { NewWorkspace } from '../../src/domain/store/port.ts';
import { runStoreConformance } from './conformance.ts';

/**
 * The store conformance suite on a real Neo4j, when NEO4J_URI names one (CI starts a service
 * container; locally `docker compose up neo4j`). Every test makes its own workspaces; the run
 * remembers them and erases them afterwards, so a shared database is left as it was found.
 */
const uri = process.env.NEO4J_URI;

function optionsFromEnv(address: string): Neo4jOptions {
  return {
    uri: address,
    ...(process.env.NEO4J_USER ? { user: process.env.NEO4J_USER, password: process.env.NEO4J_PASSWORD ?? '' } : {}),
    ...(process.env.NEO4J_DATABASE ? { database: process.env.NEO4J_DATABASE } : {}),
  };
}

describe.skipIf(!uri)('neo4j store', () => {
  runStoreConformance('neo4j', async () => {
    const opts = optionsFromEnv(uri!);
    const inner = createNeo4jStore(opts);
    const created: string[] = [];
    const store = {
      ...inner,
      async createWorkspace(input: NewWorkspace): Promise<Workspace> {
        const ws = await inner.createWorkspace(input);
        created.push(ws.id);
        return ws;
      },
    };
    return {
      store,
      cleanup: async () => {
        try {
          await purgeNeo4jWorkspaces(opts, created);
        } finally {
          await inner.close();
        }
      },
    };
  });
});
