/**
 * "Did you mean …?" for misspelt field names, options, operators and object types, so that a
 * validation error carries the nearest valid name an agent can retry with.
 *
 * Every loop here runs on caller input, so each has a bound: inputs longer than
 * `LIMITS.suggestInputMaxLength` get no suggestion at all (no real name is that long), and the
 * distance uses three rolling rows and stops as soon as a row exceeds the budget.
 */
import { LIMITS } from './limits.ts';

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), so that `emial`
 * is one edit from `email`. With `max`, returns `max + 1` as soon as the distance must exceed it.
 * O(|a|·|b|) time and O(|b|) memory.
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      cur[j] = best;
      if (best < rowMin) rowMin = best;
    }
    // Every later cell is at least the smallest cell of this row: past the budget, stop.
    if (rowMin > max) return max + 1;
    [before, prev, cur] = [prev, cur, before];
  }
  return prev[b.length]!;
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
 * Undefined when nothing is close, and always for an input (or candidate) longer than
 * `LIMITS.suggestInputMaxLength`.
 */
export function nearest(input: string, candidates: readonly string[]): string | undefined {
  if (input.length === 0 || input.length > LIMITS.suggestInputMaxLength) return undefined;
  const needle = input.toLowerCase();
  let best: { candidate: string; distance: number; prefix: number } | undefined;
  for (const candidate of candidates) {
    if (candidate.length > LIMITS.suggestInputMaxLength) continue;
    const hay = candidate.toLowerCase();
    const budget = Math.max(1, Math.floor(Math.max(needle.length, hay.length) / 3));
    const startsWith = needle.length >= 3 && hay.startsWith(needle);
    const distance = editDistance(needle, hay, startsWith ? Infinity : budget);
    if (distance > budget && !startsWith) continue;
    const prefix = commonPrefixLength(needle, hay);
    if (!best || distance < best.distance || (distance === best.distance && prefix > best.prefix)) best = { candidate, distance, prefix };
  }
  return best?.candidate;
}
