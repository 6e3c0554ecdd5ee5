import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { CrmError } from '../domain/errors.ts';
import { DUMP_ORDER, type DumpRow } from '../domain/store/port-dump.ts';
import type { Store } from '../domain/store/port.ts';

/** First line of an export file. */
export interface ExportHeader {
  format: 'crm-export';
  version: 1;
  workspace_id: string;
}

/** JSON with object keys sorted at every depth, so equal data gives byte-equal files across stores. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, (v as Record<string, unknown>)[k]]));
  });
}

/** Writes a workspace as JSON lines: a header, then one row per line in dump order. */
export async function exportWorkspace(store: Store, workspaceId: string, out: Writable): Promise<number> {
  const header: ExportHeader = { format: 'crm-export', version: 1, workspace_id: workspaceId };
  let count = 0;
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  await write(canonicalJson(header));
  for await (const row of store.dumpWorkspace(workspaceId)) {
    await write(canonicalJson(row));
    count++;
  }
  return count;
}

/** Reads an export file back, checking the header and that rows come in dump order. */
export async function* readExport(input: Readable): AsyncGenerator<DumpRow> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let header: ExportHeader | null = null;
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
      if (h.format !== 'crm-export' || h.version !== 1 || typeof h.workspace_id !== 'string') {
        throw new CrmError('validation_error', 'not a crm export: the first line must be {"format":"crm-export","version":1,...}', { param: 'file', line: lineNo });
      }
      header = h as ExportHeader;
      continue;
    }
    const row = parsed as DumpRow;
    const at = DUMP_ORDER.indexOf(row.kind);
    if (at < 0 || typeof row.row !== 'object' || row.row === null) {
      throw new CrmError('validation_error', `line ${lineNo}: unknown row kind ${JSON.stringify(row.kind)}`, { param: 'file', line: lineNo, allowed: DUMP_ORDER });
    }
    if (at < rank) throw new CrmError('validation_error', `line ${lineNo}: ${row.kind} rows must come before ${DUMP_ORDER[rank]} rows`, { param: 'file', line: lineNo });
    rank = at;
    yield row;
  }
  if (!header) throw new CrmError('validation_error', 'the export is empty', { param: 'file' });
}

export async function exportToFile(store: Store, workspaceId: string, path: string | null): Promise<number> {
  const out = path ? createWriteStream(path) : process.stdout;
  const count = await exportWorkspace(store, workspaceId, out);
  if (path) {
    (out as ReturnType<typeof createWriteStream>).end();
    await once(out, 'finish');
  }
  return count;
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
