import { scaled, type SeedContext } from './context.ts';

/**
 * The relationship graph's demo data: introductions between people, investors in companies,
 * partnerships and suppliers, then every contact classified so graph.query can filter by category.
 */
export async function seedGraph(ctx: SeedContext): Promise<void> {
  const { services: s, dice, made } = ctx;
  const seen = new Set<string>();
  let links = 0;
  const link = async (from: string, to: string, type: string, properties: Record<string, unknown> = {}) => {
    const key = `${from} ${to} ${type}`;
    if (from === to || seen.has(key)) return;
    seen.add(key);
    await s.graph.link({ from_record_id: from, to_record_id: to, type, properties });
    links++;
  };
  for (let i = 0; i < scaled(ctx, 900); i++) {
    await link(dice.pick(made.contacts), dice.pick(made.contacts), dice.chance(0.5) ? 'knows' : 'introduced_by', { strength: 1 + dice.int(5) });
  }
  for (let i = 0; i < scaled(ctx, 120); i++) {
    await link(dice.pick(made.contacts), dice.pick(made.companies), 'invested_in', { round: dice.pick(['pre-seed', 'seed', 'series_a', 'series_b']) });
  }
  for (let i = 0; i < scaled(ctx, 100); i++) await link(dice.pick(made.companies), dice.pick(made.companies), 'partner_of');
  for (let i = 0; i < scaled(ctx, 80); i++) await link(dice.pick(made.companies), dice.pick(made.companies), 'supplies');
  const classified = await s.classify.classify({});
  const byCategory = classified.counts.by_category;
  Object.assign(ctx.counts, { links, classified: Object.values(byCategory).reduce((a, b) => a + b, 0) });
}
