import Database from 'better-sqlite3';
import { CrmError } from '../../domain/errors.ts';

/** What the caller knows about a write, so a constraint failure can name the taken value. */
export interface ConflictHint {
  /** Object type slug (object_types) or field slug (fields). */
  slug?: string;
  /** Unique record field whose value was claimed (record_uniques). */
  field?: string;
  email?: string;
}

const UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
const UNAVAILABLE_CODE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY|NOTADB|CORRUPT|PROTOCOL|NOMEM|PERM|AUTH)/;
/** better-sqlite3 throws a TypeError when a closed connection is used. */
const CLOSED_CONNECTION = /database connection is not open/i;

/**
 * The one place SQLite failures become CrmErrors: a taken unique value or slug is `conflict`
 * (details say which), a locked, missing or broken database is `unavailable`. CrmErrors pass
 * through; anything else is rethrown untouched for the edge to log as an internal error.
 */
export function translateError(err: unknown, hint: ConflictHint = {}): never {
  if (err instanceof CrmError) throw err;
  if (err instanceof Database.SqliteError) {
    if (UNIQUE_CODES.has(err.code)) throw conflictFor(constrainedTable(err.message), hint);
    if (UNAVAILABLE_CODE.test(err.code)) {
      throw new CrmError('unavailable', 'The database is unavailable; try again shortly', { cause: err.code });
    }
  }
  if (err instanceof TypeError && CLOSED_CONNECTION.test(err.message)) {
    throw new CrmError('unavailable', 'The database connection is closed', { cause: 'closed' });
  }
  if (isSystemError(err)) {
    // The database directory cannot be created or reached (permissions, read-only disk, ...).
    throw new CrmError('unavailable', 'The database file cannot be reached', { cause: err.code });
  }
  throw err;
}

function isSystemError(err: unknown): err is NodeJS.ErrnoException & { code: string } {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string' && typeof (err as NodeJS.ErrnoException).code === 'string';
}

/** Runs one write and translates its failure with what the caller knows about it. */
export function guard<T>(write: () => T, hint: ConflictHint): T {
  try {
    return write();
  } catch (err) {
    translateError(err, hint);
  }
}

/** `UNIQUE constraint failed: index 'users__email'` or `...: record_uniques.object_type_pk, ...`. */
function constrainedTable(message: string): string | undefined {
  const match = /constraint failed: (?:index '(\w+?)__\w+'|(\w+)\.)/.exec(message);
  return match?.[1] ?? match?.[2];
}

function conflictFor(table: string | undefined, hint: ConflictHint): CrmError {
  switch (table) {
    case 'users':
      return new CrmError('conflict', `A member with email ${JSON.stringify(hint.email)} already exists in this workspace`, {
        param: 'email', email: hint.email,
      });
    case 'object_types':
      return new CrmError('conflict', `An object type with slug ${JSON.stringify(hint.slug)} already exists`, {
        param: 'slug', slug: hint.slug,
      });
    case 'fields':
      return new CrmError('conflict', `The object type already has a field with slug ${JSON.stringify(hint.slug)}`, {
        param: 'slug', slug: hint.slug,
      });
    case 'record_uniques':
      return new CrmError('conflict', `Another record already has this ${hint.field ?? 'unique'} value`, {
        param: `data.${hint.field ?? ''}`, field: hint.field, rule: 'unique',
      });
    default:
      return new CrmError('conflict', 'The value is already taken', table ? { resource: table } : undefined);
  }
}
