import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.ts';
import { addUser, createWorkspace } from '../../src/domain/services/settings.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { openStore } from '../../src/store/index.ts';
import { loadConfig } from '../../gateway/config.ts';
import { importCsv } from '../../gateway/csv/import.ts';

const run = promisify(execFile);
const bin = new URL('../../bin/crm.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'crm-csv-'));
const env = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' };

/** 10 000 contacts; every 200th row is bad in one of five ways, so 50 rows must be rejected. */
function peopleCsv(): { text: string; bad: Map<number, RegExp> } {
  const lines = ['Name,E-mail,Phone,Job Title'];
  const bad = new Map<number, RegExp>();
  const kinds: Array<[string, RegExp]> = [
    [',nameless@example.com,,CTO', /data\.name is required/],
    ['Bad Mail,not-an-email,,', /data\.email/],
    ['Bad Phone,ph@example.com,12,', /data\.phone/],
    ['Dup,person1@example.com,,', /email|unique|taken/i],
    ['Short,row@example.com', /2 cells; the header has 4/],
  ];
  for (let i = 1; i <= 10_000; i++) {
    if (i % 200 === 0) {
      const [line, reason] = kinds[(i / 200) % kinds.length]!;
      lines.push(line);
      bad.set(i + 1, reason);
    } else {
      lines.push(`"Person ${i}, Jr.",person${i}@example.com,+1 555 010 ${String(i).padStart(4, '0')},Engineer`);
    }
  }
  return { text: `${lines.join('\n')}\n`, bad };
}

let store: Store;
let ws: string;
beforeAll(async () => {
  const dirStore = mkdtempSync(join(tmpdir(), 'crm-csv-store-'));
  store = await openStore(loadConfig({ DATA_DIR: dirStore, LOG_LEVEL: 'silent' }));
  ws = (await createWorkspace(store, { name: 'CSV', plan: 'pro', trialDays: null })).id;
  await addUser(store, { workspace_id: ws, email: 'owner@csv.test', role: 'owner' });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('crm import-csv', { timeout: 120_000 }, () => {
  it('imports the 9 950 good rows of a 10k-row CSV and writes the 50 bad ones with their row and reason', async () => {
    const { text, bad } = peopleCsv();
    const file = join(dir, 'people.csv');
    writeFileSync(file, text);
    const lines: string[] = [];
    const result = await importCsv(store, { workspaceId: ws, objectSlug: 'contacts', file, progress: { isTTY: false, write: (s: string) => lines.push(s) } });
    expect(result).toEqual({ rows: 10_000, imported: 9_950, rejected: 50, rejects_file: join(dir, 'people.rejects.csv') });
    expect(await store.countRecords(ws, 'contacts')).toBe(9_950);
    const all = await store.listRecords(ws, { object_type_slug: 'contacts', sort: { field: 'created_at', system: true, valueKind: 'text', ascending: true }, offset: 0, limit: 10_000 });
    const person7 = all.items.find((r) => r.data.email === 'person7@example.com')!;
    expect(person7.data).toEqual({ name: 'Person 7, Jr.', email: 'person7@example.com', phone: '+1 555 010 0007', job_title: 'Engineer' });
    // Each imported record has its create event, written with it.
    const events = await store.listEvents(ws, { record_id: person7.id, offset: 0, limit: 10 });
    expect(events.items).toEqual([expect.objectContaining({ action: 'create', resource_id: person7.id, via: 'cli', tool: 'import.csv' })]);
    expect((await store.listEvents(ws, { offset: 0, limit: 1 })).total).toBe(9_950);

    const rejects = parse(readFileSync(result.rejects_file!, 'utf8'), { relax_column_count: true }) as string[][];
    expect(rejects[0]).toEqual(['row', 'Name', 'E-mail', 'Phone', 'Job Title', 'reason']);
    expect(rejects).toHaveLength(51);
    for (const r of rejects.slice(1)) {
      const row = Number(r[0]);
      expect(bad.has(row), `row ${row} is one of the bad rows`).toBe(true);
      expect(r[r.length - 1]).toMatch(bad.get(row)!);
    }
    // Plain progress lines, one per tenth of the file, then the total.
    expect(lines.every((l) => l.endsWith('\n') && !l.includes('\r'))).toBe(true);
    expect(lines.map((l) => l.split(':')[0])).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((p) => `progress ${p}%`));
    expect(lines.at(-1)).toBe('progress 100%: 10000 rows read, 9950 imported, 50 rejected\n');
  });

  it('numbers rejects as a spreadsheet does past blank lines, keeps each reason in its column, and leaves no stale rejects file', async () => {
    const file = join(dir, 'gaps.csv');
    writeFileSync(file, 'Name,Email,Job Title\nR1,rr1@example.com,a\n\n\nR2,bad-r2,b\n"Two\nlines",two@example.com,c\nR3,rr3@example.com\nR4,rr4@example.com,d,extra\n');
    const result = await importCsv(store, { workspaceId: ws, objectSlug: 'contacts', file });
    expect(result).toMatchObject({ rows: 5, imported: 2, rejected: 3 });
    const rejects = parse(readFileSync(result.rejects_file!, 'utf8'), { columns: true, relax_column_count: true }) as Array<Record<string, string>>;
    // Rows 3 and 4 are the blank lines; "Two\nlines" is one row, 6.
    expect(rejects.map((r) => [r.row, r.Name, r['Job Title'], r.reason])).toEqual([
      ['5', 'R2', 'b', expect.stringMatching(/data\.email/)],
      ['7', 'R3', '', expect.stringMatching(/2 cells; the header has 3/)],
      ['8', 'R4', 'd', expect.stringMatching(/4 cells; the header has 3/)],
    ]);
    writeFileSync(file, 'Name,Email\nR5,rr5@example.com\n');
    expect(await importCsv(store, { workspaceId: ws, objectSlug: 'contacts', file })).toEqual({ rows: 1, imported: 1, rejected: 0, rejects_file: null });
    expect(() => readFileSync(join(dir, 'gaps.rejects.csv'))).toThrow(/ENOENT/);
  });

  it('names unknown columns with the nearest field, and imports once they are mapped', async () => {
    const file = join(dir, 'leads.csv');
    writeFileSync(file, 'Full Name,Emial,Notes\nAda,ada@example.com,met at a fair\n');
    await expect(importCsv(store, { workspaceId: ws, objectSlug: 'contacts', file })).rejects.toThrow(/"Emial" \(did you mean email\? --map "Emial=email"\)/);
    const done = await importCsv(store, { workspaceId: ws, objectSlug: 'contacts', file, map: 'full name=name,Emial=email,Notes=' });
    expect(done).toEqual({ rows: 1, imported: 1, rejected: 0, rejects_file: null });
    // A --map entry for a column the header lacks is refused before any row, with the nearest column.
    await expect(importCsv(store, { workspaceId: ws, objectSlug: 'contacts', file, map: 'full name=name,Emial=email,Notes=,Note=' }))
      .rejects.toThrow(/--map names columns the header does not have: "note" \(did you mean "notes"\?\); the header has "Full Name", "Emial", "Notes"/);
  });

  it('runs from the command line with plain progress on stderr when not on a terminal', async () => {
    const { stdout: wsOut } = await run(process.execPath, [bin, 'workspace', 'create', '--name', 'CLI CSV', '--json'], { env });
    const id = JSON.parse(wsOut).workspace_id as string;
    await run(process.execPath, [bin, 'user', 'add', '--workspace', id, '--email', 'o@cli.test', '--role', 'owner'], { env });
    const file = join(dir, 'cli.csv');
    writeFileSync(file, 'name,email\nOne,one@example.com\nTwo,not-mail\n');
    const { stdout, stderr } = await run(process.execPath, [bin, 'import-csv', file, '--workspace', id, '--object', 'contacts', '--json'], { env });
    expect(JSON.parse(stdout)).toEqual({ rows: 2, imported: 1, rejected: 1, rejects_file: join(dir, 'cli.rejects.csv') });
    expect(stderr).toContain('progress 100%: 2 rows read, 1 imported, 1 rejected');
    expect(readFileSync(join(dir, 'cli.rejects.csv'), 'utf8')).toMatch(/^row,name,email,reason\n3,Two,not-mail,.*data\.email/);

    // A malformed file: one line naming the file and the line, as --json too, exit 1, no stack.
    const broken = join(dir, 'broken.csv');
    writeFileSync(broken, 'name,email\nThree,three@example.com\n"Four,four@example.com\nFive,five@example.com\n');
    const failed = await run(process.execPath, [bin, 'import-csv', broken, '--workspace', id, '--object', 'contacts', '--json'], { env })
      .catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect((failed as { code: number }).code).toBe(1);
    const refusal = JSON.parse((failed as { stderr: string }).stderr.trim().split('\n').at(-1)!);
    expect(refusal).toMatchObject({ code: 'validation_error', details: { param: 'file', rule: 'csv', csv_error: 'CSV_QUOTE_NOT_CLOSED', line: 4 } });
    expect(refusal.error).toContain(`${broken} is not valid CSV: Quote Not Closed`);
    expect(refusal.error).toContain('the 1 good rows before it were imported, none after it');
    expect((failed as { stderr: string }).stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('imports every good row before a malformed line, however far the parser read ahead, and none after it', async () => {
    const slug = 'csv_quotes';
    await store.createObjectType(ws, { id: newId('objectType'), slug, name: 'Quotes', icon: null, color: null, description: null, standard: false,
      fields: [{ slug: 'name', name: 'Name', type: 'text', required: true, unique: false, description: null, config: {} }, { slug: 'title', name: 'Title', type: 'text', required: false, unique: false, description: null, config: {} }] }, []);
    const good = Array.from({ length: 20_000 }, (_, i) => `Person ${i},Eng`);
    const count = async (prefix: string) => (await store.listRecords(ws, {
      object_type_slug: slug, filter: { kind: 'cmp', field: 'name', system: false, op: 'starts_with', value: prefix, valueKind: 'text', multi: false },
      sort: { field: 'created_at', system: true, valueKind: 'text', ascending: true }, offset: 0, limit: 1,
    })).total;
    for (const [tag, line, code] of [['open', 'Bad "nick" Guy,Eng', 'INVALID_OPENING_QUOTE'], ['close', '"Bad" Guy,Eng', 'CSV_INVALID_CLOSING_QUOTE']] as const) {
      const file = join(dir, `quotes-${tag}.csv`);
      writeFileSync(file, `Name,Title\n${good.map((g) => `${tag} ${g}`).join('\n')}\n${line}\n${tag} After,Eng\n`);
      const error = await importCsv(store, { workspaceId: ws, objectSlug: slug, file }).catch((e: unknown) => e);
      expect(error, tag).toMatchObject({ code: 'validation_error', details: { param: 'file', rule: 'csv', csv_error: code, line: 20_002 } });
      expect((error as Error).message).toContain('the 20000 good rows before it were imported, none after it');
      expect(await count(`${tag} Person`), tag).toBe(20_000);
      expect(await count(`${tag} After`), tag).toBe(0);
    }
  }, 60_000);

  it('names a column by its place, for a header cell that is empty or repeats another', async () => {
    // A spreadsheet's trailing comma: the last column has no name.
    const trailing = join(dir, 'trailing.csv');
    writeFileSync(trailing, 'Name,Domain,\r\nTrail one,trail-one.example,\r\n');
    const unnamed = await importCsv(store, { workspaceId: ws, objectSlug: 'companies', file: trailing }).catch((e: unknown) => e);
    expect(unnamed).toMatchObject({ code: 'validation_error', details: { param: 'map', rule: 'unknown_field' } });
    expect((unnamed as Error).message).toContain('column 3, which has no name (--map "#3=field", or skip it with --map "#3=")');
    expect(await importCsv(store, { workspaceId: ws, objectSlug: 'companies', file: trailing, map: '#3=' })).toMatchObject({ rows: 1, imported: 1, rejected: 0 });
    // Two columns of one name: the message names both places, and one is skipped by its place.
    const twice = join(dir, 'twice.csv');
    writeFileSync(twice, 'Name,Domain,Name\nTwice one,twice-one.example,Other\n');
    const duplicate = await importCsv(store, { workspaceId: ws, objectSlug: 'companies', file: twice }).catch((e: unknown) => e);
    expect(duplicate).toMatchObject({ code: 'validation_error', details: { param: 'map', rule: 'duplicate', columns: [1, 3] } });
    expect((duplicate as Error).message).toContain('columns 1 ("Name") and 3 ("Name") both map to the field name; skip one by its place with --map "#3="');
    expect(await importCsv(store, { workspaceId: ws, objectSlug: 'companies', file: twice, map: '#3=' })).toMatchObject({ rows: 1, imported: 1 });
    const named = await store.listRecords(ws, {
      object_type_slug: 'companies', filter: { kind: 'cmp', field: 'name', system: false, op: 'in', value: ['Trail one', 'Twice one', 'Other'], valueKind: 'text', multi: false },
      sort: { field: 'created_at', system: true, valueKind: 'text', ascending: true }, offset: 0, limit: 10,
    });
    expect(named.items.map((r) => r.data.name)).toEqual(['Trail one', 'Twice one']);
    // A place past the header is a column it does not have.
    await expect(importCsv(store, { workspaceId: ws, objectSlug: 'companies', file: twice, map: '#4=' })).rejects.toMatchObject({ details: { param: 'map', rule: 'unknown_column' } });
  });

  it('reads UTF-16 files of either byte order by their byte-order mark', async () => {
    const text = '\uFEFFName,Domain\r\nZoë Café,zoe-LE.example\r\n🚀 Rocket,rocket-LE.example\r\n';
    const le = join(dir, 'utf16le.csv');
    writeFileSync(le, Buffer.from(text, 'utf16le'));
    const be = join(dir, 'utf16be.csv');
    writeFileSync(be, Buffer.from(text.replaceAll('-LE', '-BE'), 'utf16le').swap16());
    for (const [file, order] of [[le, 'LE'], [be, 'BE']] as const) {
      expect(await importCsv(store, { workspaceId: ws, objectSlug: 'companies', file }), order).toMatchObject({ rows: 2, imported: 2, rejected: 0 });
      const found = await store.listRecords(ws, {
        object_type_slug: 'companies', filter: { kind: 'cmp', field: 'domain', system: false, op: 'ends_with', value: `-${order.toLowerCase()}.example`, valueKind: 'text', multi: false },
        sort: { field: 'created_at', system: true, valueKind: 'text', ascending: true }, offset: 0, limit: 10,
      });
      expect(found.items.map((r) => r.data.name), order).toEqual(['Zoë Café', '🚀 Rocket']);
    }
  });

  it('reads a CSV from a pipe (a FIFO, a shell process substitution) as from a file', async () => {
    const fifo = join(dir, 'piped.csv');
    await run('mkfifo', [fifo]);
    const writer = run(process.execPath, ['-e', `require('node:fs').writeFileSync(${JSON.stringify(fifo)}, 'Name,Domain\\nPiped one,piped-one.example\\n')`]);
    expect(await importCsv(store, { workspaceId: ws, objectSlug: 'companies', file: fifo })).toMatchObject({ rows: 1, imported: 1, rejected: 0 });
    await writer;
  });

  it('rejects a row whose bytes are not UTF-8 rather than store it damaged, and imports the rest', async () => {
    const file = join(dir, 'latin1.csv');
    writeFileSync(file, Buffer.concat([Buffer.from('Name,Domain\nPlain,plain.example\nLatin'), Buffer.from([0xe9]), Buffer.from(',latin.example\nUnicode caf\u00e9,cafe.example\n')]));
    const result = await importCsv(store, { workspaceId: ws, objectSlug: 'companies', file });
    expect(result).toMatchObject({ rows: 3, imported: 2, rejected: 1 });
    const rejects = parse(readFileSync(result.rejects_file!, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rejects.map((r) => [r.row, r.reason])).toEqual([['3', expect.stringMatching(/column "Name" holds bytes that are not UTF-8 text/)]]);
  });

  it('converts numbers written with grouped thousands, and rejects ones a locale or a prefix makes ambiguous', async () => {
    const file = join(dir, 'numbers.csv');
    const good = ['"1,200"', '1 200', '-3.5', '12_000.25', '1e3', '7'];
    const bad = ['"1,5"', '"1.000,50"', '"1,2,3"', '0x10', '0b101', '"12,34"', '1.2.3'];
    writeFileSync(file, `Name,Employee Count\n${[...good, ...bad].map((v, i) => `N${i},${v}`).join('\n')}\n`);
    const result = await importCsv(store, { workspaceId: ws, objectSlug: 'companies', file });
    expect(result).toMatchObject({ rows: good.length + bad.length, imported: good.length, rejected: bad.length });
    const page = await store.listRecords(ws, { object_type_slug: 'companies', sort: { field: 'created_at', system: true, valueKind: 'text', ascending: true }, offset: 0, limit: 100 });
    const counts = new Map(page.items.map((r) => [r.data.name, r.data.employee_count]));
    expect(good.map((_, i) => counts.get(`N${i}`))).toEqual([1200, 1200, -3.5, 12000.25, 1000, 7]);
    const rejects = parse(readFileSync(result.rejects_file!, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rejects.map((r) => r['Employee Count'])).toEqual(['1,5', '1.000,50', '1,2,3', '0x10', '0b101', '12,34', '1.2.3']);
    for (const r of rejects) expect(r.reason).toMatch(/data\.employee_count must be a number/);
  });
});
