/**
 * A set of slots (small non-negative integers naming records in a GraphView): one bit per slot, so
 * the set of a workspace of 100k records takes 12.5 KB and its tests stay in the CPU's nearest
 * caches, where a Set of record ids hashes or compares strings spread over the heap (a cache miss
 * each). `begin()` empties it by clearing only the words its members are in.
 */
export class SlotSet {
  #bits: Uint32Array;
  /** The slots added since begin(), whose words it clears. */
  readonly #members: number[] = [];

  constructor(capacity = 1024) {
    this.#bits = new Uint32Array((capacity + 31) >>> 5);
  }

  /** Empties the set. */
  begin(): this {
    const members = this.#members;
    if (members.length > this.#bits.length) this.#bits.fill(0);
    else for (let i = 0; i < members.length; i++) this.#bits[members[i]! >>> 5] = 0;
    members.length = 0;
    return this;
  }

  /** Adds the slot; false when it was in the set already. */
  add(slot: number): boolean {
    const word = slot >>> 5;
    if (word >= this.#bits.length) {
      const grown = new Uint32Array(Math.max(word + 1, this.#bits.length * 2));
      grown.set(this.#bits);
      this.#bits = grown;
    }
    const bit = 1 << (slot & 31);
    const bits = this.#bits[word]!;
    if (bits & bit) return false;
    this.#bits[word] = bits | bit;
    this.#members.push(slot);
    return true;
  }

  has(slot: number): boolean {
    const word = slot >>> 5;
    return word < this.#bits.length && (this.#bits[word]! & (1 << (slot & 31))) !== 0;
  }
}

/**
 * A SlotSet that keeps a non-negative number with each slot (a record's position in an answer, say):
 * a slot not in the map costs one test of a bit, where a Map of slots hashes each key.
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
