/**
 * "Did you mean …?" for misspelt field names, options, operators and object types, so that a
 * validation error carries the nearest valid name an agent can retry with.
 */

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), so that `emial`
 * is one edit from `email`.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => d[i]![j]!;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i]![j] = best;
    }
  }
  return at(a.length, b.length);
}

function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The candidate closest to `input`, ignoring case, when it is close enough to be a plausible typo:
 * at most max(1, ⌊n/3⌋) edits away, n being the longer of the two lengths (so `company` finds
 * `companies`), or, for inputs of three or more characters, a candidate that starts with the input.
 * Ties go to the longer shared prefix (`neq` → `ne`, not `eq`), then to the earlier candidate.
 * Undefined when nothing is close.
 */
export function nearest(input: string, candidates: readonly string[]): string | undefined {
  const needle = input.toLowerCase();
  if (needle.length === 0) return undefined;
  let best: { candidate: string; distance: number; prefix: number } | undefined;
  for (const candidate of candidates) {
    const hay = candidate.toLowerCase();
    const distance = editDistance(needle, hay);
    const budget = Math.max(1, Math.floor(Math.max(needle.length, hay.length) / 3));
    if (distance > budget && !(needle.length >= 3 && hay.startsWith(needle))) continue;
    const prefix = commonPrefixLength(needle, hay);
    if (!best || distance < best.distance || (distance === best.distance && prefix > best.prefix)) best = { candidate, distance, prefix };
  }
  return best?.candidate;
}
