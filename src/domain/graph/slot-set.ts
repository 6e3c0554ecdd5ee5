/**
 * A set of slots (small non-negative integers naming records in a GraphView) that is emptied in
 * constant time: `begin()` starts a new set by moving to a new epoch instead of clearing. A test is
 * one typed-array read, where a Set of record ids hashes or compares strings spread over the heap
 * (a cache miss each), which is what a walk over thousands of edges spent most of its time on.
 */
export class SlotSet {
  #stamps: Uint32Array;
  #epoch = 0;

  constructor(capacity = 1024) {
    this.#stamps = new Uint32Array(capacity);
  }

  /** Empties the set. */
  begin(): this {
    if (++this.#epoch === 0xffffffff) {
      this.#stamps.fill(0);
      this.#epoch = 1;
    }
    return this;
  }

  /** Adds the slot; false when it was in the set already. */
  add(slot: number): boolean {
    if (slot >= this.#stamps.length) {
      const grown = new Uint32Array(Math.max(slot + 1, this.#stamps.length * 2));
      grown.set(this.#stamps);
      this.#stamps = grown;
    }
    if (this.#stamps[slot] === this.#epoch) return false;
    this.#stamps[slot] = this.#epoch;
    return true;
  }

  has(slot: number): boolean {
    return slot < this.#stamps.length && this.#stamps[slot] === this.#epoch;
  }
}

/**
 * A SlotSet that keeps a non-negative number with each slot (a record's position in an answer, say):
 * a lookup is two typed-array reads, where a Map of slots hashes each key.
 */
export class SlotMap {
  readonly #keys: SlotSet;
  #values: Int32Array;

  constructor(capacity = 1024) {
    this.#keys = new SlotSet(capacity);
    this.#values = new Int32Array(capacity);
  }

  /** Empties the map. */
  begin(): this {
    this.#keys.begin();
    return this;
  }

  set(slot: number, value: number): void {
    if (slot >= this.#values.length) {
      const grown = new Int32Array(Math.max(slot + 1, this.#values.length * 2));
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#keys.add(slot);
    this.#values[slot] = value;
  }

  /** The number kept with the slot, or -1 when the slot is not in the map. */
  get(slot: number): number {
    return this.#keys.has(slot) ? this.#values[slot]! : -1;
  }
}
