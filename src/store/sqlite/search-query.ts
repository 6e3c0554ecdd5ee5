/** A word as the unicode61 tokenizer sees it: letters, digits and combining marks. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** More words than this add nothing but cost; the rest of a pasted paragraph is ignored. */
const MAX_WORDS = 16;

/**
 * Turns what a user typed into an FTS5 MATCH expression that cannot be a syntax error: each word
 * becomes a quoted prefix term (`"acme"*`), all ANDed. Operators, quotes, parentheses, column
 * filters and other punctuation in the input are separators, never syntax. Returns null when the
 * input holds no word at all (the search then finds nothing).
 */
export function toFtsQuery(text: string): string | null {
  const words = (text.match(WORD) ?? []).slice(0, MAX_WORDS);
  if (words.length === 0) return null;
  return words.map((word) => `"${word}"*`).join(' AND ');
}
