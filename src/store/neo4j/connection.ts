import neo4j, { type Driver, type ManagedTransaction } from 'neo4j-driver';
import type { CrmError } from '../../domain/errors.ts';
import { translateNeo4jError, type ErrorContext } from './errors.ts';
import type { BuiltStatement } from './statement.ts';

export interface Neo4jOptions {
  /** `bolt://host:7687`, `neo4j://host:7687` (routing, for a cluster), or their `+s` forms. */
  uri: string;
  user?: string;
  password?: string;
  /** Database name; default `neo4j`. Every session names it. */
  database?: string;
  /** How long managed transactions retry transient failures, in ms; default 5000. */
  maxRetryMs?: number;
}

export type Row = Record<string, unknown>;

/** One managed transaction: runs built statements and returns their rows as plain objects. */
export class Tx {
  constructor(private readonly tx: ManagedTransaction) {}

  async rows(built: BuiltStatement): Promise<Row[]> {
    const result = await this.tx.run(built.cypher, built.params);
    return result.records.map((record) => record.toObject() as Row);
  }

  async first(built: BuiltStatement): Promise<Row | undefined> {
    return (await this.rows(built))[0];
  }
}

/**
 * The only place that touches the driver. Each unit of work runs in its own session on the named
 * database, as a managed transaction (retried on transient failures), and every failure goes
 * through `translateNeo4jError`. A shared bookmark manager gives read-your-writes on a cluster.
 */
export class Connection {
  readonly driver: Driver;
  readonly database: string;
  readonly uri: string;
  private readonly bookmarks = neo4j.bookmarkManager();

  constructor(opts: Neo4jOptions) {
    this.uri = opts.uri;
    this.database = opts.database ?? 'neo4j';
    const auth = opts.user !== undefined ? neo4j.auth.basic(opts.user, opts.password ?? '') : undefined;
    this.driver = neo4j.driver(opts.uri, auth, {
      disableLosslessIntegers: true,
      maxTransactionRetryTime: opts.maxRetryMs ?? 5000,
      connectionTimeout: 5000,
      connectionAcquisitionTimeout: 10_000,
      userAgent: 'crm-tool-service',
    });
  }

  private context(conflict?: (message: string) => CrmError): ErrorContext {
    return { uri: this.uri, database: this.database, ...(conflict ? { conflict } : {}) };
  }

  async read<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const session = this.driver.session({ database: this.database, defaultAccessMode: neo4j.session.READ, bookmarkManager: this.bookmarks });
    try {
      return await session.executeRead((tx) => work(new Tx(tx)));
    } catch (error) {
      throw translateNeo4jError(error, this.context());
    } finally {
      await session.close();
    }
  }

  /** `conflict` says what a uniqueness-constraint failure means for this write. */
  async write<T>(work: (tx: Tx) => Promise<T>, conflict?: (message: string) => CrmError): Promise<T> {
    const session = this.driver.session({ database: this.database, defaultAccessMode: neo4j.session.WRITE, bookmarkManager: this.bookmarks });
    try {
      return await session.executeWrite((tx) => work(new Tx(tx)));
    } catch (error) {
      throw translateNeo4jError(error, this.context(conflict));
    } finally {
      await session.close();
    }
  }

  /** Schema commands cannot share a transaction with writes; each runs on its own. */
  async schema(cypher: string): Promise<void> {
    await this.write((tx) => tx.rows({ cypher, params: {} }));
  }

  /** One connection attempt, no retries: for start-up and readiness. */
  async verify(): Promise<void> {
    try {
      await this.driver.verifyConnectivity({ database: this.database });
    } catch (error) {
      throw translateNeo4jError(error, this.context());
    }
  }

  async close(): Promise<void> {
    await this.driver.close();
  }
}
