import type { GraphEdge, GraphRecord } from './types.ts';

/**
 * A workspace's relationship graph as a store holds it in memory (Store `graphView`), for walks
 * that would otherwise make a store round trip per level and hash record ids at every edge. Records
 * are named by slots, small integers valid while the view is used synchronously (no `await` in
 * between): the store may start its memory over at any later turn.
 *
 * What it answers is what expandGraph and edgesAmong answer, so a walk over it gives exactly the
 * answer of the same walk over those (walk-view.ts; the conformance suite compares both).
 */
export interface GraphView {
  /** The slot of a record id (any id: one that names no record of the workspace gets no edges and no record). */
  slot(id: string): number;
  /** The record id of a slot. */
  id(slot: number): string;
  /** The order of two slots' record ids (code-unit order, as walks order records), negative when `a` comes first. */
  compare(a: number, b: number): number;
  /**
   * Reads what the view does not hold yet of these records: their stored edges and, unless `ends`
   * is false, the facts of every record at their other ends. False when the store had to drop
   * what it held to stay within its memory bounds: the slots handed out so far are void, and the
   * caller starts over without the view.
   */
  load(slots: readonly number[], ends?: boolean): boolean;
  /** The live record at a slot, or undefined (deleted, another workspace's, unknown, or not loaded). */
  record(slot: number): GraphRecord | undefined;
  /**
   * The stored edges at loaded records, two numbers per edge end: the slot at the other end, then an
   * opaque tag for `edge()`. A record's ends are `count(slot)` pairs from `first(slot)` on, the
   * `outs(slot)` edges it is the from end of first. Read again after every `load`: it may move.
   */
  ends(): Int32Array;
  /** Where a loaded record's edge ends start in `ends()`. */
  first(slot: number): number;
  /** How many edge ends a loaded record has. */
  count(slot: number): number;
  /** How many of them (the first ones) are edges it is the from end of. */
  outs(slot: number): number;
  /** The edge behind entry `tag` of `here`'s adjacency, whose other end is `there`. */
  edge(here: number, there: number, tag: number): GraphEdge;
  /** Display names of live records, aligned with the slots ('' for a slot that is not a live record). */
  names(slots: readonly number[]): string[];
}
