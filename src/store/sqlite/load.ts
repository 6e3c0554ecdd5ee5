import Database from 'better-sqlite3';
import { CrmError, validationError } from '../../domain/errors.ts';
import { uniqueClaims } from '../../domain/fields.ts';
import type { ListEntry, ObjectType, StoredRecord } from '../../domain/types.ts';
import type { DumpRow } from '../../domain/store/port-dump.ts';
import type { Connection } from './connection.ts';
import { DumpChecker, dumpRowError, referencesOf, typeOfRecord } from '../dump-rows.ts';
import { insertEntryRow } from './entries.ts';
import { insertLinkRow, upsertClassification } from './graph.ts';
import { translateError } from './errors.ts';
import { withGraphLogPaused } from './graph-cache.ts';
import { insertListRow } from './lists.ts';
import { insertNoteRow } from './notes.ts';
import { insertObjectTypeRow, objectTypeCache } from './object-types.ts';
import { claimUniques, indexRecords, type IndexItem } from './record-index.ts';
import { COMM_LINKS, insertLinks, NOTE_LINKS, TASK_LINKS, type RecordLinks } from './record-links.ts';
import { insertComm, insertUsageRow } from './comms.ts';
import { insertRecordRow } from './records.ts';
import { insertRelationRow } from './relations.ts';
import { insertApiKeyRow, insertUserRow, insertWorkspaceRow } from './settings.ts';
import { insertTaskRow } from './tasks.ts';
import { insertEvent } from './timeline.ts';
import { insertViewRow } from './views.ts';
import { insertReportRow } from './reports.ts';

/** Rows staged, and read back, per statement. */
const PAGE = 1000;
/** Live records a loader indexes together (their value rows sorted, one FTS5 segment). */
const INDEX_BATCH = 1000;
/** Names each load's staging table. */
let loads = 0;

function refuseExisting(c: Connection, workspaceId: string): void {
  if (c.get('SELECT 1 FROM workspaces WHERE id = ?', workspaceId)) {
    throw new CrmError('conflict', `The workspace ${JSON.stringify(workspaceId)} already exists in this store; import into a store without it`, {
      resource: 'workspace', id: workspaceId,
    });
  }
}

/**
 * Loading a dump, in two phases so that it is all or nothing without holding a transaction across
 * awaits (other calls on this connection would run inside it): the rows are checked (../dump-rows.ts)
 * and staged in a TEMP table as they arrive, then written in one synchronous transaction that
 * reads the staged rows back in pages, so the JavaScript heap stays bounded at any size. The
 * connection keeps TEMP tables in memory (`temp_store = MEMORY`), so the staged rows take about
 * the dump's size in SQLite's memory for the length of the load. The main database is not
 * touched until every row has arrived and passed its check.
 */
export function loadMethods(c: Connection) {
  return {
    async loadDump(rows: AsyncIterable<DumpRow> | Iterable<DumpRow>): Promise<{ rows: number }> {
      const staged = `temp.dump_load_${++loads}`;
      const forward = `temp.dump_references_${loads}`;
      try {
        c.db.exec(`CREATE TABLE ${staged} (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, row TEXT NOT NULL)`);
        c.db.exec(`CREATE TABLE ${forward} (seq INTEGER NOT NULL, record_id TEXT NOT NULL, path TEXT NOT NULL, target TEXT NOT NULL)`);
        const insert = c.db.prepare<[string, string]>(`INSERT INTO ${staged} (kind, row) VALUES (?, ?)`);
        const stage = c.db.transaction((batch: DumpRow[]) => {
          for (const row of batch) insert.run(row.kind, JSON.stringify(row.row));
        });
        const checker = new DumpChecker();
        let batch: DumpRow[] = [];
        for await (const input of rows) {
          const row = checker.check(input);
          if (row.kind === 'workspace') refuseExisting(c, row.row.id);
          batch.push(row);
          if (batch.length === PAGE) {
            stage(batch);
            batch = [];
          }
        }
        stage(batch);
        const workspaceId = checker.workspaceId;
        if (workspaceId === null) throw validationError('rows', 'the dump has no rows; its first row must be the workspace');
        c.holdIfAsked();
        c.tx(() => {
          refuseExisting(c, workspaceId);
          const loader = new Loader(c, workspaceId, forward);
          const page = c.db.prepare<[number], { seq: number; kind: DumpRow['kind']; row: string }>(
            `SELECT seq, kind, row FROM ${staged} WHERE seq > ? ORDER BY seq LIMIT ${PAGE}`,
          );
          withGraphLogPaused(c, workspaceId, () => {
            for (let after = 0, read = page.all(after); read.length > 0; after = read.at(-1)!.seq, read = page.all(after)) {
              for (const { seq, kind, row } of read) {
                const dumped = { kind, row: JSON.parse(row) } as DumpRow;
                if (kind !== 'record') loader.settleReferences();
                atRow(seq, dumped, () => loader.load(dumped, seq));
              }
            }
            loader.settleReferences();
            loader.finish();
          });
        });
        objectTypeCache(c).invalidate();
        return { rows: checker.rows };
      } catch (err) {
        // What the input throws (an unreadable file, a line that is not JSON) passes as it is; only
        // the database's own failures are translated.
        if (err instanceof Database.SqliteError || err instanceof TypeError) translateError(err);
        throw err;
      } finally {
        try {
          c.db.exec(`DROP TABLE IF EXISTS ${staged}`);
          c.db.exec(`DROP TABLE IF EXISTS ${forward}`);
        } catch {
          // The connection was closed meanwhile: its TEMP tables went with it.
        }
      }
    },
  };
}

/** Runs the writes of one row; a failure names the row (constraint failures the checks let through become validation errors). */
function atRow(position: number, row: DumpRow, load: () => void): void {
  try {
    load();
  } catch (err) {
    let failure = err;
    try {
      translateError(err);
    } catch (translated) {
      failure = translated;
    }
    if (failure instanceof CrmError) throw dumpRowError(position, row, failure.message, { ...failure.details }, failure.code);
    if (failure instanceof Database.SqliteError && failure.code.startsWith('SQLITE_CONSTRAINT')) throw dumpRowError(position, row, failure.message);
    throw failure;
  }
}

/** An object type as loaded: its pk, for its records, and its definition, for their unique claims. */
interface LoadedType {
  pk: number;
  type: ObjectType;
}

/**
 * Writes checked rows of one workspace in dump order with the same row writers as the normal write
 * paths, and rebuilds what those paths derive: value rows and search text of live records, unique
 * claims of live records of live object types, entry value rows, link and event_records rows.
 * References between rows must resolve within the dump.
 */
class Loader {
  readonly #types = new Map<string, LoadedType[]>();
  readonly #lists = new Map<string, number>();
  readonly #users = new Set<string>();
  /** Live records whose value and search rows are still to be written, a batch at a time (INDEX_BATCH). */
  #unindexed: IndexItem[] = [];

  /**
   * `forward` is a TEMP table for the references to records not (yet) loaded when their record
   * was, checked once the records are all in: off the JavaScript heap like the staged rows, as a
   * dump's records may all refer forward (a row of it is a small part of its record's staged row).
   */
  constructor(private readonly c: Connection, private readonly workspaceId: string, forward: string) {
    // Prepared here, not through the connection's statement cache: the table is this load's alone.
    this.#holdForward = c.db.prepare(`INSERT INTO ${forward} (seq, record_id, path, target) VALUES (?, ?, ?, ?)`);
    this.#danglingForward = c.db.prepare(`SELECT f.seq, f.record_id, f.path, f.target FROM ${forward} f
      WHERE NOT EXISTS (SELECT 1 FROM records r WHERE r.id = f.target AND r.workspace_id = ?) ORDER BY f.rowid LIMIT 1`);
    this.#dropForward = c.db.prepare(`DELETE FROM ${forward}`);
  }

  readonly #holdForward: Database.Statement<[number, string, string, string]>;
  readonly #danglingForward: Database.Statement<[string], { seq: number; record_id: string; path: string; target: string }>;
  readonly #dropForward: Database.Statement<[]>;

  /** Whether `forward` holds references not yet checked. */
  #forwardHeld = false;

  /** Writes one row; `position` is its place in the dump (1-based), which names it in an error. */
  load(dumped: DumpRow, position: number): void {
    const c = this.c;
    switch (dumped.kind) {
      case 'workspace':
        return insertWorkspaceRow(c, dumped.row);
      case 'user':
        insertUserRow(c, dumped.row);
        this.#users.add(dumped.row.id);
        return;
      case 'api_key':
        if (!this.#users.has(dumped.row.user_id)) throw missing('row.user_id', 'user', dumped.row.user_id);
        return insertApiKeyRow(c, dumped.row);
      case 'object_type': {
        const loaded = { pk: insertObjectTypeRow(c, dumped.row), type: dumped.row };
        this.#types.set(dumped.row.slug, [...(this.#types.get(dumped.row.slug) ?? []), loaded]);
        return;
      }
      case 'record':
        return this.#record(dumped.row, position);
      case 'relation':
        this.#requireRecord('row.from_id', dumped.row.from_id);
        this.#requireRecord('row.to_id', dumped.row.to_id);
        return insertRelationRow(c, dumped.row);
      case 'link':
        return insertLinkRow(c, dumped.row, this.#requireRecord('row.from_id', dumped.row.from_id), this.#requireRecord('row.to_id', dumped.row.to_id));
      case 'classification':
        this.#requireRecord('row.record_id', dumped.row.record_id);
        return upsertClassification(c, dumped.row);
      case 'list':
        this.#requireTypes(dumped.row.object_type_slug);
        this.#lists.set(dumped.row.id, insertListRow(c, dumped.row));
        return;
      case 'entry':
        return this.#entry(dumped.row);
      case 'view':
        this.#requireTypes(dumped.row.object_type_slug);
        if (dumped.row.list_id !== null) this.#requireList(dumped.row.list_id);
        return insertViewRow(c, dumped.row);
      case 'note': {
        const { record_ids: recordIds, ...note } = dumped.row;
        insertNoteRow(c, note);
        return this.#links(NOTE_LINKS, note.id, recordIds);
      }
      case 'report':
        return insertReportRow(c, dumped.row);
      case 'task': {
        const { record_ids: recordIds, ...task } = dumped.row;
        insertTaskRow(c, task);
        return this.#links(TASK_LINKS, task.id, recordIds);
      }
      case 'comm':
        insertComm(c, { ...dumped.row, record_ids: [] });
        return this.#links(COMM_LINKS, dumped.row.id, dumped.row.record_ids);
      case 'event':
        return insertEvent(c, dumped.row);
      case 'usage':
        return insertUsageRow(c, dumped.row);
    }
  }

  /** The object type a record belongs to (typeOfRecord), with its pk. */
  #typeOf(record: StoredRecord): LoadedType {
    const types = this.#requireTypes(record.object_type_slug);
    const type = typeOfRecord(types.map((loaded) => loaded.type), record);
    return types.find((loaded) => loaded.type === type)!;
  }

  /** The row and, when live, what a create derives: unique claims (if its type is live too) and the value and search index. */
  #record(record: StoredRecord, position: number): void {
    const { pk, type } = this.#typeOf(record);
    const written = insertRecordRow(this.c, pk, record);
    for (const { path, id } of referencesOf(type.fields, record.data)) {
      if (this.#slugOf(id) !== undefined) continue;
      this.#holdForward.run(position, record.id, path, id);
      this.#forwardHeld = true;
    }
    if (record.deleted_at !== null) return;
    if (type.deleted_at === null) claimUniques(this.c, written, uniqueClaims(type, record.data), { ifFree: true });
    this.#unindexed.push({ record: written, data: record.data });
    if (this.#unindexed.length >= INDEX_BATCH) this.#index();
  }

  /**
   * Refuses the first record (in dump order) whose data refers to a record the dump does not hold,
   * once every record is in: called before each row that is not a record, and after the last row.
   */
  settleReferences(): void {
    if (!this.#forwardHeld) return;
    const dangling = this.#danglingForward.get(this.workspaceId);
    if (dangling) {
      const error = missing(dangling.path, 'record', dangling.target);
      throw dumpRowError(dangling.seq, { kind: 'record', row: { id: dangling.record_id } }, error.message, { ...error.details });
    }
    this.#dropForward.run();
    this.#forwardHeld = false;
  }

  /** Writes what the rows loaded so far still owe; called once after the last row, in the same transaction. */
  finish(): void {
    this.#index();
  }

  /**
   * The value and search rows of the records held back, as createRecords writes a batch's: in index
   * order, one FTS5 segment and one vocabulary pass per batch instead of one per record.
   */
  #index(): void {
    if (this.#unindexed.length === 0) return;
    indexRecords(this.c, this.#unindexed);
    this.#unindexed = [];
  }

  #entry(entry: ListEntry): void {
    const listPk = this.#requireList(entry.list_id);
    this.#requireRecord('row.record_id', entry.record_id);
    insertEntryRow(this.c, listPk, entry);
  }

  #links(links: RecordLinks, ownerId: string, recordIds: readonly string[]): void {
    recordIds.forEach((id, i) => this.#requireRecord(`row.record_ids[${i}]`, id));
    const twice = recordIds.findIndex((id, i) => recordIds.indexOf(id) !== i);
    if (twice >= 0) throw validationError(`row.record_ids[${twice}]`, `row.record_ids[${twice}] repeats ${JSON.stringify(recordIds[twice])}`);
    insertLinks(this.c, links, ownerId, recordIds);
  }

  #requireTypes(slug: string): LoadedType[] {
    const types = this.#types.get(slug);
    if (!types) throw missing('row.object_type_slug', 'object type', slug);
    return types;
  }

  #requireList(listId: string): number {
    const pk = this.#lists.get(listId);
    if (pk === undefined) throw missing('row.list_id', 'list', listId);
    return pk;
  }

  /** The record's object type; `missing` when the dump has no such record before this row. */
  #requireRecord(path: string, recordId: string): string {
    const slug = this.#slugOf(recordId);
    if (slug === undefined) throw missing(path, 'record', recordId);
    return slug;
  }

  /** The object type slug of a record loaded so far, or undefined. */
  #slugOf(recordId: string): string | undefined {
    return this.c.get<{ object_type_slug: string }>('SELECT object_type_slug FROM records WHERE id = ? AND workspace_id = ?', recordId, this.workspaceId)?.object_type_slug;
  }
}

/** A reference to a row the dump does not hold (before this row). */
function missing(path: string, kind: string, id: string): CrmError {
  return validationError(path, `${path} names the ${kind} ${JSON.stringify(id)}, which is not in the dump`, { field: path, resource: kind, id });
}
