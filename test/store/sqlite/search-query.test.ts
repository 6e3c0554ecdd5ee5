import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { prefixTerm, toFtsQuery, type FtsQuery } from '../../../src/store/sqlite/search-query.ts';

/** Every typed word as a prefix term, all required: the expression a search runs when no word is expanded. */
const prefixes = (query: FtsQuery | null) => query?.typed.map(prefixTerm).join(' AND ');

describe('full-text query sanitising', () => {
  it('makes each word a quoted prefix term, all required, and a quoted whole term for ranking', () => {
    expect(toFtsQuery('acme rock')).toEqual({ typed: ['acme', 'rock'], words: '"acme" AND "rock"' });
    expect(prefixes(toFtsQuery('acme rock'))).toBe('"acme"* AND "rock"*');
  });

  it('keeps letters with diacritics and digits inside words', () => {
    expect(prefixes(toFtsQuery('Café 42b'))).toBe('"Café"* AND "42b"*');
  });

  it('turns query syntax into separators', () => {
    expect(prefixes(toFtsQuery('"foo* AND OR ('))).toBe('"foo"* AND "AND"* AND "OR"*');
    expect(toFtsQuery('name:acme NEAR(a b) ^x -y')?.words).toBe('"name" AND "acme" AND "NEAR" AND "a" AND "b" AND "x" AND "y"');
    expect(prefixes(toFtsQuery('name:acme NEAR(a b) ^x -y'))).toBe('"name"* AND "acme"* AND "NEAR"* AND "a"* AND "b"* AND "x"* AND "y"*');
  });

  it('drops a run of combining marks alone, which is no word once diacritics are removed', () => {
    expect(toFtsQuery('acme \u0301')).toEqual({ typed: ['acme'], words: '"acme"' });
    expect(toFtsQuery('\u0301\u0308')).toBeNull();
  });

  it('returns null when there is no word', () => {
    expect(toFtsQuery('')).toBeNull();
    expect(toFtsQuery(' *"() : ')).toBeNull();
  });

  it('keeps at most 16 words', () => {
    expect(prefixes(toFtsQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')))?.split(' AND ')).toHaveLength(16);
  });

  it.each(['"foo*', 'AND OR (', 'NEAR(', '*', "'", 'a:b', '{a}', '\u0000x', 'x"y'])('produces valid FTS5 syntax for %j', (input) => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')");
    const query = toFtsQuery(input);
    for (const expression of query === null ? [] : [prefixes(query)!, query.words]) {
      expect(() => db.prepare('SELECT rowid FROM t WHERE t MATCH ?').all(expression)).not.toThrow();
    }
    db.close();
  });
});
