import { describe, expect, it } from 'vitest';
import { toFtsQuery } from '../../src/store/sqlite/search-query.ts';
import { asciiLower, fieldValues, searchQuery, searchText } from '../../src/store/neo4j/encoding.ts';

/** How the Neo4j adapter encodes record data for filters and full-text search. */

const WS = 'ws_01JB0000000000000000000000';
const OBJ = 'obj_01JB0000000000000000000000';
const REC = 'rec_01JB0000000000000000000001';

describe('fieldValues', () => {
  it('makes one FieldValue per scalar: text (and its ASCII-lower-cased form), numbers, booleans as 0/1', () => {
    expect(fieldValues({ name: 'Ärger GmbH', score: 2.5, active: true, off: false })).toEqual([
      { field: 'name', t: 'Ärger GmbH', lt: 'Ärger gmbh', n: null },
      { field: 'score', t: null, lt: null, n: 2.5 },
      { field: 'active', t: null, lt: null, n: 1 },
      { field: 'off', t: null, lt: null, n: 0 },
    ]);
  });

  it('makes one per distinct array element and none for what filters treat as missing', () => {
    expect(fieldValues({ tags: ['red', 'blue', 'red'], empty: [], blank: '', none: null, nested: { a: 1 }, inf: Number.POSITIVE_INFINITY })).toEqual([
      { field: 'tags', t: 'red', lt: 'red', n: null },
      { field: 'tags', t: 'blue', lt: 'blue', n: null },
    ]);
  });

  it('lower-cases ASCII letters only, as SQLite LIKE compares', () => {
    expect(asciiLower('ÉCOLE école ABC')).toBe('École école abc');
  });
});

describe('searchText', () => {
  it('holds the lower-cased words without diacritics, after the scope markers', () => {
    expect(searchText(WS, OBJ, { name: 'Café Olé', description: 'Rockets & anvils', count: 3 })).toBe(
      `_${WS.toLowerCase()} _${OBJ.toLowerCase()} cafe ole rockets anvils`,
    );
  });

  it('leaves out the record and user ids that reference fields hold', () => {
    expect(searchText(WS, OBJ, { company: REC, owner: 'usr_01JB0000000000000000000001', tags: ['vip', REC] })).toBe(
      `_${WS.toLowerCase()} _${OBJ.toLowerCase()} vip`,
    );
  });

  it('is null when the record has no word', () => {
    expect(searchText(WS, OBJ, { company: REC, blank: '  ', score: 1 })).toBeNull();
  });
});

describe('searchQuery', () => {
  it('requires the scope and every word as a prefix, and keeps the words for ranking', () => {
    expect(searchQuery('Acme ROCK', WS)).toEqual({ lucene: `+_${WS.toLowerCase()} +acme* +rock*`, words: ['acme', 'rock'] });
    expect(searchQuery('café', OBJ)).toEqual({ lucene: `+_${OBJ.toLowerCase()} +cafe*`, words: ['cafe'] });
  });

  it('is null for input without a word', () => {
    for (const input of ['', '  *** ()  ', '🙂', '\u0000', '%_', '\\']) expect(searchQuery(input, WS)).toBeNull();
  });

  it('turns query syntax into separators, so the Lucene query is always well formed', () => {
    const hostile = ['"foo*', 'AND OR (', 'NEAR(a b', 'name:acme', '^acme', '-acme', 'acme OR', 'NOT', '{a b}:c', 'a + b', 'x~2 y^3 [a TO b]'];
    for (const input of hostile) {
      const { lucene, words } = searchQuery(input, WS)!;
      const rest = lucene.slice(`+_${WS.toLowerCase()}`.length);
      expect(rest).toBe(words.map((w) => ` +${w}*`).join(''));
      for (const word of words) expect(word).toMatch(/^[\p{Ll}\p{Lo}\p{N}]+$/u);
    }
  });

  it('reads the same words out of what was typed as the SQLite adapter does', () => {
    const inputs = ['Acme Corp', '"acme* (rock', 'O\'Neil-Smith', 'Ünïcödé wörds', 'a b c d e f g h i j k l m n o p q r s', 'acme \u0301 corp', 'a b c d e f g h i j k l m n o \u0301 p q'];
    for (const input of inputs) {
      const sqliteWords = toFtsQuery(input)?.typed ?? [];
      const expected = sqliteWords.map((w) => w.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase());
      const ours = searchQuery(input, WS)?.words ?? [];
      expect(ours).toEqual(expected);
    }
  });
});
