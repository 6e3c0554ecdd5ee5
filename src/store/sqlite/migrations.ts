import type Database from 'better-sqlite3';

/**
 * Versioned schema changes, applied in order by `applyMigrations`. Append only: a released
 * migration is never edited, a change is a new entry with the next version.
 *
 * Naming: a unique index is called `<table>__<what>`, so `translateError` can tell from SQLite's
 * message which table a conflict is about.
 *
 * Records, object types and the tables hanging off them carry an integer `pk` besides their public
 * id: the value index, the unique claims and the FTS rowid stay small at millions of rows, and
 * claims are keyed by the object type's pk (not its slug), so a soft-deleted type's records never
 * leak into a new type that reuses the slug.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = Object.freeze([
  {
    version: 1,
    name: 'workspace settings',
    sql: `
      CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        plan TEXT,
        trial_ends_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE users (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        email TEXT NOT NULL,
        name TEXT,
        role TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX users__email ON users(workspace_id, lower(email));
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        user_id TEXT NOT NULL REFERENCES users(id),
        name TEXT NOT NULL,
        scopes TEXT NOT NULL,
        hash TEXT NOT NULL,
        last_four TEXT NOT NULL,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE UNIQUE INDEX api_keys__hash ON api_keys(hash);
      CREATE INDEX api_keys_by_workspace ON api_keys(workspace_id);
    `,
  },
  {
    version: 2,
    name: 'object types and fields',
    sql: `
      CREATE TABLE object_types (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        slug TEXT NOT NULL,
        name TEXT NOT NULL,
        icon TEXT,
        color TEXT,
        description TEXT,
        standard INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE UNIQUE INDEX object_types__live_slug ON object_types(workspace_id, slug) WHERE deleted_at IS NULL;
      CREATE TABLE fields (
        id TEXT PRIMARY KEY,
        object_type_pk INTEGER NOT NULL REFERENCES object_types(pk),
        slug TEXT NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        description TEXT,
        required INTEGER NOT NULL DEFAULT 0,
        is_unique INTEGER NOT NULL DEFAULT 0,
        archived INTEGER NOT NULL DEFAULT 0,
        config TEXT NOT NULL DEFAULT '{}',
        position INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (object_type_pk, slug)
      );
    `,
  },
  {
    version: 3,
    name: 'records, claims, relations and the value index',
    sql: `
      CREATE TABLE records (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        object_type_pk INTEGER NOT NULL REFERENCES object_types(pk),
        object_type_slug TEXT NOT NULL,
        data TEXT NOT NULL,
        assignee_id TEXT,
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE INDEX records_live_by_created ON records(object_type_pk, created_at, id) WHERE deleted_at IS NULL;
      CREATE INDEX records_live_by_updated ON records(object_type_pk, updated_at, id) WHERE deleted_at IS NULL;
      CREATE INDEX records_live_by_id ON records(object_type_pk, id) WHERE deleted_at IS NULL;

      CREATE TABLE record_uniques (
        object_type_pk INTEGER NOT NULL REFERENCES object_types(pk),
        field TEXT NOT NULL,
        value TEXT NOT NULL,
        record_pk INTEGER NOT NULL REFERENCES records(pk),
        PRIMARY KEY (object_type_pk, field, value)
      ) WITHOUT ROWID;
      CREATE INDEX record_uniques_by_record ON record_uniques(record_pk);

      CREATE TABLE relations (
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        from_id TEXT NOT NULL REFERENCES records(id),
        to_id TEXT NOT NULL REFERENCES records(id),
        type TEXT NOT NULL,
        source TEXT NOT NULL,
        from_object TEXT NOT NULL,
        to_object TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (from_id, source, type, to_id)
      ) WITHOUT ROWID;
      CREATE INDEX relations_by_to ON relations(to_id, source, type);

      CREATE TABLE record_values (
        record_pk INTEGER NOT NULL REFERENCES records(pk),
        object_type_pk INTEGER NOT NULL,
        field TEXT NOT NULL,
        v_text TEXT,
        v_num REAL
      );
      CREATE INDEX record_values_by_record ON record_values(record_pk, field, v_text, v_num);
      CREATE INDEX record_values_by_text ON record_values(object_type_pk, field, v_text, record_pk);
      CREATE INDEX record_values_by_num ON record_values(object_type_pk, field, v_num, record_pk);
    `,
  },
  {
    version: 4,
    name: 'full-text search',
    sql: `
      CREATE VIRTUAL TABLE records_fts USING fts5(
        body,
        content = '',
        contentless_delete = 1,
        tokenize = 'unicode61 remove_diacritics 2'
      );
    `,
  },
  {
    version: 5,
    name: 'planner statistics',
    // Fixed statistics tell the planner what we know about the data at any size: an object type
    // has many records, a field value few. Without them SQLite scans a whole object type to test a
    // selective filter, and sorts it to order by a field instead of streaming the value index.
    // `ANALYZE sqlite_schema` creates sqlite_stat1 cheaply and, run again, loads our rows.
    sql: `
      ANALYZE sqlite_schema;
      DELETE FROM sqlite_stat1 WHERE tbl IN ('records', 'record_values');
      INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
        ('records', 'sqlite_autoindex_records_1', '1000000 1'),
        ('records', 'records_live_by_created', '1000000 100000 2 1'),
        ('records', 'records_live_by_updated', '1000000 100000 2 1'),
        ('records', 'records_live_by_id', '1000000 100000 1'),
        ('record_values', 'record_values_by_record', '5000000 5 1 1 1'),
        ('record_values', 'record_values_by_text', '5000000 500000 50000 10 1'),
        ('record_values', 'record_values_by_num', '5000000 500000 50000 10 1');
      ANALYZE sqlite_schema;
    `,
  },
]);

/**
 * Applies the migrations the database has not seen yet, each in its own IMMEDIATE transaction that
 * re-checks the version, so two processes starting on one file cannot apply a migration twice.
 * Returns the versions applied now.
 */
export function applyMigrations(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const seen = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?');
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: number[] = [];
  for (const migration of migrations) {
    db.transaction(() => {
      if (seen.get(migration.version)) return;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
      applied.push(migration.version);
    }).immediate();
  }
  return applied;
}
