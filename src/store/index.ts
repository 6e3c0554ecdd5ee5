import { join } from 'node:path';
import type { Store } from '../domain/store/port.ts';

export interface StoreConfig {
  store: 'sqlite' | 'neo4j';
  dataDir: string;
  neo4j: { uri: string; user: string; password: string | undefined; database: string } | null;
}

/** Opens and initialises the configured adapter. Neo4j's driver is only loaded when selected. */
export async function openStore(config: StoreConfig): Promise<Store> {
  let store: Store;
  if (config.store === 'neo4j') {
    if (!config.neo4j) throw new Error('STORE=neo4j needs NEO4J_URI');
    const { createNeo4jStore } = await import('./neo4j/index.ts');
    store = createNeo4jStore(config.neo4j);
  } else {
    const { createSqliteStore } = await import('./sqlite/index.ts');
    store = createSqliteStore({ path: join(config.dataDir, 'crm.sqlite') });
  }
  await store.init();
  return store;
}

export type { Store };
