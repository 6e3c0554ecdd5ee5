import type { Connection } from './connection.ts';
import { prefixTerm, wholeTerm } from './search-query.ts';

/**
 * The search vocabulary: `search_terms` holds every term the full-text index has been given, as
 * FTS5's tokenizer made it. A search word is a prefix, and FTS5 answers a prefix by reading the
 * doclist of every term that starts with it and merging them into one list before it can skip
 * through it; the same terms named one by one (`("maya" OR "mayan")`) are read lazily as the AND
 * needs them. So a plain word is looked up here first and sent as the terms it stands for. The
 * table is a superset: a term stays when the last record holding it changes, which only lengthens
 * an expansion; a word that no term starts with matches nothing, and the search stops there.
 */

/**
 * The writer's scratch index: a batch's search bodies are tokenized by the same tokenizer as
 * `records_fts`, so the terms recorded are exactly FTS5's (no JavaScript tokenizer to keep in
 * step with unicode61's tables), then cleared. In the temp schema: per connection, in memory.
 */
export const SEARCH_SCRATCH_DDL = `
  CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_scratch USING fts5(
    body, content = '', columnsize = 0, tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_scratch_terms USING fts5vocab(temp, search_scratch, row);
`;

/** Records the terms of search bodies written in the open transaction (see SEARCH_SCRATCH_DDL). */
export function recordSearchTerms(c: Connection, bodies: readonly string[]): void {
  if (bodies.length === 0) return;
  const scratch = c.stmt('INSERT INTO temp.search_scratch (rowid, body) VALUES (?, ?)');
  bodies.forEach((body, i) => scratch.run(i + 1, body));
  c.run('INSERT OR IGNORE INTO search_terms (term) SELECT term FROM temp.search_scratch_terms');
  c.run(`INSERT INTO temp.search_scratch (search_scratch) VALUES ('delete-all')`);
}

/**
 * Beyond this many terms a word stays a prefix: each named term is an iterator of its own in
 * every step of the match, and a short prefix of a large vocabulary is cheaper merged once.
 */
export const MAX_EXPANDED_TERMS = 16;

/** A word whose terms this lookup can name: ASCII letters and digits, which the tokenizer only lowercases. */
const PLAIN_WORD = /^[A-Za-z0-9]+$/;
const PLAIN_TERM = /^[a-z0-9]+$/;

/** What a search's words become: the expression that finds the matches, and what ranks them. */
export interface PrefixMatch {
  /** The FTS5 expression requiring every word as a prefix. */
  expression: string;
  /**
   * Whether every typed word is also a whole word of every match (`all`), of no match (`none`: a
   * word is not itself a term, so no record holds it whole), or of some (`some`). Only for `some`
   * must the whole-word ranking tier be found by a match of its own.
   */
  whole: 'all' | 'none' | 'some';
}

/**
 * The FTS5 expression requiring every word as a prefix, each plain word written as the terms it
 * stands for; null when some word starts no term (nothing can match). A word with non-ASCII
 * letters, too many terms, or a term beyond plain ASCII stays a quoted prefix (`"café"*`): the
 * tokenizer folds those, and a term is only named when it reads back as itself.
 */
export function prefixExpression(c: Connection, words: readonly string[]): PrefixMatch | null {
  const parts: string[] = [];
  let none = false;
  let all = true;
  for (const word of words) {
    const lower = word.toLowerCase();
    const terms = PLAIN_WORD.test(word) ? termsStartingWith(c, lower) : undefined;
    if (terms?.length === 0) return null;
    // A word sorts before every longer term it starts, so it is a term itself only if it comes first.
    const isTerm = terms?.[0] === lower;
    if (terms !== undefined && !isTerm) none = true;
    if (!isTerm || terms?.length !== 1) all = false;
    if (terms === undefined || terms.length > MAX_EXPANDED_TERMS || !terms.every((term) => PLAIN_TERM.test(term))) {
      parts.push(prefixTerm(word));
    } else {
      parts.push(terms.length === 1 ? wholeTerm(terms[0]!) : `(${terms.map(wholeTerm).join(' OR ')})`);
    }
  }
  return { expression: parts.join(' AND '), whole: none ? 'none' : all ? 'all' : 'some' };
}

/** Up to MAX_EXPANDED_TERMS + 1 recorded terms that start with `prefix` (a lowercase ASCII word). */
function termsStartingWith(c: Connection, prefix: string): string[] {
  // Terms are UTF-8 text in binary order, as FTS5 orders them: every term starting with the prefix
  // lies between it and the prefix with its last character raised by one ('z' → '{', '9' → ':').
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  return c.rows<[string]>('SELECT term FROM search_terms WHERE term >= ? AND term < ? ORDER BY term LIMIT +?', prefix, end, MAX_EXPANDED_TERMS + 1)
    .map(([term]) => term);
}
