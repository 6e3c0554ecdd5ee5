import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../../src/store/sqlite/connection.ts';
import { applyMigrations, MIGRATIONS } from '../../../src/store/sqlite/migrations.ts';
import { MAX_EXPANDED_TERMS, prefixExpression } from '../../../src/store/sqlite/search-terms.ts';
import { newRecord } from '../conformance/harness.ts';
import { tempStore, type TempStore } from './temp-store.ts';

/** FTS5's own list of the terms in `records_fts`, read through an fts5vocab table. */
function indexTerms(db: Database.Database): string[] {
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.index_terms USING fts5vocab(main, records_fts, row)');
  return db.prepare('SELECT term FROM temp.index_terms ORDER BY term').pluck().all() as string[];
}

function recordedTerms(db: Database.Database): string[] {
  return db.prepare('SELECT term FROM search_terms ORDER BY term').pluck().all() as string[];
}

describe('search vocabulary', () => {
  let t: TempStore | undefined;
  let c: Connection | undefined;
  afterEach(async () => {
    await t?.cleanup();
    await c?.close();
    t = c = undefined;
  });

  it('records every term the index is given, as the tokenizer folds it, by every write path', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    const db = t.raw();
    /** The terms recorded by one write, into an emptied vocabulary. */
    const recordedBy = async (write: () => Promise<unknown>) => {
      db.exec('DELETE FROM search_terms');
      await write();
      await t!.searched(ws.id);
      return recordedTerms(db);
    };
    const one = await t.store.createRecord(ws.id, newRecord('companies', { name: 'Straße Müller & Søn', description: 'ÉCOLE-42b naïve' }));
    await t.searched(ws.id);
    expect(recordedTerms(db)).toEqual(indexTerms(db));
    expect(recordedTerms(db)).toEqual(expect.arrayContaining(['straße', 'muller', 'søn', 'ecole', '42b', 'naive']));
    // An update records the new words; the words it replaced leave the index but stay recorded (the
    // vocabulary only grows: an extra term only lengthens an expansion).
    await t.store.updateRecord(ws.id, one.id, { data: { name: 'Renamed Quokka' }, uniques: [], refs: [] });
    await t.searched(ws.id);
    expect(recordedTerms(db)).toEqual(expect.arrayContaining([...indexTerms(db), 'muller']));
    expect(indexTerms(db)).toEqual(expect.arrayContaining(['quokka', 'renamed']));
    expect(indexTerms(db)).not.toContain('muller');
    expect(await recordedBy(() => t!.store.createRecords(ws.id, [
      newRecord('contacts', { name: 'Zoë Ångström', job_title: 'हिन्दी 東京 writer' }),
      newRecord('contacts', { name: 'Bob O\'Neil', email: 'bob.oneil@example.org' }, { uniques: [{ field: 'email', value: 'bob.oneil@example.org' }] }),
    ]))).toEqual(expect.arrayContaining(['zoe', 'angstrom', 'writer', 'bob', 'o', 'neil', 'oneil', 'example']));
    await t.store.softDeleteRecord(ws.id, one.id);
    expect(await recordedBy(() => t!.store.restoreRecord(ws.id, one.id, []))).toEqual(['quokka', 'renamed']);
  });

  it('fills the vocabulary from an index built before it existed', () => {
    const db = new Database(':memory:');
    const before = MIGRATIONS.findIndex((m) => m.name === 'search vocabulary');
    applyMigrations(db, MIGRATIONS.slice(0, before));
    const insert = db.prepare('INSERT INTO records_fts (rowid, body) VALUES (?, ?)');
    ['Acme Rockets', 'Café Olé\nanvils', 'Wile E. Coyote'].forEach((body, i) => insert.run(i + 1, body));
    applyMigrations(db);
    expect(recordedTerms(db)).toEqual(indexTerms(db));
    expect(recordedTerms(db)).toEqual(['acme', 'anvils', 'cafe', 'coyote', 'e', 'ole', 'rockets', 'wile']);
    db.close();
  });

  describe('the prefix expression', () => {
    function withTerms(terms: string[]): Connection {
      c = new Connection(':memory:');
      c.open();
      for (const term of terms) c.run('INSERT INTO search_terms (term) VALUES (?)', term);
      return c;
    }

    it('names the terms a plain word starts, lowercased, and a single term on its own', () => {
      const conn = withTerms(['mayan', 'maya', 'may', 'mazurka', 'singh']);
      expect(prefixExpression(conn, ['Maya', 'sing'])?.expression).toBe('("maya" OR "mayan") AND "singh"');
      expect(prefixExpression(conn, ['MAY'])?.expression).toBe('("may" OR "maya" OR "mayan")');
    });

    it('keeps a prefix that reaches the end of the alphabet or the digits exact', () => {
      const conn = withTerms(['az', 'azz', 'b', 'a9', 'a90', 'a:']);
      expect(prefixExpression(conn, ['az'])?.expression).toBe('("az" OR "azz")');
      expect(prefixExpression(conn, ['a9'])?.expression).toBe('("a9" OR "a90")');
    });

    it('answers null when a word starts no term, whatever the other words match', () => {
      const conn = withTerms(['acme']);
      expect(prefixExpression(conn, ['acme', 'zz'])).toBeNull();
    });

    it('leaves a word as a prefix when it is not plain ASCII, starts too many terms, or starts a folded term', () => {
      const many = Array.from({ length: MAX_EXPANDED_TERMS + 1 }, (_, i) => `pre${String.fromCharCode(97 + i)}`);
      const conn = withTerms([...many, 'straße', 'strand', 'cafe']);
      expect(prefixExpression(conn, ['café'])?.expression).toBe('"café"*');
      expect(prefixExpression(conn, ['pre'])?.expression).toBe('"pre"*');
      expect(prefixExpression(conn, [many[0]!])?.expression).toBe(`"${many[0]}"`);
      expect(prefixExpression(conn, ['stra'])?.expression).toBe('"stra"*');
      expect(prefixExpression(conn, ['stran'])?.expression).toBe('"strand"');
    });

    it('tells when the vocabulary alone decides which matches hold every word whole', () => {
      const conn = withTerms(['mayan', 'maya', 'singh', 'lee', 'cafe']);
      // 'maya' is a term and starts 'mayan': some matches may hold it whole, some only 'mayan'.
      expect(prefixExpression(conn, ['maya', 'singh'])?.whole).toBe('some');
      // Each word is the only term it starts: every match holds both whole.
      expect(prefixExpression(conn, ['Singh', 'LEE'])?.whole).toBe('all');
      // A word that is no term is whole in no record, whatever the other words are.
      expect(prefixExpression(conn, ['maya', 'sing'])?.whole).toBe('none');
      expect(prefixExpression(conn, ['may', 'lee'])?.whole).toBe('none');
      expect(prefixExpression(conn, ['café', 'sing'])?.whole).toBe('none');
      // A folded word is left to FTS5, so the vocabulary cannot tell.
      expect(prefixExpression(conn, ['café', 'lee'])?.whole).toBe('some');
    });
  });

  it('finds what the plain prefix query finds, word for word and in the same order', async () => {
    t = await tempStore();
    const ws = await t.workspace();
    const words = ['anna', 'annabel', 'ann', 'anne', 'annex', 'zoë', 'zoe', 'zoetrope', 'straße', 'strasbourg', 'o', 'on', 'one',
      ...Array.from({ length: 20 }, (_, i) => `pre${i}x`)];
    let n = 0;
    const inputs = [];
    for (const a of words) for (const b of words.slice(0, 6)) inputs.push(newRecord('contacts', { name: `${a} ${b}`, job_title: `r${n++ % 3}` }));
    await t.store.createRecords(ws.id, inputs);
    const db = t.raw();
    const plain = db.prepare(
      `SELECT count(*) FROM records_fts f JOIN records r ON r.pk = f.rowid WHERE records_fts MATCH ? AND r.deleted_at IS NULL`,
    ).pluck();
    const ranked = db.prepare(
      `SELECT r.id FROM records_fts f JOIN records r ON r.pk = f.rowid JOIN records_fts_docsize d ON d.id = f.rowid
       WHERE records_fts MATCH ? AND r.deleted_at IS NULL
       ORDER BY r.pk NOT IN (SELECT rowid FROM records_fts WHERE records_fts MATCH ?), length(d.sz), d.sz, r.id`,
    ).pluck();
    const typed = ['ann', 'anna', 'annab', 'zo', 'zoe', 'zoë', 'stra', 'straß', 'o', 'pre', 'pre1', 'pre19x', 'ann zo', 'r1 an', 'q'];
    for (const text of typed) {
      const expected = plain.get(text.split(' ').map((w) => `"${w}"*`).join(' AND ')) as number;
      const found = await t.store.searchRecords(ws.id, { text, offset: 0, limit: 1000 });
      expect({ text, total: found.total, items: found.items.length }).toEqual({ text, total: expected, items: expected });
      // The order too: the whole-word tier always matched apart, as before the vocabulary decided it.
      const words = text.split(' ');
      expect({ text, ids: found.items.map((r) => r.id) }).toEqual({ text, ids: ranked.all(
        words.map((w) => `"${w}"*`).join(' AND '), words.map((w) => `"${w}"`).join(' AND '),
      ) });
    }
  });
});
