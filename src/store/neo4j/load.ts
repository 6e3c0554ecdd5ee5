import { CrmError, validationError } from '../../domain/errors.ts';
import { uniqueClaims } from '../../domain/fields.ts';
import type { ObjectType } from '../../domain/types.ts';
import { DumpChecker, dumpRowError, referencesOf, typeOfRecord } from '../dump-rows.ts';
import type { DumpKind, DumpRow } from '../../domain/store/port-dump.ts';
import { emailTaken, fieldSlugTaken, objectSlugTaken } from './conflicts.ts';
import type { Connection, Tx } from './connection.ts';
import * as G from './cypher/graph.ts';
import * as Q from './cypher/load.ts';
import { WRITE_EVENTS } from './cypher/timeline.ts';
import { LOAD_COMMS, LOAD_USAGE } from './cypher/comms.ts';
import { commProperties } from './comms.ts';
import type { Comm } from '../../domain/store/port-comms.ts';
import { fieldValues, searchText } from './encoding.ts';
import { purgeWorkspace } from './purge.ts';
import { bind, type BuiltStatement, type Statement } from './statement.ts';

/** Rows written per transaction (one UNWIND per statement). */
export const LOAD_BATCH = 1000;

type RowOf<K extends DumpKind> = Extract<DumpRow, { kind: K }>['row'];

/** A checked row of the dump and its 1-based position, by which errors name it. */
interface Placed<K extends DumpKind = DumpKind> {
  position: number;
  row: RowOf<K>;
}

/** A failure of one row, in the loader's terms; `at` turns it into the error naming the row. */
interface Problem {
  placed: { position: number; row: unknown };
  error: CrmError;
}

/** What one batch writes: the checks that need the database (run first, in its transaction), the writes, and the state to keep once it committed. */
interface Plan {
  check?: (tx: Tx) => Promise<Problem | undefined>;
  writes: BuiltStatement[];
  commit?: () => void;
}

/** A reference to a row the dump does not hold (before this row): worded as SQLite's load words it. */
function notInDump(path: string, kind: string, id: string): CrmError {
  return validationError(path, `${path} names the ${kind} ${JSON.stringify(id)}, which is not in the dump`, { field: path, resource: kind, id });
}

/** The error naming the row, as SQLite's load names it: the row's kind and id, the failure's code, message and details. */
function at({ placed, error }: Problem, kind: DumpKind): CrmError {
  return dumpRowError(placed.position, { kind, row: placed.row }, error.message, { ...error.details }, error.code);
}

/** The first problem of a batch in row order: `checks` gives each row's problems in the order SQLite meets them. */
function firstProblem<K extends DumpKind>(batch: readonly Placed<K>[], checks: (placed: Placed<K>, index: number) => CrmError | undefined): Problem | undefined {
  for (const [index, placed] of batch.entries()) {
    const error = checks(placed, index);
    if (error) return { placed, error };
  }
  return undefined;
}

/**
 * The values by which a uniqueness-constraint failure can be traced to a row, most telling first.
 * The driver's message quotes the offending property values.
 */
function tracedValues(kind: DumpKind, row: Record<string, unknown>): Array<[string, unknown]> {
  const own: Array<[string, unknown]> = kind === 'entry' ? [['row.record_id', row.record_id]] : kind === 'api_key' ? [['row.hash', row.hash]] : [];
  const fields = kind === 'object_type' ? (row.fields as Array<{ id: string }>).map((f, i): [string, unknown] => [`row.fields[${i}].id`, f.id]) : [];
  return [...own, ...fields, ['row.id', row.id]];
}

/**
 * For a uniqueness constraint that fired on a batch (an id or key hash already taken in this
 * store, in another workspace, or twice in the dump; a record twice in a list): the last row of
 * the batch holding the value the driver's message quotes — the later of two equal rows is the
 * one that failed — else the batch as a whole.
 */
function batchConflict(kind: DumpKind, batch: readonly Placed[]): (driverMessage: string) => CrmError {
  return (driverMessage) => {
    const quoted = driverMessage.toLowerCase();
    for (const placed of [...batch].reverse()) {
      const hit = tracedValues(kind, placed.row as unknown as Record<string, unknown>)
        .find(([, value]) => typeof value === 'string' && value !== '' && quoted.includes(`'${value.toLowerCase()}'`));
      if (hit) {
        const [path, value] = hit;
        return at({ placed, error: new CrmError('conflict', `${path} ${JSON.stringify(value)} is already taken in this store`, { field: path }) }, kind);
      }
    }
    const first = batch[0]!;
    return at({ placed: first, error: new CrmError('conflict', `a value of dump rows ${first.position}-${batch.at(-1)!.position} that must be unique is already taken in this store`, {}) }, kind);
  };
}

/** Ids listed at most once: `row.record_ids[i] repeats "…"` for the first repeat, as SQLite's load says. */
function repeated(ids: readonly string[]): CrmError | undefined {
  const twice = ids.findIndex((id, i) => ids.indexOf(id) !== i);
  if (twice < 0) return undefined;
  const path = `row.record_ids[${twice}]`;
  return validationError(path, `${path} repeats ${JSON.stringify(ids[twice])}`);
}

/**
 * One import: the workspace's rows in dump order, batch by batch, each batch one write
 * transaction. What later rows refer to and is small (users, object types, lists, counters) is
 * kept here; records, which may be millions, are looked up in the database. A transaction may run
 * more than once (managed transactions retry), so a plan's work only reads this state; `commit`
 * moves it on after the transaction succeeded.
 */
class Import {
  #workspaceId: string | null = null;
  /** Whether the workspace node was written by this import: only then may a failure erase it. */
  #created = false;
  readonly #users = new Set<string>();
  readonly #emails = new Set<string>();
  /** Object types by slug, in dump order (slugs are reused after a delete). */
  readonly #types = new Map<string, ObjectType[]>();
  readonly #lists = new Set<string>();
  /** `seq` of the next node of each kind that has one, as the create statements count them. */
  readonly #seq = new Map<DumpKind, number>();
  /** Entries given to each list so far: their `seq`, and the list's `entry_seq`. */
  readonly #entrySeq = new Map<string, number>();
  /**
   * References to records not in the database nor in its batch when their record was written:
   * checked once the records are all in. Only what names the reference is kept (not the row).
   */
  #pending: Array<{ position: number; recordId: string; path: string; id: string }> = [];

  constructor(private readonly conn: Connection) {}

  get workspaceId(): string {
    return this.#workspaceId!;
  }

  /** `conflict` when the workspace exists (or an import of it is under way or was interrupted); else writes it, hidden. */
  async begin(placed: Placed<'workspace'>): Promise<void> {
    const workspace = placed.row;
    const found = await this.conn.read((tx) => tx.first(bind(Q.FIND_WORKSPACE, { id: workspace.id })));
    if (found) throw workspaceExists(workspace.id, found.loading === true);
    // A concurrent import of the same workspace that got there first trips the uniqueness constraint.
    await this.conn.write((tx) => tx.rows(bind(Q.LOAD_WORKSPACE, { workspace })), () => workspaceExists(workspace.id, true));
    this.#workspaceId = workspace.id;
    this.#created = true;
  }

  /** Writes a batch of rows of one kind, after checking what they refer to; the first failing row is named. */
  async write(kind: DumpKind, batch: readonly Placed[]): Promise<void> {
    if (kind !== 'record') await this.settleReferences();
    const plan = this.#plan(kind, batch);
    await this.conn.write(async (tx) => {
      const problem = plan.check ? await plan.check(tx) : undefined;
      if (problem) throw at(problem, kind);
      for (const statement of plan.writes) await tx.rows(statement);
    }, batchConflict(kind, batch));
    plan.commit?.();
  }

  /**
   * Refuses the first record (in dump order) whose data refers to a record the dump does not hold,
   * once every record is in: before the first batch that is not of records, and before finish.
   */
  async settleReferences(): Promise<void> {
    for (let from = 0; from < this.#pending.length; from += LOAD_BATCH) {
      const chunk = this.#pending.slice(from, from + LOAD_BATCH);
      const missing = await this.conn.read((tx) => this.#missing(tx, chunk.map(({ id }) => id)));
      const first = chunk.findIndex((_ref, i) => missing.has(i));
      if (first < 0) continue;
      const { position, recordId, path, id } = chunk[first]!;
      const error = notInDump(path, 'record', id);
      throw dumpRowError(position, { kind: 'record', row: { id: recordId } }, error.message, { ...error.details }, error.code);
    }
    this.#pending = [];
  }

  /** The last write: the workspace becomes visible, whole. */
  async finish(): Promise<void> {
    await this.settleReferences();
    await this.conn.write((tx) => tx.rows(bind(Q.FINISH_LOAD, { id: this.workspaceId })));
  }

  /**
   * After a failure: erases everything this import wrote (nothing, if it did not write the
   * workspace node) and returns the error to rethrow. Should the erasure fail too, the workspace
   * stays hidden (`loading`) and the error says how to erase it.
   */
  async undo(error: unknown): Promise<unknown> {
    if (!this.#created) return error;
    try {
      await purgeWorkspace(this.conn, this.workspaceId);
      return error;
    } catch (purgeError) {
      const original = error instanceof CrmError ? error : new CrmError('internal_error', 'The import failed', {}, { cause: error });
      return new CrmError(original.code, `${original.message}; what was imported of workspace ${JSON.stringify(this.workspaceId)} could not be erased `
        + `(${purgeError instanceof Error ? purgeError.message : String(purgeError)}): it stays hidden; erase it with purgeNeo4jWorkspaces before importing it again`,
      { ...original.details, partial_workspace: this.workspaceId }, { cause: error });
    }
  }

  /** The `seq` of the batch's first node of the kind; `#advance` moves it on once the batch is written. */
  #seqBase(kind: DumpKind): number {
    return this.#seq.get(kind) ?? 0;
  }

  #advance(kind: DumpKind, count: number): void {
    this.#seq.set(kind, this.#seqBase(kind) + count);
  }

  #plan(kind: DumpKind, batch: readonly Placed[]): Plan {
    switch (kind) {
      case 'workspace':
        throw new Error('the workspace row is written by begin()');
      case 'user':
        return this.#userPlan(batch as Placed<'user'>[]);
      case 'api_key':
        return this.#apiKeyPlan(batch as Placed<'api_key'>[]);
      case 'object_type':
        return this.#objectTypePlan(batch as Placed<'object_type'>[]);
      case 'record':
        return this.#recordPlan(batch as Placed<'record'>[]);
      case 'relation':
        return this.#relationPlan(batch as Placed<'relation'>[]);
      case 'link':
        return this.#linkPlan(batch as Placed<'link'>[]);
      case 'classification':
        return this.#classificationPlan(batch as Placed<'classification'>[]);
      case 'list':
        return this.#listPlan(batch as Placed<'list'>[]);
      case 'entry':
        return this.#entryPlan(batch as Placed<'entry'>[]);
      case 'view':
        return this.#viewPlan(batch as Placed<'view'>[]);
      case 'note':
      case 'task':
      case 'comm':
        return this.#linkedPlan(kind, batch as Placed<'note' | 'task' | 'comm'>[]);
      case 'report':
        return this.#reportPlan(batch as Placed<'report'>[]);
      case 'event':
        return this.#eventPlan(batch as Placed<'event'>[]);
      case 'usage':
        return { writes: [this.#rows(LOAD_USAGE, batch.map(({ row }) => row))] };
    }
  }

  /** A statement over the batch's prepared rows, bound to the workspace. */
  #rows(statement: Statement<'workspace_id' | 'rows'>, rows: unknown[]): BuiltStatement {
    return bind(statement, { workspace_id: this.workspaceId, rows });
  }

  /** Throws the first problem found without the database (the whole batch is checked before the transaction). */
  static #refuse<K extends DumpKind>(kind: K, batch: readonly Placed<K>[], checks: (placed: Placed<K>, index: number) => CrmError | undefined): void {
    const problem = firstProblem(batch, checks);
    if (problem) throw at(problem, kind);
  }

  #userPlan(batch: readonly Placed<'user'>[]): Plan {
    const emails = new Set(this.#emails);
    Import.#refuse('user', batch, ({ row }) => {
      const key = row.email.toLowerCase();
      if (emails.has(key)) return emailTaken(row.email);
      emails.add(key);
      return undefined;
    });
    const base = this.#seqBase('user');
    const rows = batch.map(({ row }, i) => ({ ...row, email_key: row.email.toLowerCase(), seq: base + i }));
    return {
      writes: [this.#rows(Q.LOAD_USERS, rows)],
      commit: () => {
        this.#advance('user', batch.length);
        for (const { row } of batch) {
          this.#users.add(row.id);
          this.#emails.add(row.email.toLowerCase());
        }
      },
    };
  }

  #apiKeyPlan(batch: readonly Placed<'api_key'>[]): Plan {
    Import.#refuse('api_key', batch, ({ row }) => (this.#users.has(row.user_id) ? undefined : notInDump('row.user_id', 'user', row.user_id)));
    const base = this.#seqBase('api_key');
    return {
      writes: [this.#rows(Q.LOAD_API_KEYS, batch.map(({ row }, i) => ({ ...row, seq: base + i })))],
      commit: () => this.#advance('api_key', batch.length),
    };
  }

  /** A live slug is held by one object type at a time, a field slug once per type (the store's constraints say the same). */
  #objectTypePlan(batch: readonly Placed<'object_type'>[]): Plan {
    const live = new Set([...this.#types.values()].flat().filter((type) => type.deleted_at === null).map((type) => type.slug));
    Import.#refuse('object_type', batch, ({ row }) => {
      if (row.deleted_at === null) {
        if (live.has(row.slug)) return objectSlugTaken(row.slug);
        live.add(row.slug);
      }
      const twice = row.fields.find((field, i) => row.fields.findIndex((other) => other.slug === field.slug) !== i);
      return twice ? fieldSlugTaken(twice.slug) : undefined;
    });
    const base = this.#seqBase('object_type');
    const rows = batch.map(({ row }, i) => ({
      ...row, live_slug: row.deleted_at === null ? row.slug : null, seq: base + i,
      fields: row.fields.map((field) => ({ ...field, config: JSON.stringify(field.config) })),
    }));
    return {
      writes: [this.#rows(Q.LOAD_OBJECT_TYPES, rows)],
      commit: () => {
        this.#advance('object_type', batch.length);
        for (const { row } of batch) this.#types.set(row.slug, [...(this.#types.get(row.slug) ?? []), row]);
      },
    };
  }

  #requireTypes(slug: string): ObjectType[] | CrmError {
    return this.#types.get(slug) ?? notInDump('row.object_type_slug', 'object type', slug);
  }

  /**
   * Records with what a create derives for the live ones: FieldValue nodes and search text, and
   * the unique claims of live records of live object types (a value claimed twice, possible when a
   * field was made unique after its values were written, stays with the first record: LOAD_CLAIMS).
   */
  #recordPlan(batch: readonly Placed<'record'>[]): Plan {
    Import.#refuse('record', batch, ({ row }) => {
      const types = this.#requireTypes(row.object_type_slug);
      return types instanceof CrmError ? types : undefined;
    });
    const claims: Array<{ object_type_id: string; field: string; value: string; record_id: string }> = [];
    const types = batch.map(({ row }) => typeOfRecord(this.#types.get(row.object_type_slug)!, row));
    const rows = batch.map(({ row }, i) => {
      const type = types[i]!;
      const live = row.deleted_at === null;
      if (live && type.deleted_at === null) {
        const distinct = new Map(uniqueClaims(type, row.data).map((claim) => [`${claim.field}\u0000${claim.value}`, claim]));
        for (const claim of distinct.values()) claims.push({ object_type_id: type.id, field: claim.field, value: claim.value, record_id: row.id });
      }
      return {
        ...row, object_type_id: type.id, data: JSON.stringify(row.data),
        search_text: live ? searchText(row.workspace_id, type.id, row.data) : null, values: live ? fieldValues(row.data) : [],
      };
    });
    const writes = [this.#rows(Q.LOAD_RECORDS, rows)];
    if (claims.length > 0) writes.push(bind(Q.LOAD_CLAIMS, { workspace_id: this.workspaceId, claims }));
    // References to records neither written before nor in this batch wait for the rest of the records (settleReferences).
    const inBatch = new Set(batch.map(({ row }) => row.id));
    const references = batch.flatMap((placed, i) => referencesOf(types[i]!.fields, placed.row.data)
      .filter(({ id }) => !inBatch.has(id)).map(({ path, id }) => ({ position: placed.position, recordId: placed.row.id, path, id })));
    let later: typeof references = [];
    return {
      check: async (tx) => {
        const missing = await this.#missing(tx, references.map(({ id }) => id));
        later = references.filter((_ref, i) => missing.has(i));
        return undefined;
      },
      writes,
      commit: () => {
        this.#pending.push(...later);
      },
    };
  }

  /** The positions in `ids` that are no record of the workspace. */
  async #missing(tx: Tx, ids: readonly string[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await tx.rows(bind(Q.MISSING_RECORDS, { workspace_id: this.workspaceId, ids: [...ids] }));
    return new Set(rows.map((row) => Number(row.i)));
  }

  /**
   * Edges as dumped. Their ends must be records of the dump; `from_object`/`to_object` are not
   * stored on the edge but read from its ends (as every read of relations does), so they must be
   * those records' object types; an edge is in the dump once.
   */
  #relationPlan(batch: readonly Placed<'relation'>[]): Plan {
    const key = (row: RowOf<'relation'>) => [row.from_id, row.to_id, row.type, row.source].join('\u0000');
    return {
      check: async (tx) => {
        const found = new Map((await tx.rows(this.#rows(Q.CHECK_RELATIONS, batch.map(({ row }) => row)))).map((r) => [Number(r.i), r]));
        const seen = new Set<string>();
        return firstProblem(batch, ({ row }, index) => {
          const ends = found.get(index);
          if (!ends || ends.from_object === null) return notInDump('row.from_id', 'record', row.from_id);
          if (ends.to_object === null) return notInDump('row.to_id', 'record', row.to_id);
          for (const [end, actual, id] of [['from', ends.from_object, row.from_id], ['to', ends.to_object, row.to_id]] as const) {
            if (row[`${end}_object`] !== actual) {
              const path = `row.${end}_object`;
              return validationError(path, `${path} must be ${JSON.stringify(actual)}, the object type of the record ${JSON.stringify(id)}`, { field: path });
            }
          }
          if (Number(ends.taken) > 0 || seen.has(key(row))) {
            return new CrmError('conflict', `the ${row.source} relation ${JSON.stringify(row.type)} from ${row.from_id} to ${row.to_id} is in the dump twice`, { resource: 'relation' });
          }
          seen.add(key(row));
          return undefined;
        });
      },
      writes: [this.#rows(Q.LOAD_RELATIONS, batch.map(({ row }) => row))],
    };
  }

  /** Links as dumped; both ends must be records of the dump. */
  #linkPlan(batch: readonly Placed<'link'>[]): Plan {
    return {
      check: async (tx) => {
        const found = new Map((await tx.rows(this.#rows(G.CHECK_LINK_ENDS, batch.map(({ row }) => row)))).map((r) => [Number(r.i), r]));
        return firstProblem(batch, ({ row }, index) => {
          const ends = found.get(index);
          if (!ends?.from_found) return notInDump('row.from_id', 'record', row.from_id);
          if (!ends.to_found) return notInDump('row.to_id', 'record', row.to_id);
          return undefined;
        });
      },
      writes: [this.#rows(G.LOAD_LINKS, batch.map(({ row }) => ({ ...row, properties: JSON.stringify(row.properties) })))],
    };
  }

  /** Classifications land on their records; a record missing from the dump is named. */
  #classificationPlan(batch: readonly Placed<'classification'>[]): Plan {
    return {
      check: async (tx) => {
        const rows = batch.map(({ row }) => ({ from_id: row.record_id, to_id: row.record_id }));
        const found = new Map((await tx.rows(this.#rows(G.CHECK_LINK_ENDS, rows))).map((r) => [Number(r.i), r]));
        return firstProblem(batch, ({ row }, index) => (found.get(index)?.from_found ? undefined : notInDump('row.record_id', 'record', row.record_id)));
      },
      writes: [bind(G.SAVE_CLASSIFICATIONS, {
        workspace_id: this.workspaceId, items: batch.map(({ row }) => ({ ...row, reasons: JSON.stringify(row.reasons) })),
      })],
    };
  }

  #listPlan(batch: readonly Placed<'list'>[]): Plan {
    Import.#refuse('list', batch, ({ row }) => {
      const types = this.#requireTypes(row.object_type_slug);
      return types instanceof CrmError ? types : undefined;
    });
    const base = this.#seqBase('list');
    return {
      writes: [this.#rows(Q.LOAD_LISTS, batch.map(({ row }, i) => ({ ...row, fields: JSON.stringify(row.fields), seq: base + i })))],
      commit: () => {
        this.#advance('list', batch.length);
        for (const { row } of batch) this.#lists.add(row.id);
      },
    };
  }

  /** Entries numbered within their list in dump order, with FieldValue nodes of their data; the lists' `entry_seq` follows. */
  #entryPlan(batch: readonly Placed<'entry'>[]): Plan {
    const counts = new Map<string, number>();
    const rows = batch.map(({ row }) => {
      const seq = counts.get(row.list_id) ?? this.#entrySeq.get(row.list_id) ?? 0;
      counts.set(row.list_id, seq + 1);
      return { ...row, data: JSON.stringify(row.data), seq, values: fieldValues(row.data) };
    });
    return {
      check: async (tx) => {
        const missing = await this.#missing(tx, batch.map(({ row }) => row.record_id));
        return firstProblem(batch, ({ row }, index) => {
          if (!this.#lists.has(row.list_id)) return notInDump('row.list_id', 'list', row.list_id);
          return missing.has(index) ? notInDump('row.record_id', 'record', row.record_id) : undefined;
        });
      },
      writes: [
        this.#rows(Q.LOAD_ENTRIES, rows),
        bind(Q.SET_ENTRY_SEQ, { workspace_id: this.workspaceId, lists: [...counts].map(([id, count]) => ({ id, entry_seq: count })) }),
      ],
      commit: () => {
        for (const [id, count] of counts) this.#entrySeq.set(id, count);
      },
    };
  }

  #viewPlan(batch: readonly Placed<'view'>[]): Plan {
    Import.#refuse('view', batch, ({ row }) => {
      const types = this.#requireTypes(row.object_type_slug);
      if (types instanceof CrmError) return types;
      return row.list_id !== null && !this.#lists.has(row.list_id) ? notInDump('row.list_id', 'list', row.list_id) : undefined;
    });
    const base = this.#seqBase('view');
    const rows = batch.map(({ row }, i) => ({
      ...row, filters: row.filters ? JSON.stringify(row.filters) : null, sorts: JSON.stringify(row.sorts), seq: base + i,
    }));
    return { writes: [this.#rows(Q.LOAD_VIEWS, rows)], commit: () => this.#advance('view', batch.length) };
  }

  /** Reports name their object type inside the config, which is checked again whenever they run. */
  #reportPlan(batch: readonly Placed<'report'>[]): Plan {
    const base = this.#seqBase('report');
    const rows = batch.map(({ row }, i) => ({ ...row, config: JSON.stringify(row.config), seq: base + i }));
    return { writes: [this.#rows(Q.LOAD_REPORTS, rows)], commit: () => this.#advance('report', batch.length) };
  }

  /** Notes and tasks with their ABOUT edges: every record must be in the dump, each listed once. */
  #linkedPlan(kind: 'note' | 'task' | 'comm', batch: readonly Placed<'note' | 'task' | 'comm'>[]): Plan {
    const ids = batch.flatMap(({ row }) => row.record_ids);
    return {
      check: async (tx) => {
        const missing = await this.#missing(tx, ids);
        let offset = 0;
        return firstProblem(batch, ({ row }) => {
          const first = offset;
          offset += row.record_ids.length;
          const gone = row.record_ids.findIndex((_id, i) => missing.has(first + i));
          if (gone >= 0) return notInDump(`row.record_ids[${gone}]`, 'record', row.record_ids[gone]!);
          return repeated(row.record_ids);
        });
      },
      writes: [kind === 'comm'
        ? this.#rows(LOAD_COMMS, batch.map(({ row }) => ({ props: commProperties(row as Comm), record_ids: row.record_ids })))
        : this.#rows(kind === 'note' ? Q.LOAD_NOTES : Q.LOAD_TASKS, batch.map(({ row }) => row))],
    };
  }

  #eventPlan(batch: readonly Placed<'event'>[]): Plan {
    const rows = batch.map(({ row }) => ({
      ...row, diff: row.diff === null ? null : JSON.stringify(row.diff), concerns: [...new Set(row.record_ids)],
    }));
    return { writes: [bind(WRITE_EVENTS, { workspace_id: this.workspaceId, events: rows })] };
  }
}

function workspaceExists(workspaceId: string, loading: boolean): CrmError {
  const base = `The workspace ${JSON.stringify(workspaceId)} already exists in this store; import into a store without it`;
  return new CrmError('conflict', loading
    ? `${base} (an import of it is under way, or was interrupted: then erase it with purgeNeo4jWorkspaces first)`
    : base, { resource: 'workspace', id: workspaceId });
}

/**
 * `loadDump` on Neo4j. A million-row workspace cannot be one transaction, so rows are checked as
 * they arrive (../dump-rows.ts: shape, order, one workspace) and written in batches of one kind, each
 * batch one write transaction, in dump order. All or nothing all the same:
 *
 * - `conflict` up front when the workspace exists, before anything is written;
 * - the workspace node is written first, marked `loading`, which hides it from every read (and so
 *   from sign-in) until the last batch is in and FINISH_LOAD removes the mark;
 * - on any failure after that — a row that fails its check, a reference the dump does not hold, a
 *   constraint, the input stream itself, the server — every node of the workspace is erased
 *   (purgeWorkspace, the batched DETACH DELETE of purgeNeo4jWorkspaces) before the error is
 *   rethrown. Only an import that wrote the workspace node erases it, so a concurrent import of
 *   the same workspace is never erased by the one that lost the race.
 *
 * Unlike SQLite, which checks every row before writing any, a problem is reported when its batch
 * is reached: of two broken rows the first in the stream is named.
 */
export function loadMethods(conn: Connection, opts: { batch?: number } = {}) {
  const size = opts.batch ?? LOAD_BATCH;
  return {
    async loadDump(rows: AsyncIterable<DumpRow> | Iterable<DumpRow>): Promise<{ rows: number }> {
      const checker = new DumpChecker();
      const load = new Import(conn);
      let kind: DumpKind | null = null;
      let batch: Placed[] = [];
      try {
        for await (const input of rows) {
          const dumped = checker.check(input);
          const placed = { position: checker.rows, row: dumped.row } as Placed;
          if (dumped.kind === 'workspace') {
            await load.begin(placed as Placed<'workspace'>);
            continue;
          }
          if (batch.length > 0 && (dumped.kind !== kind || batch.length >= size)) {
            await load.write(kind!, batch);
            batch = [];
          }
          kind = dumped.kind;
          batch.push(placed);
        }
        if (checker.workspaceId === null) throw validationError('rows', 'the dump has no rows; its first row must be the workspace');
        if (batch.length > 0) await load.write(kind!, batch);
        await load.finish();
        return { rows: checker.rows };
      } catch (error) {
        throw await load.undo(error);
      }
    },
  };
}
