import { validationError } from '../../src/domain/errors.ts';
import { liveFields } from '../../src/domain/fields.ts';
import { nearest } from '../../src/domain/suggest.ts';
import type { FieldDef, ObjectType } from '../../src/domain/types.ts';

/** Per CSV column, the field it fills, or null when the column is skipped (`--map Col=`). */
export type ColumnMap = Array<FieldDef | null>;

/**
 * Parses `--map "First Name=name,E-mail=email,Notes="` into column → field slug ('' skips). A
 * column may also be named by its place, `#3` for the third, for a header cell that is empty or
 * holds the name of another column too.
 */
export function parseMapOption(value: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of (value ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const eq = pair.lastIndexOf('=');
    if (eq <= 0) throw validationError('map', `--map takes column=field pairs separated by commas; "${pair}" has no column=field`, { rule: 'format' });
    out.set(pair.slice(0, eq).trim().toLowerCase(), pair.slice(eq + 1).trim());
  }
  return out;
}

const normal = (s: string) => s.trim().toLowerCase();
/** "Job Title", "job-title" and "JobTitle" all name the field job_title; "E-mail" names email. */
const loose = (s: string) => normal(s).replace(/[^a-z0-9]/g, '');
const asSlug = (s: string) => normal(s).replace(/[\s-]+/g, '_');

/**
 * Maps each header column to a live field: an explicit `--map` entry first, else the field whose
 * slug or name equals the column case-insensitively. Every column must map or be skipped; the
 * error lists each unknown column with the nearest field, so one retry with `--map` fixes them all.
 */
export function mapColumns(header: readonly string[], type: ObjectType, explicit: Map<string, string>): ColumnMap {
  const fields = liveFields(type);
  const bySlug = new Map(fields.map((f) => [f.slug, f]));
  // A --map entry for a column the header lacks would map nothing: a misspelt column or a wrong file.
  const columns = new Set(header.map(normal));
  const absent = [...explicit.keys()].filter((column) => !columns.has(column) && !isPlaceOf(column, header.length));
  if (absent.length) {
    const named = absent.map((column) => {
      const near = nearest(column, [...columns]);
      return `"${column}"${near ? ` (did you mean "${near}"?)` : ''}`;
    });
    throw validationError('map', `--map names columns the header does not have: ${named.join(', ')}; the header has ${header.map((c) => `"${c}"`).join(', ')}`, {
      rule: 'unknown_column', allowed: [...header],
    });
  }
  const unknown: string[] = [];
  const map = header.map((column, i) => {
    const given = explicit.get(`#${i + 1}`) ?? explicit.get(normal(column));
    if (given === '') return null;
    if (given !== undefined) {
      const field = bySlug.get(given);
      if (!field) {
        const near = nearest(given, [...bySlug.keys()]);
        throw validationError('map', `--map ${column}=${given}: ${given} is not a field of ${type.slug}${near ? `; did you mean ${near}?` : ''}`, { rule: 'unknown_field', allowed: [...bySlug.keys()] });
      }
      return field;
    }
    if (normal(column) === '') {
      unknown.push(`column ${i + 1}, which has no name (--map "#${i + 1}=field", or skip it with --map "#${i + 1}=")`);
      return null;
    }
    const found = fields.find((f) => loose(f.slug) === loose(column) || loose(f.name) === loose(column));
    if (!found) {
      const near = nearest(asSlug(column), fields.map((f) => f.slug));
      unknown.push(`"${column}"${near ? ` (did you mean ${near}? --map "${column}=${near}")` : ''}`);
    }
    return found ?? null;
  });
  if (unknown.length) {
    throw validationError('map', `columns that are not fields of ${type.slug}: ${unknown.join(', ')}. Map them with --map "Column=field", or skip one with --map "Column="`, {
      rule: 'unknown_field', allowed: fields.map((f) => f.slug),
    });
  }
  const first = new Map<string, number>();
  map.forEach((f, i) => {
    if (!f) return;
    const earlier = first.get(f.slug);
    if (earlier !== undefined) {
      throw validationError('map', `columns ${earlier + 1} ("${header[earlier]}") and ${i + 1} ("${header[i]}") both map to the field ${f.slug}; skip one by its place with --map "#${i + 1}="`, {
        rule: 'duplicate', columns: [earlier + 1, i + 1],
      });
    }
    first.set(f.slug, i);
  });
  return map;
}

/** `#3` for a header of at least 3 columns: a column named by its place. */
function isPlaceOf(key: string, width: number): boolean {
  const place = /^#(\d+)$/.exec(key)?.[1];
  return place !== undefined && Number(place) >= 1 && Number(place) <= width;
}
