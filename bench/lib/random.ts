/** Deterministic randomness for datasets and request parameters. */

/** mulberry32: a small, fast, seeded PRNG. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Reservoir sampling: a uniform sample of at most `size` items from a stream of any length. */
export class Reservoir {
  private seen = 0;

  constructor(readonly items: string[], private readonly rnd: () => number, private readonly size = 2000) {}

  add(item: string): void {
    this.seen += 1;
    if (this.items.length < this.size) this.items.push(item);
    else {
      const slot = Math.floor(this.rnd() * this.seen);
      if (slot < this.size) this.items[slot] = item;
    }
  }
}
