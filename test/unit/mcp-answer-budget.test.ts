import { describe, expect, it } from 'vitest';
import { answerBudget, BATCH_ANSWER_MAX, chargeAnswer } from '../../gateway/transports/mcp-batch.ts';

describe('a batch answer budget', () => {
  it('answers reads while they fit, and writes always, charging both', () => {
    const budget = answerBudget();
    const big = 'x'.repeat(BATCH_ANSWER_MAX / 2);
    expect(chargeAnswer(budget, 'records.list', true, big)).toBeNull();
    expect(chargeAnswer(budget, 'records.list', true, big)).toBeNull();
    expect(budget.left).toBe(0);
    // A write ran: its answer goes out even past the bound, and what is left goes below zero.
    expect(chargeAnswer(budget, 'records.create', false, '{"record_id":"rec_1"}')).toBeNull();
    expect(budget.left).toBeLessThan(0);
    const refused = chargeAnswer(budget, 'objects.list', true, '{}');
    expect(refused).toMatchObject({ code: 'payload_too_large', details: { limit: BATCH_ANSWER_MAX, tool: 'objects.list' } });
    expect(refused?.message).toContain('call objects.list alone or in a smaller batch');
  });

  it('refuses a read larger than the whole budget without charging it', () => {
    const budget = answerBudget();
    expect(chargeAnswer(budget, 'records.list', true, 'x'.repeat(BATCH_ANSWER_MAX + 1))).not.toBeNull();
    expect(budget.left).toBe(BATCH_ANSWER_MAX);
    expect(chargeAnswer(budget, 'records.list', true, 'x'.repeat(BATCH_ANSWER_MAX))).toBeNull();
  });
});
