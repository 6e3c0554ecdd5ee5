import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { toFtsQuery } from '../../../src/store/sqlite/search-query.ts';

describe('full-text query sanitising', () => {
  it('makes each word a quoted prefix term, all required, and a quoted whole term for ranking', () => {
    expect(toFtsQuery('acme rock')).toEqual({ prefixes: '"acme"* AND "rock"*', words: '"acme" AND "rock"' });
  });

  it('keeps letters with diacritics and digits inside words', () => {
    expect(toFtsQuery('Café 42b')?.prefixes).toBe('"Café"* AND "42b"*');
  });

  it('turns query syntax into separators', () => {
    expect(toFtsQuery('"foo* AND OR (')?.prefixes).toBe('"foo"* AND "AND"* AND "OR"*');
    expect(toFtsQuery('name:acme NEAR(a b) ^x -y')?.words).toBe('"name" AND "acme" AND "NEAR" AND "a" AND "b" AND "x" AND "y"');
    expect(toFtsQuery('name:acme NEAR(a b) ^x -y')?.prefixes).toBe('"name"* AND "acme"* AND "NEAR"* AND "a"* AND "b"* AND "x"* AND "y"*');
  });

  it('drops a run of combining marks alone, which is no word once diacritics are removed', () => {
    expect(toFtsQuery('acme \u0301')).toEqual({ prefixes: '"acme"*', words: '"acme"' });
    expect(toFtsQuery('\u0301\u0308')).toBeNull();
  });

  it('returns null when there is no word', () => {
    expect(toFtsQuery('')).toBeNull();
    expect(toFtsQuery(' *"() : ')).toBeNull();
  });

  it('keeps at most 16 words', () => {
    expect(toFtsQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))?.prefixes.split(' AND ')).toHaveLength(16);
  });

  it.each(['"foo*', 'AND OR (', 'NEAR(', '*', "'", 'a:b', '{a}', '\u0000x', 'x"y'])('produces valid FTS5 syntax for %j', (input) => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')");
    const query = toFtsQuery(input);
    for (const expression of query === null ? [] : [query.prefixes, query.words]) {
      expect(() => db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(expression)).not.toThrow();
    }
    db.close();
  });
});
