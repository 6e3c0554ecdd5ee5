import { describe, expect, it } from 'vitest';
import { recencyWeight, scoreContact, type ContactFacts } from '../../src/domain/graph/scoring.ts';

const NOW = new Date('2026-06-01T00:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();
const facts = (extra: Partial<ContactFacts> = {}): ContactFacts => ({ dealStages: [], links: {}, interactions: {}, ...extra });

describe('contact scoring', () => {
  it('calls a contact with nothing around it other and cold, with no reasons', () => {
    expect(scoreContact(facts(), NOW)).toEqual({ category: 'other', strength: 'cold', score: 0, reasons: [] });
  });

  it('makes a won deal a customer and an open one a prospect, and lets customer win', () => {
    expect(scoreContact(facts({ dealStages: ['qualified', null] }), NOW)).toMatchObject({ category: 'prospect', score: 20 });
    const both = scoreContact(facts({ dealStages: ['won', 'lead', 'lost'] }), NOW);
    expect(both.category).toBe('customer');
    expect(both.reasons).toEqual([
      { signal: 'deals_won', value: 1, contribution: 20 }, { signal: 'deals_open', value: 1, contribution: 10 }, { signal: 'deals_lost', value: 1, contribution: 0 },
    ]);
  });

  it('caps deal points: three won deals count as two', () => {
    expect(scoreContact(facts({ dealStages: ['won', 'won', 'won'] }), NOW).reasons[0]).toEqual({ signal: 'deals_won', value: 3, contribution: 40 });
  });

  it('reads investor, partner and vendor from link types, in that precedence, above prospect', () => {
    expect(scoreContact(facts({ links: { supplies: 1 }, dealStages: ['lead'] }), NOW).category).toBe('vendor');
    expect(scoreContact(facts({ links: { supplies: 1, partner_of: 1 } }), NOW).category).toBe('partner');
    expect(scoreContact(facts({ links: { supplies: 1, partner_of: 1, invested_in: 3 } }), NOW)).toMatchObject({
      category: 'investor', reasons: expect.arrayContaining([{ signal: 'link:invested_in', value: 3, contribution: 30 }]),
    });
    expect(scoreContact(facts({ links: { knows: 4 } }), NOW)).toMatchObject({ category: 'other', reasons: [{ signal: 'links_other', value: 4, contribution: 10 }] });
  });

  it('weights interactions by recency and caps each kind', () => {
    expect([recencyWeight(0), recencyWeight(30), recencyWeight(31), recencyWeight(90), recencyWeight(365), recencyWeight(366)]).toEqual([1, 1, 0.5, 0.5, 0.25, 0.1]);
    const recent = scoreContact(facts({ interactions: { notes: [daysAgo(1), daysAgo(40)], tasks: [daysAgo(400)] } }), NOW);
    expect(recent.reasons).toEqual([
      { signal: 'notes', value: 2, contribution: 12, detail: `latest ${daysAgo(1)}` },
      { signal: 'tasks', value: 1, contribution: 0.5, detail: `latest ${daysAgo(400)}` },
    ]);
    expect(recent.score).toBe(13);
    const flood = scoreContact(facts({ interactions: { notes: Array.from({ length: 20 }, () => daysAgo(2)) } }), NOW);
    expect(flood.reasons[0]!.contribution).toBe(40);
  });

  it('turns the score into a strength at 15, 35 and 60', () => {
    const strength = (stages: string[], notes: number) =>
      scoreContact(facts({ dealStages: stages, interactions: { notes: Array.from({ length: notes }, () => daysAgo(1)) } }), NOW);
    expect(strength([], 1)).toMatchObject({ score: 8, strength: 'cold' });
    expect(strength([], 2)).toMatchObject({ score: 16, strength: 'weak' });
    expect(strength(['won'], 2)).toMatchObject({ score: 36, strength: 'warm' });
    expect(strength(['won', 'won'], 3)).toMatchObject({ score: 64, strength: 'strong' });
  });

  it('never passes 100 and gives the same answer for the same facts and clock', () => {
    const rich = facts({
      dealStages: ['won', 'won', 'lead', 'lead'], links: { invested_in: 2, partner_of: 2, supplies: 2, knows: 2 },
      interactions: { notes: Array.from({ length: 9 }, () => daysAgo(3)), tasks: Array.from({ length: 9 }, () => daysAgo(3)) },
    });
    expect(scoreContact(rich, NOW).score).toBe(100);
    expect(scoreContact(rich, NOW)).toEqual(scoreContact(rich, new Date(NOW)));
  });
});
