import { join } from 'node:path';
import type { Config } from '../config.ts';

/** Which store a command opens, as a reader can check it: the SQLite file's path or the Neo4j URI. */
export function storeLabel(config: Config): string {
  return config.store === 'sqlite' ? `sqlite at ${join(config.dataDir, 'crm.sqlite')}` : `neo4j at ${config.neo4j?.uri}`;
}

/**
 * The hint printed when a command finds no workspace, user or key: most often it opened another
 * (or a new, empty) store than the server uses, because DATA_DIR or NEO4J_URI differ.
 */
export function storeHint(config: Config): string {
  const how = config.store === 'sqlite' ? 'set DATA_DIR to the directory the server uses' : 'set NEO4J_URI to the server\'s database';
  return `this command opened the ${storeLabel(config)}; if that is not the server's store, ${how}`;
}
