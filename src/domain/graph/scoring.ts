import type { Category, Reason, Strength } from './types.ts';

/**
 * The scoring rules of contacts.classify, pure and deterministic: the same facts and clock give
 * the same answer on every store. The facts are gathered by classify.ts.
 */

/** What is known about one contact's neighbourhood. */
export interface ContactFacts {
  /** Stages of the distinct deals of the contact or of its company (null: no stage yet). */
  dealStages: readonly (string | null)[];
  /** Counts of links by type that speak for a category (see LINK_SIGNALS), and of other links. */
  links: Readonly<Record<string, number>>;
  /** Interaction timestamps by kind (INTERACTION_KINDS). */
  interactions: Readonly<Record<string, readonly string[]>>;
}

export interface Scored {
  category: Category;
  strength: Strength;
  score: number;
  reasons: Reason[];
}

/**
 * Interaction kinds: each interaction adds `points` times its recency weight, up to `cap` per kind.
 * A new kind is one entry here plus the store returning it (Store.interactions). A meeting counts
 * with a greater weight than an email or a message because it took (or takes) someone's time.
 */
export const INTERACTION_KINDS: readonly { kind: string; points: number; cap: number }[] = [
  { kind: 'notes', points: 8, cap: 40 },
  { kind: 'tasks', points: 5, cap: 25 },
  { kind: 'emails', points: 6, cap: 30 },
  { kind: 'meetings', points: 10, cap: 40 },
  { kind: 'messages', points: 4, cap: 20 },
];

/**
 * The communications that are interactions, by comm kind, with the interaction kind they count as.
 * Tickets, integrations and webhook deliveries concern the workspace, not a person, so they are not here.
 */
export const COMM_INTERACTIONS: Readonly<Record<'email' | 'meeting' | 'message', string>> = {
  email: 'emails',
  meeting: 'meetings',
  message: 'messages',
};

/** Link types that mark a category, and their points per link (capped at two links). */
export const LINK_SIGNALS: Readonly<Record<string, { category: Category; points: number }>> = {
  invested_in: { category: 'investor', points: 15 },
  partner_of: { category: 'partner', points: 15 },
  supplies: { category: 'vendor', points: 15 },
};
/** Any other link type: a little warmth, no category. */
export const OTHER_LINK_POINTS = 5;

const WON = 'won';
const LOST = 'lost';
const DEAL_POINTS = { won: { points: 20, cap: 40 }, open: { points: 10, cap: 20 } } as const;

/** When several categories apply, the first in this order wins. */
export const CATEGORY_PRECEDENCE: readonly Category[] = ['customer', 'investor', 'partner', 'vendor', 'prospect'];

/** Score thresholds of the strengths, strongest first. */
export const STRENGTH_THRESHOLDS: readonly [Strength, number][] = [['strong', 60], ['warm', 35], ['weak', 15], ['cold', 0]];

const DAY = 86_400_000;

/** How much an interaction `ageDays` old counts: recent ones fully, old ones a little. */
export function recencyWeight(ageDays: number): number {
  if (ageDays <= 30) return 1;
  if (ageDays <= 90) return 0.5;
  if (ageDays <= 365) return 0.25;
  return 0.1;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Scores one contact at `now`. */
export function scoreContact(facts: ContactFacts, now: Date): Scored {
  const reasons: Reason[] = [];
  const add = (signal: string, value: number, contribution: number, detail?: string) => {
    if (value > 0) reasons.push({ signal, value, contribution: round2(contribution), ...(detail ? { detail } : {}) });
  };
  const won = facts.dealStages.filter((s) => s === WON).length;
  const lost = facts.dealStages.filter((s) => s === LOST).length;
  const open = facts.dealStages.length - won - lost;
  add('deals_won', won, Math.min(won * DEAL_POINTS.won.points, DEAL_POINTS.won.cap));
  add('deals_open', open, Math.min(open * DEAL_POINTS.open.points, DEAL_POINTS.open.cap));
  add('deals_lost', lost, 0);

  const marked = new Set<Category>();
  if (won > 0) marked.add('customer');
  if (open > 0) marked.add('prospect');
  let otherLinks = 0;
  for (const type of Object.keys(facts.links).sort()) {
    const count = facts.links[type]!;
    const signal = LINK_SIGNALS[type];
    if (!signal) {
      otherLinks += count;
      continue;
    }
    if (count > 0) marked.add(signal.category);
    add(`link:${type}`, count, Math.min(count, 2) * signal.points);
  }
  add('links_other', otherLinks, Math.min(otherLinks, 2) * OTHER_LINK_POINTS);

  for (const { kind, points, cap } of INTERACTION_KINDS) {
    const times = facts.interactions[kind] ?? [];
    const weighted = times.reduce((sum, at) => sum + recencyWeight(Math.max(0, (now.getTime() - Date.parse(at)) / DAY)), 0);
    const latest = times.length ? [...times].sort().at(-1) : undefined;
    add(kind, times.length, Math.min(weighted * points, cap), latest ? `latest ${latest}` : undefined);
  }

  const score = Math.min(100, Math.round(reasons.reduce((sum, r) => sum + r.contribution, 0)));
  const category = CATEGORY_PRECEDENCE.find((c) => marked.has(c)) ?? 'other';
  const strength = STRENGTH_THRESHOLDS.find(([, min]) => score >= min)![0];
  return { category, strength, score, reasons };
}
