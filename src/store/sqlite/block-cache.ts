import { perConnection, type Connection } from './connection.ts';

/** Records are versioned per block of 2^12 consecutive pks: `pk >> 12` (migration 15's triggers, records.ts's moveInsertVersions). */
export const BLOCK_SHIFT = 12;

/**
 * The measures of one group and bucket: the items, and of their metric field the values, the
 * numbers among them, and their sum, minimum and maximum (null without numbers).
 */
export interface Partial {
  grp: string | number | null;
  bucket: string | null;
  n: number;
  cnt: number;
  nums: number;
  total: number | null;
  lo: number | null;
  hi: number | null;
}

/** How a query's partials are read: every block at once (each row names its block), or one block. */
export interface BlockReads {
  all(limit: number): Array<Partial & { blk: number | null }>;
  block(block: number, limit: number): Partial[];
}

/** Past this many partial rows a query is not kept; past twice that in all, the cache starts over (a bound on memory). */
const MAX_QUERY = 50_000;
const MAX_WEIGHT = 2 * MAX_QUERY;

interface Kept {
  blocks: Map<number, { version: number; parts: Partial[] }>;
  /** The blocks' partials added up, as last answered. */
  sum: Partial[];
  weight: number;
}

/**
 * Record aggregations kept per (object type, query) and per block of record pks, each block with
 * its write version (`record_block_versions`, moved in the writing transaction: by triggers on
 * `records` for updates and deletes, see migration 15, and by records.ts's insert path for
 * inserts). A read takes the versions of the object type's blocks and reads again only the
 * blocks whose version moved: any create, update, delete, restore or import of a
 * record, by this process or another, makes its block be read again, so answers stay exact and a
 * write costs the next read one block (4,096 pks) instead of every record of the type. When more
 * than half of the blocks moved, all are read in one statement. The caller reads versions
 * and blocks in one transaction and never from inside an enclosing one (it may roll back).
 */
export class BlockCache {
  readonly #kept = new Map<string, Kept>();
  #weight = 0;

  constructor(private readonly c: Connection) {
    c.onLostGroup(() => {
      this.#kept.clear();
      this.#weight = 0;
    });
  }

  /**
   * The partials of the query added up by `add` (answered again as they are while no block moved),
   * or undefined when a query has too many to keep.
   */
  read(objectTypePk: number, key: string, reads: BlockReads, add: (blocks: Partial[][]) => Partial[]): Partial[] | undefined {
    const versions = this.c.all<{ block: number; version: number }>('SELECT block, version FROM record_block_versions WHERE object_type_pk = ?', objectTypePk);
    const full = `${objectTypePk}\u0000${key}`;
    const kept = this.#kept.get(full);
    const stale = kept ? versions.filter((v) => kept.blocks.get(v.block)?.version !== v.version).length : versions.length;
    if (kept && stale === 0 && kept.blocks.size === versions.length) return kept.sum;
    this.#drop(full);
    const blocks = new Map<number, { version: number; parts: Partial[] }>();
    if (!kept || stale * 2 > versions.length) {
      const rows = reads.all(MAX_QUERY + 1);
      if (rows.length > MAX_QUERY) return undefined;
      for (const v of versions) blocks.set(v.block, { version: v.version, parts: [] });
      for (const { blk, ...part } of rows) {
        // A block without a version row cannot hold records; -1 never matches, so it is read again.
        const block = blocks.get(blk!) ?? blocks.set(blk!, { version: -1, parts: [] }).get(blk!)!;
        block.parts.push(part);
      }
    } else {
      for (const v of versions) {
        const was = kept.blocks.get(v.block);
        if (was && was.version === v.version) {
          blocks.set(v.block, was);
          continue;
        }
        const parts = reads.block(v.block, MAX_QUERY + 1);
        if (parts.length > MAX_QUERY) return undefined;
        blocks.set(v.block, { version: v.version, parts });
      }
    }
    const sum = add([...blocks.values()].map((block) => block.parts));
    let weight = blocks.size + sum.length;
    for (const block of blocks.values()) weight += block.parts.length;
    if (weight <= MAX_QUERY) this.#keep(full, { blocks, sum, weight });
    return sum;
  }

  #drop(key: string): void {
    const kept = this.#kept.get(key);
    if (!kept) return;
    this.#kept.delete(key);
    this.#weight -= kept.weight;
  }

  #keep(key: string, kept: Kept): void {
    if (this.#weight + kept.weight > MAX_WEIGHT) {
      this.#kept.clear();
      this.#weight = 0;
    }
    this.#kept.set(key, kept);
    this.#weight += kept.weight;
  }
}

/** The block cache of a connection. */
export const blockCache = perConnection((c) => new BlockCache(c));
