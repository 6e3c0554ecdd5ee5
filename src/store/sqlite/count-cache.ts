import { perConnection, type Connection } from './connection.ts';

/** Past this many cached totals the cache starts over (a bound, not a tuning knob). */
const MAX_ENTRIES = 5_000;

/**
 * Exact list totals of records, cached per (object type, compiled filter). A total is stored with
 * the object type's write version (`record_versions`, moved by triggers on `records` in the
 * writing transaction, see migration 10), and served only while the version is unchanged: any
 * create, update, delete, restore or import of a record of that type, by this process or
 * another, makes the next read count again. Reads inside an enclosing transaction bypass the
 * cache, since that transaction may still roll back to an earlier version with other rows.
 */
export class CountCache {
  readonly #entries = new Map<string, { version: number; total: number }>();

  constructor(private readonly c: Connection) {}

  /** The object type's write version as committed (0 before its first record write). */
  version(objectTypePk: number): number {
    return this.c.get<{ version: number }>('SELECT version FROM record_versions WHERE object_type_pk = ?', objectTypePk)?.version ?? 0;
  }

  /** The cached total for the key, or `count()` (then cached when `cacheable`). */
  total(objectTypePk: number, key: string, cacheable: boolean, count: () => number): number {
    if (!cacheable) return count();
    const version = this.version(objectTypePk);
    const full = `${objectTypePk}\u0000${key}`;
    const hit = this.#entries.get(full);
    if (hit && hit.version === version) return hit.total;
    const total = count();
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(full, { version, total });
    return total;
  }
}

/** The count cache of a connection. */
export const countCache = perConnection((c) => new CountCache(c));
