import type { Store } from '../store/port.ts';
import type { UsageCount } from '../store/port-comms.ts';
import type { CallStyle } from '../types.ts';

/**
 * Calls per workspace, month and call style, for billing.get. Counting must not add a store write
 * to every call, so each process adds to an in-memory tally and flushes it as one additive upsert
 * at most once a second (and before billing.get reads, and when the server stops). Replicas each
 * flush their own deltas, so the stored counts add up across them; a crash loses at most the last
 * second of counts.
 */
const FLUSH_AFTER_MS = 1000;

interface Tally {
  pending: Map<string, UsageCount>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void>;
}

const tallies = new WeakMap<Store, Tally>();

/** The billing period a time falls in: its UTC month, `2026-11`. */
export function periodOf(at: Date | number = Date.now()): string {
  const ms = typeof at === 'number' ? at : at.getTime();
  // Every call is counted under the current period: its bounds are kept, so a call costs two
  // comparisons instead of a Date and an ISO string.
  if (!(ms >= month.start && ms < month.end)) month = monthOf(ms);
  return month.period;
}

let month = { start: 0, end: 0, period: '' };

function monthOf(ms: number): { start: number; end: number; period: string } {
  const at = new Date(ms);
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  const start = new Date(0);
  start.setUTCFullYear(at.getUTCFullYear(), at.getUTCMonth(), 1);
  const end = new Date(0);
  end.setUTCFullYear(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
  return { start: start.getTime(), end: end.getTime(), period: at.toISOString().slice(0, 7) };
}

/** Counts `calls` calls (one tool run each; a /graphql operation is one per root field); `cli` calls are operator calls and are not billed. */
export function countCall(store: Store, workspaceId: string, style: CallStyle, calls = 1): void {
  if (style === 'cli' || calls < 1) return;
  let tally = tallies.get(store);
  if (!tally) {
    tally = { pending: new Map(), timer: null, flushing: Promise.resolve() };
    tallies.set(store, tally);
  }
  const period = periodOf();
  const key = `${workspaceId}|${period}|${style}`;
  const entry = tally.pending.get(key);
  if (entry) entry.count += calls;
  else tally.pending.set(key, { workspace_id: workspaceId, period, style, count: calls });
  if (!tally.timer) {
    tally.timer = setTimeout(() => void flushUsage(store).catch(() => undefined), FLUSH_AFTER_MS);
    tally.timer.unref();
  }
}

/** Writes the tally to the store. A failed write puts the counts back, to be retried on the next flush. */
export async function flushUsage(store: Store): Promise<void> {
  const tally = tallies.get(store);
  if (!tally) return;
  if (tally.timer) clearTimeout(tally.timer);
  tally.timer = null;
  const counts = [...tally.pending.values()];
  tally.pending.clear();
  const previous = tally.flushing;
  tally.flushing = (async () => {
    await previous.catch(() => undefined);
    if (counts.length === 0) return;
    try {
      await store.addUsage(counts);
    } catch (error) {
      for (const c of counts) {
        const key = `${c.workspace_id}|${c.period}|${c.style}`;
        const entry = tally.pending.get(key);
        if (entry) entry.count += c.count;
        else tally.pending.set(key, { ...c });
      }
      throw error;
    }
  })();
  await tally.flushing;
}
