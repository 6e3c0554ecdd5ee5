import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Connection, type Neo4jOptions } from './connection.ts';
import { codeOf } from './errors.ts';
import { bind, statement } from './statement.ts';

/** Where the checked-in constraints and indexes live. */
export const SCHEMA_DIR = fileURLToPath(new URL('../../../schema/neo4j/', import.meta.url));

/**
 * Indexes populate in the background; a full-text index cannot be queried until it is online.
 * Waits up to five minutes (a constant, not data).
 */
export const AWAIT_INDEXES = statement('awaitIndexes', [], 'CALL db.awaitIndexes(300)');

const ALREADY_THERE = /^Neo\.ClientError\.Schema\.(EquivalentSchemaRuleAlreadyExists|ConstraintAlreadyExists|IndexAlreadyExists)$/;

export interface SchemaStatement {
  /** `<file>#<n>`, for messages. */
  source: string;
  cypher: string;
}

/**
 * Splits a schema file into statements: `//` comment lines are dropped and statements end with a
 * `;` at the end of a line.
 */
export function splitCypherFile(text: string, file: string): SchemaStatement[] {
  const body = text.split('\n').filter((line) => !line.trim().startsWith('//')).join('\n');
  return body
    .split(/;\s*(?:\n|$)/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((cypher, i) => ({ source: `${file}#${i + 1}`, cypher }));
}

/** Every statement of `schema/neo4j/*.cypher`, files in name order. */
export function schemaStatements(dir: string = SCHEMA_DIR): SchemaStatement[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.cypher'))
    .sort()
    .flatMap((name) => splitCypherFile(readFileSync(`${dir}/${name}`, 'utf8'), name));
}

/**
 * Applies the constraints and indexes and waits until they are online. Idempotent: every
 * statement is `IF NOT EXISTS`, so running it on every start and from `crm migrate` is safe. Each
 * runs in its own transaction, as Neo4j requires for schema commands.
 */
export async function applySchema(conn: Connection): Promise<number> {
  const statements = schemaStatements();
  for (const stmt of statements) {
    try {
      await conn.schema(stmt.cypher);
    } catch (error) {
      // Another replica starting at the same moment created it between the check and the create.
      if (!ALREADY_THERE.test(codeOf(error))) throw error;
    }
  }
  await conn.read((tx) => tx.rows(bind(AWAIT_INDEXES, {})));
  return statements.length;
}

/**
 * Applies `schema/neo4j/*.cypher` over a connection of its own: connects (failing fast with
 * `unavailable` naming the address), applies, waits for the indexes and disconnects. What
 * `init()` does after its connection check, and what `crm migrate` runs (as `migrateNeo4j`).
 * Returns how many statements were applied.
 */
export async function applyNeo4jSchema(opts: Neo4jOptions): Promise<{ applied: number }> {
  const conn = new Connection(opts);
  try {
    await conn.verify();
    return { applied: await applySchema(conn) };
  } finally {
    await conn.close();
  }
}
