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

/**
 * Inside a trigger on comms: recomputes the comm_queues row of the OLD or NEW item's kind, status
 * and workspace from the comms table (its earliest live scheduled item, or no row), by one seek of
 * comms_due_by_status.
 */
function requeue(side: 'OLD' | 'NEW'): string {
  return `
        DELETE FROM comm_queues WHERE kind = ${side}.kind AND status = ${side}.status AND workspace_id = ${side}.workspace_id;
        INSERT INTO comm_queues (kind, status, workspace_id, due_at)
          SELECT ${side}.kind, ${side}.status, ${side}.workspace_id, due FROM (
            SELECT MIN(next_attempt_at) AS due FROM comms
            WHERE kind = ${side}.kind AND status = ${side}.status AND workspace_id = ${side}.workspace_id AND next_attempt_at IS NOT NULL AND deleted_at IS NULL
          ) WHERE due IS NOT NULL;`;
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
  {
    version: 6,
    name: 'lists, entries, views, notes, tasks and the timeline',
    // Entries get a value index of their own, shaped like record_values, so entry filters and sorts
    // compile exactly as record ones do (see items.ts). Notes and tasks link records through join
    // tables; events name their records through event_records, keyed for per-record reads.
    sql: `
      CREATE TABLE lists (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        object_type_slug TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT,
        fields TEXT NOT NULL,
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE INDEX lists_live_by_workspace ON lists(workspace_id, created_at) WHERE deleted_at IS NULL;

      CREATE TABLE list_entries (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        list_pk INTEGER NOT NULL REFERENCES lists(pk),
        list_id TEXT NOT NULL,
        record_id TEXT NOT NULL REFERENCES records(id),
        data TEXT NOT NULL,
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE UNIQUE INDEX list_entries__record ON list_entries(list_pk, record_id);
      CREATE INDEX list_entries_by_created ON list_entries(list_pk, created_at, id);
      CREATE INDEX list_entries_by_updated ON list_entries(list_pk, updated_at, id);

      CREATE TABLE entry_values (
        entry_pk INTEGER NOT NULL REFERENCES list_entries(pk),
        list_pk INTEGER NOT NULL,
        field TEXT NOT NULL,
        v_text TEXT,
        v_num REAL
      );
      CREATE INDEX entry_values_by_entry ON entry_values(entry_pk, field, v_text, v_num);
      CREATE INDEX entry_values_by_text ON entry_values(list_pk, field, v_text, entry_pk);
      CREATE INDEX entry_values_by_num ON entry_values(list_pk, field, v_num, entry_pk);

      CREATE TABLE views (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        name TEXT NOT NULL,
        object_type_slug TEXT NOT NULL,
        list_id TEXT REFERENCES lists(id),
        filters TEXT,
        sorts TEXT NOT NULL,
        visible_fields TEXT NOT NULL,
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE INDEX views_live_by_workspace ON views(workspace_id, created_at) WHERE deleted_at IS NULL;

      CREATE TABLE notes (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        kind TEXT NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        format TEXT NOT NULL,
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE INDEX notes_live_by_workspace ON notes(workspace_id, created_at, id) WHERE deleted_at IS NULL;
      CREATE TABLE note_records (
        note_id TEXT NOT NULL REFERENCES notes(id),
        record_id TEXT NOT NULL REFERENCES records(id),
        position INTEGER NOT NULL,
        PRIMARY KEY (note_id, record_id)
      ) WITHOUT ROWID;
      CREATE INDEX note_records_by_record ON note_records(record_id, note_id);

      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        status TEXT NOT NULL,
        due_at TEXT,
        assignee_id TEXT,
        completed_at TEXT,
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE INDEX tasks_live_by_due ON tasks(workspace_id, due_at, created_at, id) WHERE deleted_at IS NULL;
      CREATE INDEX tasks_live_by_assignee ON tasks(workspace_id, assignee_id, status) WHERE deleted_at IS NULL;
      CREATE TABLE task_records (
        task_id TEXT NOT NULL REFERENCES tasks(id),
        record_id TEXT NOT NULL REFERENCES records(id),
        position INTEGER NOT NULL,
        PRIMARY KEY (task_id, record_id)
      ) WITHOUT ROWID;
      CREATE INDEX task_records_by_record ON task_records(record_id, task_id);

      CREATE TABLE events (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        at TEXT NOT NULL,
        actor_id TEXT,
        key_id TEXT,
        via TEXT,
        tool TEXT,
        action TEXT NOT NULL,
        resource_type TEXT NOT NULL,
        resource_id TEXT NOT NULL,
        record_ids TEXT NOT NULL,
        diff TEXT
      );
      CREATE INDEX events_by_workspace ON events(workspace_id, id);
      CREATE TABLE event_records (
        workspace_id TEXT NOT NULL,
        record_id TEXT NOT NULL,
        event_id TEXT NOT NULL REFERENCES events(id),
        PRIMARY KEY (workspace_id, record_id, event_id)
      ) WITHOUT ROWID;

      ANALYZE sqlite_schema;
      DELETE FROM sqlite_stat1 WHERE tbl IN ('list_entries', 'entry_values');
      INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
        ('list_entries', 'sqlite_autoindex_list_entries_1', '100000 1'),
        ('list_entries', 'list_entries__record', '100000 10000 1'),
        ('list_entries', 'list_entries_by_created', '100000 10000 2 1'),
        ('list_entries', 'list_entries_by_updated', '100000 10000 2 1'),
        ('entry_values', 'entry_values_by_entry', '300000 3 1 1 1'),
        ('entry_values', 'entry_values_by_text', '300000 30000 10000 10 1'),
        ('entry_values', 'entry_values_by_num', '300000 30000 10000 10 1');
      ANALYZE sqlite_schema;
    `,
  },
  {
    version: 7,
    name: 'graph links and contact classifications',
    // Links are edges of the relations table with source 'link', so walks read one table indexed by
    // both endpoints (the primary key leads with from_id, relations_by_to with to_id); they add an
    // id, free properties and their author. Classifications are one row per contact.
    sql: `
      ALTER TABLE relations ADD COLUMN link_id TEXT;
      ALTER TABLE relations ADD COLUMN properties TEXT;
      ALTER TABLE relations ADD COLUMN created_by TEXT;
      CREATE UNIQUE INDEX relations__link_id ON relations(link_id) WHERE link_id IS NOT NULL;

      CREATE TABLE contact_classifications (
        record_id TEXT PRIMARY KEY REFERENCES records(id),
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        category TEXT NOT NULL,
        strength TEXT NOT NULL,
        score INTEGER NOT NULL,
        reasons TEXT NOT NULL,
        classified_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX contact_classifications_by_workspace ON contact_classifications(workspace_id, category);
    `,
  },
  {
    version: 8,
    name: 'saved reports',
    // The config is one JSON document: it is read whole and never queried by its parts.
    sql: `
      CREATE TABLE reports (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        name TEXT NOT NULL,
        config TEXT NOT NULL,
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE INDEX reports_live_by_workspace ON reports(workspace_id, created_at, id) WHERE deleted_at IS NULL;
    `,
  },
  {
    version: 9,
    name: 'comms',
    sql: `
      CREATE TABLE comms (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        tag TEXT,
        thread_id TEXT,
        at TEXT NOT NULL,
        data TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        created_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE INDEX comms_live_by_kind ON comms(workspace_id, kind, at, id) WHERE deleted_at IS NULL;
      CREATE INDEX comms_due ON comms(kind, next_attempt_at) WHERE next_attempt_at IS NOT NULL AND deleted_at IS NULL;
      CREATE TABLE comm_records (
        comm_id TEXT NOT NULL REFERENCES comms(id),
        record_id TEXT NOT NULL REFERENCES records(id),
        position INTEGER NOT NULL,
        PRIMARY KEY (comm_id, record_id)
      ) WITHOUT ROWID;
      CREATE INDEX comm_records_by_record ON comm_records(record_id, comm_id);
      CREATE TABLE usage_counters (
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        period TEXT NOT NULL,
        style TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (workspace_id, period, style)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 10,
    name: 'record write versions and single-kind value indexes',
    // A counter per object type that every insert, update and delete of one of its records moves,
    // in the writing transaction, whoever writes (this process, the CLI, an import). Cached list
    // totals are keyed by it (count-cache.ts), so a total is never served after a write changed it.
    sql: `
      CREATE TABLE record_versions (
        object_type_pk INTEGER PRIMARY KEY,
        version INTEGER NOT NULL
      );
      CREATE TRIGGER records_version_on_insert AFTER INSERT ON records BEGIN
        INSERT INTO record_versions (object_type_pk, version) VALUES (NEW.object_type_pk, 1)
          ON CONFLICT (object_type_pk) DO UPDATE SET version = version + 1;
      END;
      CREATE TRIGGER records_version_on_update AFTER UPDATE ON records BEGIN
        INSERT INTO record_versions (object_type_pk, version) VALUES (NEW.object_type_pk, 1)
          ON CONFLICT (object_type_pk) DO UPDATE SET version = version + 1;
      END;
      CREATE TRIGGER records_version_on_delete AFTER DELETE ON records BEGIN
        INSERT INTO record_versions (object_type_pk, version) VALUES (OLD.object_type_pk, 1)
          ON CONFLICT (object_type_pk) DO UPDATE SET version = version + 1;
      END;

      -- A value row is text or number, never both: each value index now holds only its own
      -- kind, so a record write updates one of them per value instead of both (bulk loads).
      DROP INDEX record_values_by_text;
      DROP INDEX record_values_by_num;
      CREATE INDEX record_values_by_text ON record_values(object_type_pk, field, v_text, record_pk) WHERE v_text IS NOT NULL;
      CREATE INDEX record_values_by_num ON record_values(object_type_pk, field, v_num, record_pk) WHERE v_num IS NOT NULL;
      DELETE FROM sqlite_stat1 WHERE idx IN ('record_values_by_text', 'record_values_by_num');
      INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
        ('record_values', 'record_values_by_text', '5000000 500000 50000 10 1'),
        ('record_values', 'record_values_by_num', '5000000 500000 50000 10 1');
      ANALYZE sqlite_schema;
    `,
  },
  {
    // Per API key, not per workspace: a key's retries replay its own answers. Not part of a
    // workspace's export (they expire within a day and name no workspace data).
    version: 11,
    name: 'idempotency_keys',
    sql: `
      CREATE TABLE idempotency_keys (
        key_id TEXT NOT NULL,
        idem_key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL,
        outcome TEXT,
        claimed_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (key_id, idem_key)
      ) WITHOUT ROWID;
      CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys(expires_at);
    `,
  },
  {
    version: 12,
    name: 'comms by kind, status and tag',
    // The webhook dispatcher asks every tick for the connected webhooks of all workspaces (kind,
    // status, tag); comms_live_by_kind leads with the workspace, so without this it read every comm.
    sql: `
      CREATE INDEX comms_live_by_status ON comms(kind, status, tag, id) WHERE deleted_at IS NULL;
    `,
  },
  {
    version: 13,
    name: 'incoming relations covered by their index',
    // records.get reads a record's incoming edges through relations_by_to; with only (to_id,
    // source, type) in it, every edge cost a second lookup in the table for its timestamp and
    // object slugs. Carrying them in the index makes the incoming side a single range read.
    sql: `
      DROP INDEX relations_by_to;
      CREATE INDEX relations_by_to ON relations(to_id, source, type, created_at, from_object, to_object);
    `,
  },
  {
    version: 14,
    name: 'live records by id for graph walks',
    // A walk checks both ends of every edge it reads for liveness and takes their object type: by
    // sqlite_autoindex_records_1 that is a second seek into the records table (rows with their
    // data) per end. This index answers it alone, a few MB for 100k records; deleted_at is a
    // column (always NULL here) only so the planner sees the index as covering.
    sql: `
      CREATE INDEX records_live_graph ON records(id, workspace_id, object_type_slug, deleted_at) WHERE deleted_at IS NULL;
      DELETE FROM sqlite_stat1 WHERE idx = 'records_live_graph';
      INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('records', 'records_live_graph', '1000000 1 1 1 1');
      ANALYZE sqlite_schema;
    `,
  },
  {
    version: 15,
    name: 'record write versions per block of records',
    // Like record_versions, per block of 4,096 consecutive record pks (pk >> 12) of an object type:
    // report aggregations are kept per block (block-cache.ts), so after a write only the blocks it
    // touched are aggregated again. Rows are never deleted; existing records get theirs here.
    sql: `
      CREATE TABLE record_block_versions (
        object_type_pk INTEGER NOT NULL,
        block INTEGER NOT NULL,
        version INTEGER NOT NULL,
        PRIMARY KEY (object_type_pk, block)
      ) WITHOUT ROWID;
      INSERT INTO record_block_versions (object_type_pk, block, version)
        SELECT object_type_pk, pk >> 12, 1 FROM records GROUP BY object_type_pk, pk >> 12;
      CREATE TRIGGER records_block_version_on_insert AFTER INSERT ON records BEGIN
        INSERT INTO record_block_versions (object_type_pk, block, version) VALUES (NEW.object_type_pk, NEW.pk >> 12, 1)
          ON CONFLICT (object_type_pk, block) DO UPDATE SET version = version + 1;
      END;
      CREATE TRIGGER records_block_version_on_update AFTER UPDATE ON records BEGIN
        INSERT INTO record_block_versions (object_type_pk, block, version) VALUES (NEW.object_type_pk, NEW.pk >> 12, 1)
          ON CONFLICT (object_type_pk, block) DO UPDATE SET version = version + 1;
      END;
      CREATE TRIGGER records_block_version_on_delete AFTER DELETE ON records BEGIN
        INSERT INTO record_block_versions (object_type_pk, block, version) VALUES (OLD.object_type_pk, OLD.pk >> 12, 1)
          ON CONFLICT (object_type_pk, block) DO UPDATE SET version = version + 1;
      END;
    `,
  },
  {
    version: 16,
    name: 'a change log of the relationship graph',
    // The graph cache (graph-cache.ts) keeps walked adjacency in memory and drops what these
    // triggers name: both ends of a relation written, a record deleted, restored, retyped or
    // purged, a contact whose classification changed. Written in the writing transaction, so every
    // connection and process sees a change and its log entry together. Every 10,000th entry trims
    // the log to its newest 100,000, so at least 90,000 unread entries stand after any entry a cache
    // has not read, and a cache more than 10,000 behind starts over (graph-cache.ts). Bulk loads insert rows without an entry each: inside their
    // transaction they mark the workspace in graph_changes_paused, and before committing unmark it
    // and log '*' (the whole workspace), so no other connection ever sees the mark.
    sql: `
      CREATE TABLE graph_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        workspace_id TEXT NOT NULL,
        a TEXT NOT NULL,
        b TEXT
      );
      CREATE TABLE graph_changes_paused (
        workspace_id TEXT PRIMARY KEY
      );
      CREATE TRIGGER graph_changes_trim AFTER INSERT ON graph_changes WHEN NEW.seq % 10000 = 0 BEGIN
        DELETE FROM graph_changes WHERE seq <= NEW.seq - 100000;
      END;
      CREATE TRIGGER relations_graph_change_on_insert AFTER INSERT ON relations
        WHEN NOT EXISTS (SELECT 1 FROM graph_changes_paused WHERE workspace_id = NEW.workspace_id)
      BEGIN
        INSERT INTO graph_changes (workspace_id, a, b) VALUES (NEW.workspace_id, NEW.from_id, NEW.to_id);
      END;
      CREATE TRIGGER relations_graph_change_on_delete AFTER DELETE ON relations BEGIN
        INSERT INTO graph_changes (workspace_id, a, b) VALUES (OLD.workspace_id, OLD.from_id, OLD.to_id);
      END;
      CREATE TRIGGER relations_graph_change_on_update AFTER UPDATE ON relations BEGIN
        INSERT INTO graph_changes (workspace_id, a, b) VALUES (OLD.workspace_id, OLD.from_id, OLD.to_id);
        INSERT INTO graph_changes (workspace_id, a, b) VALUES (NEW.workspace_id, NEW.from_id, NEW.to_id);
      END;
      CREATE TRIGGER records_graph_change_on_update AFTER UPDATE OF deleted_at, object_type_slug, workspace_id, id ON records
        WHEN OLD.deleted_at IS NOT NEW.deleted_at OR OLD.object_type_slug IS NOT NEW.object_type_slug
          OR OLD.workspace_id IS NOT NEW.workspace_id OR OLD.id IS NOT NEW.id
      BEGIN
        INSERT INTO graph_changes (workspace_id, a, b) VALUES (OLD.workspace_id, OLD.id, NULL);
        INSERT INTO graph_changes (workspace_id, a, b) VALUES (NEW.workspace_id, NEW.id, NULL);
      END;
      CREATE TRIGGER records_graph_change_on_delete AFTER DELETE ON records BEGIN
        INSERT INTO graph_changes (workspace_id, a, b) VALUES (OLD.workspace_id, OLD.id, NULL);
      END;
      CREATE TRIGGER classifications_graph_change_on_insert AFTER INSERT ON contact_classifications
        WHEN NOT EXISTS (SELECT 1 FROM graph_changes_paused WHERE workspace_id = NEW.workspace_id)
      BEGIN
        INSERT INTO graph_changes (workspace_id, a, b) VALUES (NEW.workspace_id, NEW.record_id, NULL);
      END;
      CREATE TRIGGER classifications_graph_change_on_update AFTER UPDATE ON contact_classifications BEGIN
        INSERT INTO graph_changes (workspace_id, a, b) VALUES (OLD.workspace_id, OLD.record_id, NULL);
        INSERT INTO graph_changes (workspace_id, a, b) VALUES (NEW.workspace_id, NEW.record_id, NULL);
      END;
      CREATE TRIGGER classifications_graph_change_on_delete AFTER DELETE ON contact_classifications BEGIN
        INSERT INTO graph_changes (workspace_id, a, b) VALUES (OLD.workspace_id, OLD.record_id, NULL);
      END;
    `,
  },
  {
    version: 17,
    name: 'entry write versions per list',
    // Like record_versions, per list: every insert, update and delete of one of its entries moves
    // it in the writing transaction. Cached entry totals are keyed by it together with the record
    // version of the list's object type (items.ts ENTRIES.versionSql), since an entry counts only
    // while its record is live.
    sql: `
      CREATE TABLE list_versions (
        list_pk INTEGER PRIMARY KEY,
        version INTEGER NOT NULL
      );
      CREATE TRIGGER list_entries_version_on_insert AFTER INSERT ON list_entries BEGIN
        INSERT INTO list_versions (list_pk, version) VALUES (NEW.list_pk, 1)
          ON CONFLICT (list_pk) DO UPDATE SET version = version + 1;
      END;
      CREATE TRIGGER list_entries_version_on_update AFTER UPDATE ON list_entries BEGIN
        INSERT INTO list_versions (list_pk, version) VALUES (OLD.list_pk, 1)
          ON CONFLICT (list_pk) DO UPDATE SET version = version + 1;
        INSERT INTO list_versions (list_pk, version) VALUES (NEW.list_pk, 1)
          ON CONFLICT (list_pk) DO UPDATE SET version = version + 1;
      END;
      CREATE TRIGGER list_entries_version_on_delete AFTER DELETE ON list_entries BEGIN
        INSERT INTO list_versions (list_pk, version) VALUES (OLD.list_pk, 1)
          ON CONFLICT (list_pk) DO UPDATE SET version = version + 1;
      END;
    `,
  },
  {
    version: 18,
    name: 'the graph change log names data and field changes',
    // The graph cache also keeps the display names of the records it has met (recordSummaries), so
    // the log names a record whose data changed, and the whole workspace ('*') when a field of one
    // of its object types is added, changed or removed, since display names follow the fields.
    sql: `
      CREATE TRIGGER records_graph_change_on_data AFTER UPDATE OF data ON records
        WHEN OLD.data IS NOT NEW.data
      BEGIN
        INSERT INTO graph_changes (workspace_id, a, b) VALUES (NEW.workspace_id, NEW.id, NULL);
      END;
      CREATE TRIGGER fields_graph_change_on_insert AFTER INSERT ON fields BEGIN
        INSERT INTO graph_changes (workspace_id, a, b) SELECT workspace_id, '*', NULL FROM object_types WHERE pk = NEW.object_type_pk;
      END;
      CREATE TRIGGER fields_graph_change_on_update AFTER UPDATE ON fields BEGIN
        INSERT INTO graph_changes (workspace_id, a, b) SELECT workspace_id, '*', NULL FROM object_types WHERE pk = NEW.object_type_pk;
      END;
      CREATE TRIGGER fields_graph_change_on_delete AFTER DELETE ON fields BEGIN
        INSERT INTO graph_changes (workspace_id, a, b) SELECT workspace_id, '*', NULL FROM object_types WHERE pk = OLD.object_type_pk;
      END;
    `,
  },
  {
    version: 19,
    name: 'planner statistics for notes, tasks and messages',
    // Without statistics the planner reads "the notes of this record" by walking every live note
    // of the workspace in page order and testing each against the record's links, because that
    // avoids a sort: linear in the workspace (a few ms at 1M records). These rows tell it what we
    // know at any size — a workspace has many notes, tasks and messages, a record few — so it
    // starts from the record's links and sorts the handful it finds. Every index of a table gets a
    // row: one without would be costed by default guesses against these.
    sql: `
      DELETE FROM sqlite_stat1 WHERE tbl IN ('notes', 'note_records', 'tasks', 'task_records', 'comms', 'comm_records');
      INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
        ('notes', 'notes_live_by_workspace', '1000000 100000 2 1'),
        ('note_records', 'note_records_by_record', '2000000 4 1'),
        ('tasks', 'tasks_live_by_due', '1000000 100000 50 2 1'),
        ('tasks', 'tasks_live_by_assignee', '1000000 100000 5000 2000'),
        ('task_records', 'task_records_by_record', '2000000 4 1'),
        ('comms', 'comms_live_by_kind', '1000000 100000 30000 2 1'),
        ('comms', 'comms_live_by_status', '1000000 250000 50000 20000 1'),
        ('comms', 'comms_due', '10000 2500 1'),
        ('comm_records', 'comm_records_by_record', '2000000 4 1');
      ANALYZE sqlite_schema;
    `,
  },
  {
    version: 20,
    name: 'tasks in page order',
    // tasks.list pages in (due date, nulls last), created_at, id order. No index had that order, so
    // every page sorted all the matching tasks: all of a workspace's (3.1 ms at 1M records, 10k
    // tasks) or all of an assignee's in the statuses asked for (1.2 ms). With these the page walks
    // an index in its order and stops after offset + limit matches; the status is in the
    // assignee's index, so a status filter is tested (and counted) without reading the table.
    sql: `
      CREATE INDEX tasks_live_in_order ON tasks(workspace_id, due_at IS NULL, due_at, created_at, id) WHERE deleted_at IS NULL;
      CREATE INDEX tasks_live_by_assignee_in_order ON tasks(workspace_id, assignee_id, due_at IS NULL, due_at, created_at, id, status) WHERE deleted_at IS NULL;
      DELETE FROM sqlite_stat1 WHERE idx IN ('tasks_live_in_order', 'tasks_live_by_assignee_in_order');
      INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
        ('tasks', 'tasks_live_in_order', '1000000 100000 50000 50 2 1'),
        ('tasks', 'tasks_live_by_assignee_in_order', '1000000 100000 5000 2500 2 1 1 1');
      ANALYZE sqlite_schema;
    `,
  },
  {
    version: 21,
    name: 'object types by slug, deleted ones too',
    // The version key of a list's entry count sums the record versions of every object type with
    // the list's slug, deleted ones included (a type deleted and made again keeps its old records'
    // writes in the key). object_types__live_slug is partial, so that join read object_types whole
    // on every lists.entries call: a scan of all workspaces' types in the file.
    sql: `
      CREATE INDEX object_types_by_slug ON object_types(workspace_id, slug);
    `,
  },
  {
    version: 22,
    name: 'events are append-only',
    // The workspace timeline's total is kept per connection from the events appended after the
    // last one it counted (timeline.ts EventTotals), which is exact only while no event is ever
    // deleted or changed. Nothing does; these make sure nothing will without meeting this note.
    sql: `
      CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events BEGIN
        SELECT RAISE(ABORT, 'events are append-only: the timeline totals count on it (timeline.ts EventTotals)');
      END;
      CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events BEGIN
        SELECT RAISE(ABORT, 'events are append-only: the timeline totals count on it (timeline.ts EventTotals)');
      END;
    `,
  },
  {
    version: 23,
    name: 'search index merged a few pages per write',
    // FTS5's own merging (automerge) runs in quanta of 64 pages per level of the index, inside
    // whichever commit crosses its 64th page written since the last: while a large merge was
    // under way, one create in 64 paid ~10 ms.
    // Writes now merge a few pages each just before they commit (record-index.ts, mergeSearchIndex).
    sql: `INSERT INTO records_fts (records_fts, rank) VALUES ('automerge', 0);`,
  },
  {
    version: 24,
    name: 'search vocabulary',
    // Every term of the full-text index, so a search word is sent as the terms it starts rather
    // than as a prefix FTS5 merges in full (search-terms.ts). Filled from the index as it stands.
    sql: `
      CREATE TABLE search_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;
      CREATE VIRTUAL TABLE temp.records_fts_terms USING fts5vocab(main, records_fts, row);
      INSERT INTO search_terms (term) SELECT term FROM temp.records_fts_terms;
      DROP TABLE temp.records_fts_terms;
    `,
  },
  {
    version: 25,
    name: 'search documents',
    // What a search filters and ranks each match by (its object type, its word count and its id),
    // in one small row per indexed record, so a match costs one lookup instead of one into
    // `records` and one into `records_fts_docsize` (queries.ts). A row exists exactly while the
    // record's text is in `records_fts`: for live records only (record-index.ts).
    sql: `
      CREATE TABLE search_docs (
        pk INTEGER PRIMARY KEY,
        object_type_pk INTEGER NOT NULL,
        id TEXT NOT NULL,
        sz BLOB NOT NULL
      );
      INSERT INTO search_docs (pk, object_type_pk, id, sz)
        SELECT r.pk, r.object_type_pk, r.id, d.sz FROM records_fts_docsize d JOIN records r ON r.pk = d.id ORDER BY d.id;
    `,
  },
  {
    version: 26,
    name: 'search rows written behind',
    // Records whose search rows (records_fts, search_docs, search_terms) no longer match their
    // text: a single create, update, delete or restore names its record here and the rows are
    // rewritten for many records in one transaction, soon after and before any search
    // (record-index.ts, catchUpSearch). One FTS5 segment per create was a fifth of its pages.
    sql: `CREATE TABLE search_pending (pk INTEGER PRIMARY KEY);`,
  },
  {
    version: 27,
    name: 'record inserts move their write versions themselves',
    // With foreign keys on, a statement that can write more than one row (a trigger makes it so)
    // and can fail a constraint runs in a statement journal: every page the insert touched is
    // copied there first, half as much again as the row itself cost. So the writer moves
    // record_versions and record_block_versions for the records it inserts (records.ts,
    // moveInsertVersions; once per batch for createRecords); updates and deletes keep their
    // triggers (migrations 10 and 15).
    sql: `
      DROP TRIGGER records_version_on_insert;
      DROP TRIGGER records_block_version_on_insert;
    `,
  },
  {
    version: 28,
    name: 'edge inserts log their graph change themselves',
    // For the reason of migration 27: the writer logs an inserted edge (graph-log.ts,
    // logInsertedEdge) unless a bulk write paused the log; updates and deletes keep their triggers.
    sql: `DROP TRIGGER relations_graph_change_on_insert;`,
  },
  {
    version: 29,
    name: 'entry inserts move their list version themselves',
    // For the reason of migration 27: the writer moves list_versions for the entries it inserts
    // (entries.ts, insertEntryRow; once per batch for addListEntries); updates and deletes keep
    // their triggers (migration 17).
    sql: `DROP TRIGGER list_entries_version_on_insert;`,
  },
  {
    version: 30,
    name: 'value rows clustered by their item',
    // A value row went into three b-trees: the rowid table, the per-item index (`_by_record`,
    // `_by_entry`) and a value index. Keyed by (item, field, seq) WITHOUT ROWID, the table is
    // the per-item index itself: an item's values are still read together by a key prefix, in
    // a third less space. `seq` numbers the values of one field of one item (array elements)
    // from 0; SQLite stores a 0 in no bytes. The item key is checked at COMMIT (DEFERRABLE
    // INITIALLY DEFERRED): a statement writing many value rows that could fail an immediate
    // foreign key runs in a statement journal, which copied every page it touched first: a
    // seventh to a fifth of what those statements cost (record-index.ts, writeValueRows).
    sql: `
      CREATE TABLE record_values_clustered (
        record_pk INTEGER NOT NULL REFERENCES records(pk) DEFERRABLE INITIALLY DEFERRED,
        field TEXT NOT NULL,
        seq INTEGER NOT NULL,
        object_type_pk INTEGER NOT NULL,
        v_text TEXT,
        v_num REAL,
        PRIMARY KEY (record_pk, field, seq)
      ) WITHOUT ROWID;
      INSERT INTO record_values_clustered (record_pk, field, seq, object_type_pk, v_text, v_num)
        SELECT record_pk, field, row_number() OVER (PARTITION BY record_pk, field ORDER BY rowid) - 1, object_type_pk, v_text, v_num
        FROM record_values ORDER BY record_pk, field, rowid;
      DROP TABLE record_values;
      ALTER TABLE record_values_clustered RENAME TO record_values;
      CREATE INDEX record_values_by_text ON record_values(object_type_pk, field, v_text, record_pk) WHERE v_text IS NOT NULL;
      CREATE INDEX record_values_by_num ON record_values(object_type_pk, field, v_num, record_pk) WHERE v_num IS NOT NULL;

      CREATE TABLE entry_values_clustered (
        entry_pk INTEGER NOT NULL REFERENCES list_entries(pk) DEFERRABLE INITIALLY DEFERRED,
        field TEXT NOT NULL,
        seq INTEGER NOT NULL,
        list_pk INTEGER NOT NULL,
        v_text TEXT,
        v_num REAL,
        PRIMARY KEY (entry_pk, field, seq)
      ) WITHOUT ROWID;
      INSERT INTO entry_values_clustered (entry_pk, field, seq, list_pk, v_text, v_num)
        SELECT entry_pk, field, row_number() OVER (PARTITION BY entry_pk, field ORDER BY rowid) - 1, list_pk, v_text, v_num
        FROM entry_values ORDER BY entry_pk, field, rowid;
      DROP TABLE entry_values;
      ALTER TABLE entry_values_clustered RENAME TO entry_values;
      CREATE INDEX entry_values_by_text ON entry_values(list_pk, field, v_text, entry_pk);
      CREATE INDEX entry_values_by_num ON entry_values(list_pk, field, v_num, entry_pk);

      DELETE FROM sqlite_stat1 WHERE tbl IN ('record_values', 'entry_values');
      INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
        ('record_values', 'record_values', '5000000 5 1 1'),
        ('record_values', 'record_values_by_text', '5000000 500000 50000 10 1'),
        ('record_values', 'record_values_by_num', '5000000 500000 50000 10 1'),
        ('entry_values', 'entry_values', '300000 3 1 1'),
        ('entry_values', 'entry_values_by_text', '300000 30000 10000 10 1'),
        ('entry_values', 'entry_values_by_num', '300000 30000 10000 10 1');
      ANALYZE sqlite_schema;
    `,
  },
  {
    version: 31,
    name: 'due work by workspace',
    // Outbound work was claimed oldest due first across workspaces, so one workspace's burst (an
    // import's ten thousand webhook deliveries) held every other workspace's behind it. A claim
    // now takes each workspace's oldest due items in turns (comms.ts, claimDueComms), walking the
    // workspaces with scheduled work through this index and reading a few items of each.
    sql: `
      DROP INDEX comms_due;
      CREATE INDEX comms_due_by_workspace ON comms(kind, workspace_id, next_attempt_at, id) WHERE next_attempt_at IS NOT NULL AND deleted_at IS NULL;
      DELETE FROM sqlite_stat1 WHERE tbl = 'comms' AND idx = 'comms_due';
      INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('comms', 'comms_due_by_workspace', '10000 2500 100 2 1');
      ANALYZE sqlite_schema;
    `,
  },
  {
    version: 32,
    name: 'due work heads per workspace',
    // Migration 31's claim walked every workspace with scheduled work of a kind, due or waiting for
    // a retry, to find whose turn it was: with 10,000 such workspaces a claim took 100 ms of the
    // event loop. comm_queues keeps, per kind, status and workspace, its earliest next_attempt_at,
    // kept by the triggers below (one index seek per write of a scheduled item); a claim reads the
    // `limit` workspaces due first from it, then a few items of each (comms.ts, claimDueComms).
    sql: `
      DROP INDEX comms_due_by_workspace;
      CREATE INDEX comms_due_by_status ON comms(kind, status, workspace_id, next_attempt_at, id) WHERE next_attempt_at IS NOT NULL AND deleted_at IS NULL;
      CREATE TABLE comm_queues (
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        due_at TEXT NOT NULL,
        PRIMARY KEY (kind, status, workspace_id)
      ) WITHOUT ROWID;
      CREATE INDEX comm_queues_by_due ON comm_queues(kind, status, due_at);
      INSERT INTO comm_queues (kind, status, workspace_id, due_at)
        SELECT kind, status, workspace_id, MIN(next_attempt_at) FROM comms
        WHERE next_attempt_at IS NOT NULL AND deleted_at IS NULL GROUP BY kind, status, workspace_id;
      CREATE TRIGGER comms_queue_on_insert AFTER INSERT ON comms
      WHEN NEW.next_attempt_at IS NOT NULL AND NEW.deleted_at IS NULL
      BEGIN
        INSERT INTO comm_queues (kind, status, workspace_id, due_at) VALUES (NEW.kind, NEW.status, NEW.workspace_id, NEW.next_attempt_at)
        ON CONFLICT (kind, status, workspace_id) DO UPDATE SET due_at = MIN(due_at, excluded.due_at);
      END;
      CREATE TRIGGER comms_queue_on_update AFTER UPDATE OF kind, status, workspace_id, next_attempt_at, deleted_at ON comms
      WHEN OLD.next_attempt_at IS NOT NULL OR NEW.next_attempt_at IS NOT NULL
      BEGIN
${requeue('OLD')}
${requeue('NEW')}
      END;
      CREATE TRIGGER comms_queue_on_delete AFTER DELETE ON comms
      WHEN OLD.next_attempt_at IS NOT NULL
      BEGIN
${requeue('OLD')}
      END;
      DELETE FROM sqlite_stat1 WHERE tbl = 'comms' AND idx = 'comms_due_by_workspace';
      INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
        ('comms', 'comms_due_by_status', '10000 2500 2500 100 2 1'),
        ('comm_queues', 'comm_queues', '1000 250 250 1'),
        ('comm_queues', 'comm_queues_by_due', '1000 250 250 2');
      ANALYZE sqlite_schema;
    `,
  },
  {
    version: 33,
    name: 'plan none is no plan',
    // GraphQL's setPlan stored "none" as a paid plan's name, which lifted a lapsed trial, where
    // the CLI read it as no plan. Every path now reads it so (planName); plans stored so are none.
    sql: `
      UPDATE workspaces SET plan = NULL WHERE lower(trim(plan, char(32, 9, 10, 11, 12, 13))) = 'none';
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
