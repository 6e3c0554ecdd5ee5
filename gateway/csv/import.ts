import { createReadStream, createWriteStream, rmSync, statSync, type WriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { stringify, type Stringifier } from 'csv-stringify';
import type { Actor } from '../../src/domain/actor.ts';
import { CrmError, notFound, validationError } from '../../src/domain/errors.ts';
import { validateRecordData } from '../../src/domain/fields.ts';
import { newMonotonicId } from '../../src/domain/ids.ts';
import { created, eventFor } from '../../src/domain/services/events.ts';
import { checkReferences } from '../../src/domain/services/references.ts';
import { requireWorkspace } from '../../src/domain/services/settings.ts';
import { nearest } from '../../src/domain/suggest.ts';
import type { NewRecord, Store } from '../../src/domain/store/port.ts';
import type { NewEvent } from '../../src/domain/store/port-work.ts';
import type { ObjectType } from '../../src/domain/types.ts';
import { checkReadable, checkWritable } from '../commands/paths.ts';
import { rowData } from './cells.ts';
import { mapColumns, parseMapOption, type ColumnMap } from './mapping.ts';
import { ProgressRenderer, type ProgressStream } from './progress.ts';
import { writeGood, type Pending } from './write.ts';

export interface CsvImportOptions {
  workspaceId: string;
  objectSlug: string;
  file: string;
  /** `--map "Column=field,Other="`. */
  map?: string;
  /** Rows per bulk write (one store transaction each). Default 500. */
  batchSize?: number;
  progress?: ProgressStream;
}

export interface CsvImportResult {
  rows: number;
  imported: number;
  rejected: number;
  /** The rejects file, or null when every row was imported. */
  rejects_file: string | null;
}

/** `people.csv` → `people.rejects.csv`, beside the input. */
export function rejectsPathFor(file: string): string {
  return /\.csv$/i.test(file) ? file.replace(/\.csv$/i, '.rejects.csv') : `${file}.rejects.csv`;
}

/**
 * Imports a CSV file into one object type: maps the header to fields, validates every row with the
 * record validation the tools use, writes the good rows through the store's bulk path (with their
 * timeline events) and writes each bad row, with its row number and the reason, to the rejects file.
 */
export async function importCsv(store: Store, opts: CsvImportOptions): Promise<CsvImportResult> {
  const rejectsFile = rejectsPathFor(opts.file);
  // Both files are checked before any row is written: a rejects file that cannot be written would
  // otherwise end an import half done, its bad rows lost.
  await checkReadable(opts.file, 'the CSV file', 'file');
  await checkWritable(rejectsFile, 'the rejects file beside the CSV file', 'file');
  const ws = await requireWorkspace(store, opts.workspaceId);
  const type = await objectType(store, ws.id, opts.objectSlug);
  const actor = await importActor(store, ws.id, ws.plan, ws.trial_ends_at);
  const explicit = parseMapOption(opts.map);
  const size = Math.max(statSync(opts.file).size, 1);
  const batchSize = opts.batchSize ?? 500;
  const progress = opts.progress ? new ProgressRenderer(opts.progress) : null;
  // A rejects file of an earlier import of this file would otherwise outlive a clean one.
  rmSync(rejectsFile, { force: true });
  const state = { fraction: 0, rows: 0, imported: 0, rejected: 0 };

  let header: string[] | null = null;
  let map: ColumnMap = [];
  let rejects: Rejects | null = null;
  let batch: Pending[] = [];
  const reject = (row: number, cells: readonly string[], reason: string) => {
    if (!rejects) {
      const file = createWriteStream(rejectsFile);
      const csv = stringify();
      csv.pipe(file);
      csv.write(['row', ...header!, 'reason']);
      const opened: Rejects = { csv, file, failed: null };
      // Kept for closeRejects to throw: an 'error' event with no listener would end the process.
      file.on('error', (err) => { opened.failed ??= err; });
      rejects = opened;
    }
    // The reason stays in its column: a short row's missing cells are blank, a long row's extra ones follow it.
    const width = header!.length;
    rejects.csv.write([String(row), ...cells.slice(0, width), ...Array<string>(Math.max(0, width - cells.length)).fill(''), reason, ...cells.slice(width)]);
    state.rejected++;
  };
  const flush = async () => {
    state.imported += await writeGood(store, ws.id, batch, (p, reason) => reject(p.row, p.cells, reason));
    batch = [];
  };

  const input = createReadStream(opts.file);
  const bytes = input.pipe(littleEndianUtf16());
  // A malformed row is skipped by the parser and reported here (not thrown): thrown, it took with it
  // the rows the parser had read ahead of this loop, good rows the message said were imported.
  // The import stops at it all the same: the rows before it are imported, none after it.
  const parser = bytes.pipe(parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_error: true }));
  // The first malformed row, and how many records (the header among them) the parser read before it.
  const skipped: { first: (CsvSyntax & { before: number }) | null } = { first: null };
  parser.on('skip', (err: unknown) => {
    const syntax = csvSyntaxError(err);
    if (syntax) skipped.first ??= { ...syntax, before: parser.info.records };
  });
  // pipe() forwards no errors: a read failure would go unheard and end the process.
  input.once('error', (err) => parser.destroy(err));
  bytes.once('error', (err: Error) => parser.destroy(err));
  let read = 0;
  const malformed = async (syntax: CsvSyntax): Promise<never> => {
    // A malformed file is the caller's to fix, told as a validation error naming the line (not
    // csv-parse's error and stack). The whole rows before it stand, as they would have in batches.
    await flush();
    if (rejects) await closeRejects(rejects);
    throw validationError('file', `${opts.file} is not valid CSV: ${syntax.message}; the ${state.imported} good rows before it were imported, none after it`, {
      rule: 'csv', csv_error: syntax.code, line: syntax.line,
    });
  };
  try {
    for await (const { record, info } of parser as AsyncIterable<ParsedRow>) {
      // Rows the parser read past the malformed one: not imported.
      read++;
      if (skipped.first && read > skipped.first.before) {
        input.destroy();
        break;
      }
      if (!header) {
        header = record;
        map = mapColumns(header, type, explicit);
        continue;
      }
      state.rows++;
      // The row's number as a spreadsheet shows it: the header is row 1, and the blank lines the
      // parser skips are rows there too (a cell spanning lines is still one row).
      const row = info.records + info.empty_lines;
      const pending = await validateRow(store, ws.id, type, actor, map, header, record, row);
      if (typeof pending === 'string') reject(row, record, pending);
      else batch.push(pending);
      if (batch.length >= batchSize) await flush();
      state.fraction = info.bytes / size;
      progress?.update(state);
    }
  } catch (err) {
    const syntax = csvSyntaxError(err);
    if (!syntax) throw err;
    await malformed(syntax);
  }
  if (skipped.first) await malformed(skipped.first);
  if (!header) throw validationError('file', `${opts.file} is empty: the first line must name the columns`, { rule: 'required' });
  await flush();
  progress?.done(state);
  if (rejects) await closeRejects(rejects);
  return { rows: state.rows, imported: state.imported, rejected: state.rejected, rejects_file: rejects ? rejectsFile : null };
}

/**
 * The file's bytes as they came, but for a file starting with UTF-16's big-endian byte-order mark
 * (FE FF): its bytes swapped pair by pair (a pair split across chunks kept for the next), which the
 * parser then reads by its mark like any UTF-16LE file; it knows only that order. Read from the
 * stream itself, so a pipe or a FIFO works as a file does.
 */
function littleEndianUtf16(): Transform {
  let swapping: boolean | null = null;
  let held: Buffer = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let bytes = held.length ? Buffer.concat([held, chunk]) : chunk;
      held = Buffer.alloc(0);
      if (swapping === null) {
        if (bytes.length < 2) {
          held = bytes;
          done();
          return;
        }
        swapping = bytes[0] === 0xfe && bytes[1] === 0xff;
      }
      if (!swapping) {
        done(null, bytes);
        return;
      }
      const even = bytes.length - (bytes.length % 2);
      held = Buffer.from(bytes.subarray(even));
      bytes = Buffer.from(bytes.subarray(0, even));
      done(null, bytes.swap16());
    },
    flush(done) {
      // A lone last byte (or a file of one byte) is passed on: half a character decodes as U+FFFD.
      done(null, held.length ? held : undefined);
    },
  });
}

type ParsedRow = { record: string[]; info: { bytes: number; records: number; empty_lines: number } };

/**
 * csv-parse's error for a malformed file (a quote never closed, text after a closing quote, a
 * quote opening inside an unquoted cell), else undefined. Its codes do not all start with CSV_
 * (INVALID_OPENING_QUOTE), so the class tells.
 */
interface CsvSyntax {
  code: string;
  message: string;
  line: unknown;
}

function csvSyntaxError(err: unknown): CsvSyntax | undefined {
  if (!(err instanceof CsvError)) return undefined;
  return { code: err.code, message: err.message.replace(/\.$/, ''), line: (err as { lines?: unknown }).lines ?? null };
}

async function validateRow(store: Store, ws: string, type: ObjectType, actor: Actor, map: ColumnMap, header: string[], cells: string[], row: number): Promise<Pending | string> {
  if (cells.length !== header.length) return `the row has ${cells.length} cells; the header has ${header.length}`;
  // Bytes that are not UTF-8 (a Latin-1 "é") decode to U+FFFD: stored, the text would be damaged for good.
  const damaged = cells.findIndex((cell) => cell.includes('\uFFFD'));
  if (damaged >= 0) return `the cell of column ${JSON.stringify(header[damaged])} holds bytes that are not UTF-8 text (read as U+FFFD); save the file as UTF-8 and import the row again`;
  try {
    const valid = validateRecordData(type, rowData(map, cells));
    if (valid.refTargets.length || valid.userRefs.length) await checkReferences(store, ws, valid);
    const id = newMonotonicId('record');
    const record: NewRecord = { id, object_type_slug: type.slug, data: valid.data, uniques: valid.uniques, refs: valid.refs, created_by: actor.user_id, assignee_id: actor.user_id };
    const event: NewEvent = eventFor(actor, 'create', 'record', id, [id], created(valid.data));
    return { row, cells, record, event };
  } catch (err) {
    if (err instanceof CrmError && err.code === 'validation_error') return err.message;
    throw err;
  }
}

async function objectType(store: Store, ws: string, slug: string): Promise<ObjectType> {
  const type = await store.getObjectType(ws, slug);
  if (type) return type;
  const near = nearest(slug, (await store.listObjectTypes(ws)).map((t) => t.slug));
  throw new CrmError('not_found', `object type ${JSON.stringify(slug)} was not found${near ? `; did you mean ${near}?` : ''}`, { param: 'object', resource: 'object_type', id: slug });
}

/** The import acts as the workspace's owner (else its first admin), who becomes creator and assignee. */
async function importActor(store: Store, ws: string, plan: string | null, trialEnds: string | null): Promise<Actor> {
  const users = await store.listUsers(ws);
  const user = users.find((u) => u.role === 'owner') ?? users.find((u) => u.role === 'admin');
  if (!user) throw notFound('owner of workspace', ws);
  return { workspace_id: ws, user_id: user.id, role: user.role, key_id: null, scopes: [], via: 'cli', tool: 'import.csv', plan, trial_ends_at: trialEnds };
}

/** The rejects file being written, and the first error its stream reported. */
interface Rejects {
  csv: Stringifier;
  file: WriteStream;
  failed: Error | null;
}

function closeRejects(r: Rejects): Promise<void> {
  if (r.failed) return Promise.reject(r.failed);
  return new Promise((resolve, reject) => {
    r.file.once('finish', resolve).once('error', reject);
    r.csv.end();
  });
}
