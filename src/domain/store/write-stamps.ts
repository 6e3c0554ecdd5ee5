/**
 * The `updated_at` of a write to a row last written at `previous`: the clock's time `at`, or one
 * millisecond past `previous` when the clock has not moved past it (two writes within one
 * millisecond, or a clock stepped back). Every write of a record or list entry thus changes its
 * `updated_at`, which makes that stamp the row's version: a read-modify-write can ask the store to
 * write only if the row is unchanged since it read it (`unchanged_since`), and a second write in
 * the same millisecond cannot pass for none. Both are ISO-8601 UTC with milliseconds.
 */
export function stampAfter(previous: string, at: string): string {
  if (at > previous) return at;
  const next = Date.parse(previous) + 1;
  return Number.isFinite(next) ? new Date(next).toISOString() : at;
}
