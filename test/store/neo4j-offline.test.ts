import { createServer } from 'node:net';
import { Neo4jError } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { CrmError } from '../../src/domain/errors.ts';
import { claimConflict } from '../../src/store/neo4j/conflicts.ts';
import { displayUri, translateNeo4jError } from '../../src/store/neo4j/errors.ts';
import { createNeo4jStore, migrateNeo4j } from '../../src/store/neo4j/index.ts';
import { schemaStatements, splitCypherFile } from '../../src/store/neo4j/schema.ts';

/** What the Neo4j adapter does without a server: fail fast and clearly, translate driver errors. */

/** A local port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const ctx = { uri: 'bolt://neo4j:secret@db.internal:7687', database: 'crm' };
const driverError = (code: string, message = 'driver says no') => new Neo4jError(message, code as never, '50N42', 'error');

describe('a Neo4j store without a server', () => {
  it('fails init fast with unavailable naming the address, never a stack trace', async () => {
    const uri = `bolt://127.0.0.1:${await closedPort()}`;
    const store = createNeo4jStore({ uri, user: 'neo4j', password: 'secret' });
    const started = Date.now();
    const error = await store.init().then(() => null, (e: unknown) => e);
    await store.close();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error).toBeInstanceOf(CrmError);
    expect((error as CrmError).code).toBe('unavailable');
    expect((error as CrmError).message).toContain(uri);
    expect((error as CrmError).message).not.toMatch(/\n\s+at /);
    expect((error as CrmError).details).toEqual({ store: 'neo4j', uri });
  });

  it('reports itself unhealthy with the reason', async () => {
    const uri = `bolt://127.0.0.1:${await closedPort()}`;
    const store = createNeo4jStore({ uri });
    const health = await store.health();
    await store.close();
    expect(health.ok).toBe(false);
    expect(health.detail).toContain(uri);
  });

  it('fails migrate with unavailable and never shows credentials from the address', async () => {
    const port = await closedPort();
    const error = await migrateNeo4j({ uri: `bolt://neo4j:hunter2@127.0.0.1:${port}` }).then(() => null, (e: unknown) => e);
    expect((error as CrmError).code).toBe('unavailable');
    expect((error as CrmError).message).toContain(`bolt://127.0.0.1:${port}`);
    expect((error as CrmError).message).not.toContain('hunter2');
  });
});

describe('translateNeo4jError', () => {
  it('turns a uniqueness constraint into the conflict the write names', () => {
    const conflict = claimConflict([{ field: 'email', value: 'a@b.c' }, { field: 'domain', value: 'b.c' }]);
    const message = "Node(42) already exists with label `UniqueClaim` and properties `object_type_id` = 'obj_1', `field` = 'domain', `value` = 'b.c'";
    const error = translateNeo4jError(driverError('Neo.ClientError.Schema.ConstraintValidationFailed', message), { ...ctx, conflict }) as CrmError;
    expect(error.toJSON()).toEqual({
      code: 'conflict', message: 'Another record already has this domain value', details: { param: 'data.domain', field: 'domain', rule: 'unique' },
    });
  });

  it('names the first claim when the driver message names none it knows', () => {
    const conflict = claimConflict([{ field: 'email', value: 'a@b.c' }]);
    const error = translateNeo4jError(driverError('Neo.ClientError.Schema.ConstraintValidationFailed'), { ...ctx, conflict }) as CrmError;
    expect(error.details).toEqual({ param: 'data.email', field: 'email', rule: 'unique' });
  });

  it.each(['ServiceUnavailable', 'SessionExpired'])('turns %s into unavailable naming the address without credentials', (code) => {
    const error = translateNeo4jError(driverError(code), ctx) as CrmError;
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe('The Neo4j store at bolt://db.internal:7687 cannot be reached; check NEO4J_URI and that the server is running');
    expect(error.cause).toBeInstanceOf(Neo4jError);
  });

  it('turns refused credentials, a missing database and exhausted retries into unavailable', () => {
    expect((translateNeo4jError(driverError('Neo.ClientError.Security.Unauthorized'), ctx) as CrmError).message).toMatch(/refused the credentials/);
    expect((translateNeo4jError(driverError('Neo.ClientError.Database.DatabaseNotFound'), ctx) as CrmError).message).toMatch(/no database "crm"/);
    expect((translateNeo4jError(driverError('Neo.TransientError.Transaction.DeadlockDetected'), ctx) as CrmError).code).toBe('unavailable');
  });

  it('passes CrmErrors and unknown failures through unchanged', () => {
    const crm = new CrmError('not_found', 'gone');
    expect(translateNeo4jError(crm, ctx)).toBe(crm);
    const syntax = driverError('Neo.ClientError.Statement.SyntaxError');
    expect(translateNeo4jError(syntax, ctx)).toBe(syntax);
  });

  it('strips user info from addresses', () => {
    expect(displayUri('neo4j+s://u:p@host:7687/path')).toBe('neo4j+s://host:7687/path');
    expect(displayUri('bolt://host:7687')).toBe('bolt://host:7687');
  });
});

describe('the schema files', () => {
  it('split into statements without comments', () => {
    const text = '// a comment\nCREATE INDEX a IF NOT EXISTS\nFOR (n:User) ON (n.id);\n\n// another\nCREATE INDEX b IF NOT EXISTS FOR (n:ApiKey) ON (n.id);\n';
    expect(splitCypherFile(text, 'x.cypher')).toEqual([
      { source: 'x.cypher#1', cypher: 'CREATE INDEX a IF NOT EXISTS\nFOR (n:User) ON (n.id)' },
      { source: 'x.cypher#2', cypher: 'CREATE INDEX b IF NOT EXISTS FOR (n:ApiKey) ON (n.id)' },
    ]);
  });

  it('are idempotent: every statement creates IF NOT EXISTS, under a name of its own', () => {
    const statements = schemaStatements();
    expect(statements.length).toBeGreaterThan(10);
    const names = statements.map((s) => /^CREATE (?:FULLTEXT )?(?:CONSTRAINT|INDEX) (\w+) IF NOT EXISTS\b/.exec(s.cypher)?.[1]);
    expect(names.every(Boolean)).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });

  it('use no constraint that community edition lacks', () => {
    for (const s of schemaStatements()) expect(s.cypher).not.toMatch(/IS NOT NULL|IS NODE KEY|IS KEY|IS :: /i);
  });
});
