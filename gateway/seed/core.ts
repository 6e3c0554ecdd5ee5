import { DEAL_STAGES } from '../../src/domain/standard-objects.ts';
import { scaled, type SeedContext } from './context.ts';
import { FIRST, HEADS, INDUSTRIES, LAST, NOTE_TOPICS, TASK_TOPICS, TITLES, TAILS } from './words.ts';

/**
 * The records family's demo data: companies, their people, deals in a pipeline list, notes and
 * tasks — written through the domain services, so every row is validated and on the timeline.
 */
export async function seedCore(ctx: SeedContext): Promise<void> {
  const { services: s, dice, made } = ctx;
  for (let i = 0; i < scaled(ctx, 300); i++) {
    const name = `${cap(dice.pick(HEADS))} ${cap(dice.pick(TAILS))} ${i + 1}`;
    const company = await s.records.create({ object_type_slug: 'companies', data: {
      name, domain: `${name.toLowerCase().replaceAll(' ', '-')}-${ctx.tag}.example`, industry: dice.pick(INDUSTRIES), employee_count: 5 + dice.int(5000),
    } });
    made.companies.push(company.id);
  }
  for (let i = 0; i < scaled(ctx, 3000); i++) {
    const [first, last] = [dice.pick(FIRST), dice.pick(LAST)];
    // Most people work somewhere; a few (advisers, investors) stand alone.
    const company = dice.chance(0.9) ? { company: dice.pick(made.companies) } : {};
    const email = `${first}.${last}.${i + 1}.${ctx.tag}@demo.example`;
    const person = await s.records.create({ object_type_slug: 'contacts', data: {
      name: `${cap(first)} ${cap(last)}`, email, job_title: dice.pick(TITLES), ...company,
    } });
    made.contacts.push(person.id);
    made.addresses.push(email);
  }
  const pipeline = await s.lists.create({
    object_type_slug: 'deals', name: 'Sales pipeline', fields: [{ slug: 'stage', name: 'Stage', type: 'status', config: { options: [...DEAL_STAGES] } }],
  });
  const entries: { record_id: string; data: { stage: string } }[] = [];
  for (let i = 0; i < scaled(ctx, 600); i++) {
    const company = dice.pick(made.companies);
    const stage = dice.pick(DEAL_STAGES);
    const deal = await s.records.create({ object_type_slug: 'deals', data: {
      name: `Deal ${i + 1}`, amount: 1000 * (1 + dice.int(200)), stage, company, contacts: [dice.pick(made.contacts)],
    } });
    made.deals.push(deal.id);
    entries.push({ record_id: deal.id, data: { stage } });
  }
  for (let i = 0; i < entries.length; i += 100) await s.lists.bulkAdd({ list_id: pipeline.list_id, entries: entries.slice(i, i + 100) });
  for (let i = 0; i < scaled(ctx, 1500); i++) {
    await s.notes.create({ title: dice.pick(NOTE_TOPICS), kind: dice.pick(['note', 'call', 'meeting', 'email'] as const), record_ids: [dice.pick(made.contacts)] });
  }
  for (let i = 0; i < scaled(ctx, 600); i++) {
    await s.tasks.create({ title: dice.pick(TASK_TOPICS), status: dice.pick(['open', 'in_progress', 'done'] as const), record_ids: [dice.pick(made.contacts)] });
  }
  Object.assign(ctx.counts, {
    companies: made.companies.length, contacts: made.contacts.length, deals: made.deals.length,
    notes: scaled(ctx, 1500), tasks: scaled(ctx, 600), lists: 1,
  });
}

const cap = (word: string): string => word[0]!.toUpperCase() + word.slice(1);
