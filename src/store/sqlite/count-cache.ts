import type { AggregateRow } from '../../domain/reports/types.ts';
import { perConnection, type Connection } from './connection.ts';

/**
 * Exact answers about the records of an object type, cached per (object type, key). An answer is
 * stored with the object type's write version (`record_versions`, moved by triggers on `records`
 * in the writing transaction, see migration 10), and served only while the version is unchanged:
 * any create, update, delete, restore or import of a record of that type, by this process or
 * another, makes the next read compute again. Reads inside an enclosing transaction bypass the
 * cache, since that transaction may still roll back to an earlier version with other rows.
 *
 * `weigh` measures an answer; past `maxWeight` in all the cache starts over (a bound on memory,
 * not a tuning knob).
 */
export class VersionCache<T> {
  readonly #entries = new Map<string, { version: number; value: T; weight: number }>();
  #weight = 0;

  constructor(private readonly c: Connection, private readonly maxWeight: number, private readonly weigh: (value: T) => number = () => 1) {}

  /** The object type's write version as committed (0 before its first record write). */
  version(objectTypePk: number): number {
    return this.c.get<{ version: number }>('SELECT version FROM record_versions WHERE object_type_pk = ?', objectTypePk)?.version ?? 0;
  }

  /** The cached answer for the key, or `compute()` (then cached when `cacheable`). */
  get(objectTypePk: number, key: string, cacheable: boolean, compute: () => T): T {
    if (!cacheable) return compute();
    const version = this.version(objectTypePk);
    const full = `${objectTypePk}\u0000${key}`;
    const hit = this.#entries.get(full);
    if (hit && hit.version === version) return hit.value;
    const value = compute();
    const weight = this.weigh(value);
    if (hit) this.#weight -= hit.weight;
    if (this.#weight + weight > this.maxWeight) {
      this.#entries.clear();
      this.#weight = 0;
    }
    this.#entries.set(full, { version, value, weight });
    this.#weight += weight;
    return value;
  }
}

/** Exact list totals of records per (object type, compiled filter): at most 5,000 of them. */
export const countCache = perConnection((c) => new VersionCache<number>(c, 5_000));

/**
 * Aggregations of records per (object type, query): at most 50,000 groups in all (one report
 * answers at most 10,001), a few MB.
 */
export const aggregateCache = perConnection((c) => new VersionCache<readonly AggregateRow[]>(c, 50_000, (rows) => rows.length + 1));
