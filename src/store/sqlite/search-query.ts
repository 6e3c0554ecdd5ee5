/** A word as the unicode61 tokenizer sees it: letters, digits and combining marks. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** More words than this add nothing but cost; the rest of a pasted paragraph is ignored. */
const MAX_WORDS = 16;

export interface FtsQuery {
  /** The words typed, in order; each must start a word of a match (see `prefixTerm`). */
  typed: string[];
  /** Every word as a quoted whole term, all ANDed: the matches that rank first (`"acme" AND "ro"`). */
  words: string;
}

/** A word as a quoted FTS5 term (`"acme"`): the tokenizer folds it as it folds the text. */
export function wholeTerm(word: string): string {
  return `"${word}"`;
}

/** A typed word as an FTS5 prefix term (`"acme"*`). */
export function prefixTerm(word: string): string {
  return `${wholeTerm(word)}*`;
}

/**
 * Reads what a user typed as words for FTS5 MATCH expressions that cannot be a syntax error.
 * Operators, quotes, parentheses, column filters and other punctuation in the input are
 * separators, never syntax. Returns null when the input holds no word at all (the search then
 * finds nothing).
 */
export function toFtsQuery(text: string): FtsQuery | null {
  // A run of combining marks alone is no word once diacritics are removed; as a phrase it would
  // match nothing and so fail the whole search (the Neo4j adapter drops it the same way).
  const words = (text.match(WORD) ?? []).slice(0, MAX_WORDS).filter((word) => LETTER_OR_DIGIT.test(word));
  if (words.length === 0) return null;
  return { typed: words, words: words.map(wholeTerm).join(' AND ') };
}
