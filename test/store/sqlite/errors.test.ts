import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CrmError } from '../../../src/domain/errors.ts';
import { translateError } from '../../../src/store/sqlite/errors.ts';

const sqliteError = (message: string, code: string) => new Database.SqliteError(message, code);

function translated(err: unknown, hint?: Parameters<typeof translateError>[1]): unknown {
  try {
    translateError(err, hint);
  } catch (thrown) {
    return thrown;
  }
  throw new Error('translateError returned');
}

describe('sqlite error translation', () => {
  it('turns a taken record unique value into conflict naming data.<field>', () => {
    const err = translated(sqliteError('UNIQUE constraint failed: record_uniques.object_type_pk, record_uniques.field, record_uniques.value', 'SQLITE_CONSTRAINT_PRIMARYKEY'), { field: 'email' });
    expect(err).toBeInstanceOf(CrmError);
    expect(err).toMatchObject({ code: 'conflict', details: { param: 'data.email', field: 'email' } });
  });

  it('turns a taken member email into conflict naming the email', () => {
    const err = translated(sqliteError("UNIQUE constraint failed: index 'users__email'", 'SQLITE_CONSTRAINT_UNIQUE'), { email: 'a@b.c' });
    expect(err).toMatchObject({ code: 'conflict', details: { param: 'email', email: 'a@b.c' } });
  });

  it('turns a taken object type or field slug into conflict naming the slug', () => {
    const type = translated(sqliteError("UNIQUE constraint failed: index 'object_types__live_slug'", 'SQLITE_CONSTRAINT_UNIQUE'), { slug: 'deals' });
    expect(type).toMatchObject({ code: 'conflict', details: { param: 'slug', slug: 'deals' } });
    const field = translated(sqliteError('UNIQUE constraint failed: fields.object_type_pk, fields.slug', 'SQLITE_CONSTRAINT_UNIQUE'), { slug: 'name' });
    expect(field).toMatchObject({ code: 'conflict', details: { param: 'slug', slug: 'name' } });
    expect((field as CrmError).message).toMatch(/field/);
  });

  it.each(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_CANTOPEN', 'SQLITE_IOERR_WRITE', 'SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_NOTADB'])(
    'turns %s into unavailable', (code) => {
      expect(translated(sqliteError('database trouble', code))).toMatchObject({ code: 'unavailable' });
    },
  );

  it('turns the use of a closed connection into unavailable', () => {
    expect(translated(new TypeError('The database connection is not open'))).toMatchObject({ code: 'unavailable' });
  });

  it('passes CrmErrors through untouched', () => {
    const original = new CrmError('not_found', 'gone');
    expect(translated(original)).toBe(original);
  });

  it('rethrows anything it does not know', () => {
    const syntax = sqliteError('near "SELEC": syntax error', 'SQLITE_ERROR');
    expect(translated(syntax)).toBe(syntax);
    const foreignKey = sqliteError('FOREIGN KEY constraint failed', 'SQLITE_CONSTRAINT_FOREIGNKEY');
    expect(translated(foreignKey)).toBe(foreignKey);
    const plain = new Error('boom');
    expect(translated(plain)).toBe(plain);
  });
});
