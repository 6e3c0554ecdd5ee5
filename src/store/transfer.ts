import { constants, createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { access, chmod, realpath, rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { CrmError, notFound } from '../domain/errors.ts';
import { DUMP_ORDER, type DumpRow } from '../domain/store/port-dump.ts';
import type { Store } from '../domain/store/port.ts';

/**
 * First line of an export file. Version 2 ends with an ExportTrailer; version 1 (older exports,
 * still read) has none, so a version 1 file cut short cannot be told from a whole one.
 */
export interface ExportHeader {
  format: 'crm-export';
  version: 1 | 2;
  workspace_id: string;
}

/** Last line of a version 2 export: how many rows it holds, so a file cut short is refused. */
export interface ExportTrailer {
  end: 'crm-export';
  rows: number;
}

/** JSON with object keys sorted at every depth, so equal data gives byte-equal files across stores. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, (v as Record<string, unknown>)[k]]));
  });
}

/**
 * Writes a workspace as JSON lines: a header, one row per line in dump order, then the trailer
 * with the row count. An unknown workspace is `not_found` before anything is written.
 */
export async function exportWorkspace(store: Store, workspaceId: string, out: Writable): Promise<number> {
  if (!(await store.getWorkspace(workspaceId))) throw notFound('workspace', workspaceId);
  const header: ExportHeader = { format: 'crm-export', version: 2, workspace_id: workspaceId };
  let count = 0;
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  await write(canonicalJson(header));
  for await (const row of store.dumpWorkspace(workspaceId)) {
    await write(canonicalJson(row));
    count++;
  }
  const trailer: ExportTrailer = { end: 'crm-export', rows: count };
  await write(canonicalJson(trailer));
  return count;
}

/**
 * Reads an export file back, checking the header, that rows come in dump order and, for version 2,
 * that the trailer closes the file with the count of its rows: a file cut short (a killed export, a
 * partial copy) is refused at its end, so the load that consumed the rows is undone.
 */
export async function* readExport(input: Readable): AsyncGenerator<DumpRow> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let header: ExportHeader | null = null;
  let trailer: ExportTrailer | null = null;
  let rows = 0;
  let rank = 0;
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    if (!line.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new CrmError('validation_error', `line ${lineNo} of the export is not JSON`, { param: 'file', line: lineNo });
    }
    if (!header) {
      const h = parsed as Partial<ExportHeader>;
      if (h.format !== 'crm-export' || (h.version !== 1 && h.version !== 2) || typeof h.workspace_id !== 'string') {
        throw new CrmError('validation_error', 'not a crm export: the first line must be {"format":"crm-export","version":2,...}', { param: 'file', line: lineNo });
      }
      header = h as ExportHeader;
      continue;
    }
    if (trailer) throw new CrmError('validation_error', `line ${lineNo}: the export ended at line ${lineNo - 1}; nothing may follow its last line`, { param: 'file', line: lineNo });
    if (header.version === 2 && (parsed as Partial<ExportTrailer>)?.end === 'crm-export') {
      trailer = parsed as ExportTrailer;
      if (trailer.rows !== rows) {
        throw new CrmError('validation_error', `line ${lineNo}: the export says it holds ${JSON.stringify(trailer.rows)} rows, but ${rows} came before it; export it again`, { param: 'file', line: lineNo, rule: 'incomplete' });
      }
      continue;
    }
    const row = parsed as DumpRow;
    const at = DUMP_ORDER.indexOf(row.kind);
    if (at < 0 || typeof row.row !== 'object' || row.row === null) {
      throw new CrmError('validation_error', `line ${lineNo}: unknown row kind ${JSON.stringify(row.kind)}`, { param: 'file', line: lineNo, allowed: DUMP_ORDER });
    }
    if (at < rank) throw new CrmError('validation_error', `line ${lineNo}: ${row.kind} rows must come before ${DUMP_ORDER[rank]} rows`, { param: 'file', line: lineNo });
    rank = at;
    rows++;
    yield row;
  }
  if (!header) throw new CrmError('validation_error', 'the export is empty', { param: 'file' });
  if (header.version === 2 && !trailer) {
    throw new CrmError('validation_error', `the export ends after ${rows} rows without its last line {"end":"crm-export","rows":…}: it was cut short (a killed export, a partial copy); export it again`, {
      param: 'file', line: lineNo, rule: 'incomplete',
    });
  }
}

/**
 * Exports to a file (stdout without one). A regular file is written beside itself under another
 * name and renamed into place once whole, so a failed export (an unknown workspace, a full disk, a
 * killed process) leaves whatever was there, an earlier backup say, as it was. Through a symlink
 * the file it points to is the one replaced; a replaced file keeps its permissions, and a new one
 * is readable by its owner only (an export holds emails and key hashes). A path that is no regular
 * file (a device such as /dev/stdout, a FIFO) is written in place: there is nothing to rename.
 */
export async function exportToFile(store: Store, workspaceId: string, path: string | null): Promise<number> {
  if (!path) return exportWorkspace(store, workspaceId, process.stdout);
  const target = await realpath(path).catch(() => path);
  const existing = await stat(target).catch(() => null);
  if (existing && !existing.isFile()) return writeTo(createWriteStream(target), (out) => exportWorkspace(store, workspaceId, out));
  const partial = join(dirname(target), `.${basename(target)}.${process.pid}.partial`);
  try {
    const out = createWriteStream(partial, { mode: 0o600 });
    await once(out, 'open');
    if (existing) await chmod(partial, existing.mode & 0o7777);
    const count = await writeTo(out, (o) => exportWorkspace(store, workspaceId, o));
    await rename(partial, target);
    return count;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** Runs `write` into the stream, then ends it and waits until all is written; destroys it on failure. */
async function writeTo(out: WriteStream, write: (out: WriteStream) => Promise<number>): Promise<number> {
  try {
    const count = await write(out);
    out.end();
    await once(out, 'finish');
    return count;
  } catch (error) {
    out.destroy();
    throw error;
  }
}

export async function importFromFile(store: Store, path: string | null): Promise<{ rows: number }> {
  if (path) await readable(path);
  return store.loadDump(readExport(path ? createReadStream(path) : process.stdin));
}

async function readable(path: string): Promise<void> {
  try {
    await access(path, constants.R_OK);
  } catch {
    throw new CrmError('validation_error', `cannot read the export file ${JSON.stringify(path)}: it does not exist or is not readable`, { param: 'file', rule: 'exists' });
  }
}
