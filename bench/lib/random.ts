/** Deterministic randomness for datasets and request parameters. */

export { seeded } from '../../gateway/seed/random.ts';

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
