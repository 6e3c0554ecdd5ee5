import { perConnection, type Connection } from './connection.ts';
import type { ItemSpace } from './items.ts';

/** Past this many cached totals the cache starts over (a bound, not a tuning knob). */
const MAX_ENTRIES = 5_000;

/**
 * Exact list totals, cached per (item space, scope, compiled filter): records per object type,
 * entries per list. A total is stored with the scope's write version (the space's `versionSql`:
 * counters moved by triggers in the writing transaction, see migrations 10 and 17) and served
 * only while the version is unchanged, so any write that could change it, by this process or
 * another, makes the next read count again. Reads inside an enclosing transaction bypass the
 * cache, since that transaction may still roll back to an earlier version with other rows; reads
 * between the calls of a write group use it (Connection.cacheable), and a lost group clears it.
 */
export class CountCache {
  readonly #entries = new Map<string, { version: number | string; total: number }>();

  constructor(private readonly c: Connection) {
    // A lost group's version numbers come back with other rows behind them.
    c.onLostGroup(() => this.#entries.clear());
  }

  /** The scope's write version as committed. */
  version(space: ItemSpace, scopePk: number): number | string {
    const params = Array.from({ length: space.versionParams }, () => scopePk);
    return this.c.get<{ version: number | string | null }>(space.versionSql, ...params)?.version ?? 0;
  }

  /** The cached total for the key, or `count()` (then cached when `cacheable`). */
  total(space: ItemSpace, scopePk: number, key: string, cacheable: boolean, count: () => number): number {
    if (!cacheable) return count();
    const version = this.version(space, scopePk);
    const full = `${space.table}\u0000${scopePk}\u0000${key}`;
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
