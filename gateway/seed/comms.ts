import { scaled, type SeedContext } from './context.ts';
import { EMAIL_SUBJECTS, MEETING_TITLES } from './words.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Why the demo's emails are `stored`: they record mail, and the seed never sends any. */
export const SEED_EMAIL_REASON = 'demo data: kept as a record of mail written elsewhere, never sent';

/**
 * The communications family's demo data: emails to contacts over the past year (kept as records,
 * so the seed contacts no SMTP server whatever SMTP_URL says), meetings in the past and the coming
 * weeks with contacts as attendees, and internal messages about contacts. It runs before the graph
 * step, whose classification then counts them.
 */
export async function seedComms(ctx: SeedContext): Promise<void> {
  const { services: s, dice, made } = ctx;
  // Whole hours, so the demo's times read naturally; the days ago lean recent as real mail does.
  const hour = Math.floor(Date.now() / HOUR) * HOUR;
  const who = () => dice.int(made.contacts.length);
  for (let i = 0; i < scaled(ctx, 1200); i++) {
    const c = who();
    const daysAgo = dice.chance(0.6) ? dice.int(30) : dice.int(365);
    await s.email.keep({
      to: made.addresses[c]!, subject: dice.pick(EMAIL_SUBJECTS), body: 'Hello,\n\nAs discussed — details below.\n', record_ids: [made.contacts[c]!],
    }, SEED_EMAIL_REASON, new Date(hour - daysAgo * DAY - HOUR).toISOString());
  }
  for (let i = 0; i < scaled(ctx, 300); i++) {
    const attendees = [...new Set([who(), who()])].map((c) => ({ record_id: made.contacts[c]! }));
    // Three in four have happened (up to 120 days ago); the rest are in the next 30 days.
    const startsAt = hour + (dice.chance(0.75) ? -(1 + dice.int(120)) : 1 + dice.int(30)) * DAY;
    await s.meetings.create({
      title: dice.pick(MEETING_TITLES), starts_at: new Date(startsAt).toISOString(), ends_at: new Date(startsAt + (dice.chance(0.5) ? 1 : 0.5) * HOUR).toISOString(),
      attendees: [...attendees, { email: `guest.${i + 1}.${ctx.tag}@demo.example` }], location: dice.chance(0.5) ? 'Video call' : 'Office',
    });
  }
  for (let i = 0; i < scaled(ctx, 300); i++) {
    await s.messages.send({ channel: 'internal', body: 'Heads-up: they asked about pricing.', record_ids: [made.contacts[who()]!] });
  }
  Object.assign(ctx.counts, { emails: scaled(ctx, 1200), meetings: scaled(ctx, 300), messages: scaled(ctx, 300) });
}
