import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { created, diffOf, eventFor } from '../../src/domain/services/events.ts';
import { normaliseDue } from '../../src/domain/services/tasks.ts';

const actor: Actor = {
  workspace_id: 'ws_1', user_id: 'usr_1', role: 'admin', key_id: 'key_1', scopes: [], via: 'mcp', tool: 'records.update',
  plan: 'pro', trial_ends_at: null,
};

describe('timeline diffs', () => {
  it('lists only the fields that changed, with before and after', () => {
    expect(diffOf({ a: 1, b: 'x', c: [1, 2] }, { a: 2, b: 'x', c: [1, 2] })).toEqual({ a: { before: 1, after: 2 } });
  });

  it('omits before for a field set for the first time and after for a cleared one', () => {
    expect(diffOf({ gone: 'v' }, { added: true })).toEqual({ gone: { before: 'v' }, added: { after: true } });
  });

  it('compares arrays and objects by value', () => {
    expect(diffOf({ tags: ['a', 'b'] }, { tags: ['b', 'a'] })).toEqual({ tags: { before: ['a', 'b'], after: ['b', 'a'] } });
    expect(diffOf({ o: { k: 1 } }, { o: { k: 1 } })).toBeNull();
  });

  it('records a creation as every given value, skipping null and undefined', () => {
    expect(created({ name: 'Acme', domain: null, size: undefined, n: 0 })).toEqual({ name: { after: 'Acme' }, n: { after: 0 } });
  });

  it('stamps an event with the actor, key, call style and tool, and de-duplicates record ids', () => {
    expect(eventFor(actor, 'update', 'note', 'nte_1', ['rec_1', 'rec_1', 'rec_2'])).toEqual({
      actor_id: 'usr_1', key_id: 'key_1', via: 'mcp', tool: 'records.update', action: 'update', resource_type: 'note',
      resource_id: 'nte_1', record_ids: ['rec_1', 'rec_2'], diff: null,
    });
  });
});

describe('task due dates', () => {
  it('reads a bare date as the end of that day in UTC', () => {
    expect(normaliseDue('2026-12-01', 'due_at')).toBe('2026-12-01T23:59:59.999Z');
  });

  it('reads a bare date as the start of the day when it is a lower bound', () => {
    expect(normaliseDue('2026-12-01', 'due_after', 'start')).toBe('2026-12-01T00:00:00.000Z');
  });

  it('keeps a timestamp with a zone, in UTC', () => {
    expect(normaliseDue('2026-12-01T10:00:00+02:00', 'due_at')).toBe('2026-12-01T08:00:00.000Z');
  });

  it('rejects a timestamp without a zone and nonsense, naming the parameter', () => {
    expect(() => normaliseDue('2026-12-01T10:00:00', 'due_at')).toThrow(expect.objectContaining({ code: 'validation_error', details: expect.objectContaining({ param: 'due_at' }) }));
    expect(() => normaliseDue('tomorrow', 'due_before')).toThrow(expect.objectContaining({ details: expect.objectContaining({ param: 'due_before' }) }));
  });

  it('rejects days and times that do not exist instead of rolling them over', () => {
    for (const bad of ['2026-02-29', '2026-02-30', '2026-04-31', '0000-01-01', '2026-13-01', '2026-02-30T10:00:00Z', '2026-12-01T24:00:00Z', '2026-12-01T10:61:00Z', '2026-12-01T10:00:00+24:00']) {
      expect(() => normaliseDue(bad, 'due_at'), bad).toThrow(expect.objectContaining({ code: 'validation_error', details: expect.objectContaining({ param: 'due_at', rule: 'format' }) }));
    }
    expect(normaliseDue('2028-02-29', 'due_at')).toBe('2028-02-29T23:59:59.999Z');
    expect(normaliseDue('2026-12-01T23:59:59-23:59', 'due_at')).toBe('2026-12-02T23:58:59.000Z');
    // The basic-form offset, taken before the calendar check as it was before it.
    expect(normaliseDue('2026-12-01T10:00:00+0200', 'due_at')).toBe('2026-12-01T08:00:00.000Z');
    expect(() => normaliseDue('2026-02-30T10:00:00+0200', 'due_at')).toThrow(expect.objectContaining({ code: 'validation_error' }));
  });
});
