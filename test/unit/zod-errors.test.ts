import { describe, expect, it } from 'vitest';
import { findTool } from '../../gateway/tools/invoke.ts';
import { zodToCrmError } from '../../gateway/tools/zod-errors.ts';

/** The validation_error a tool's own schema gives for the params. */
function refusal(tool: string, params: Record<string, unknown>) {
  const { input } = findTool(tool);
  const parsed = input.safeParse(params);
  if (parsed.success) throw new Error(`${tool} accepted ${JSON.stringify(params)}`);
  const error = zodToCrmError(parsed.error, params, input, tool);
  return { message: error.message, ...error.details };
}

const MEETING = { title: 'm', starts_at: '2026-12-01T10:00:00Z', ends_at: '2026-12-01T11:00:00Z' };

describe('validation errors of union-typed parameters', () => {
  it('tells a value that is one item or a list by the branch it came nearest to, with the allowed values', () => {
    expect(refusal('tasks.list', { status: 'nope' })).toMatchObject({ param: 'status', rule: 'enum', allowed: ['open', 'in_progress', 'done'] });
    expect(refusal('tasks.list', { status: ['open', 'nope'] })).toMatchObject({ param: 'status[1]', rule: 'enum', allowed: ['open', 'in_progress', 'done'] });
  });

  it('states the bound a list passed and the types a value may take', () => {
    const to = Array.from({ length: 51 }, (_, i) => `a${i}@example.com`);
    expect(refusal('email.send', { to, subject: 's', body: 'b' })).toMatchObject({ param: 'to', rule: 'max', max: 50 });
    expect(refusal('email.send', { to: 5, subject: 's', body: 'b' })).toMatchObject({ param: 'to', rule: 'type', expected: 'string or array', message: 'to must be a string or an array, got number' });
  });

  it('names a key no branch takes, with the nearest of all branches\' keys, and a wrong value where it was sent', () => {
    expect(refusal('meetings.create', { ...MEETING, attendees: [{ emial: 'a@b.co' }] }))
      .toMatchObject({ param: 'attendees[0].emial', rule: 'unknown_parameter', suggestion: 'email', allowed: ['record_id', 'email'] });
    expect(refusal('meetings.create', { ...MEETING, attendees: [{ email: 5 }] })).toMatchObject({ param: 'attendees[0].email', rule: 'type' });
  });

  it('says which keys exclude each other instead of suggesting the key that was sent', () => {
    const both = refusal('meetings.create', { ...MEETING, attendees: [{ record_id: 'rec_01JD3Q2X7ZK9M4T6V8W0Y2A4C6', email: 'a@b.co' }] });
    expect(both).toMatchObject({ rule: 'exclusive', allowed: ['record_id', 'email'] });
    expect(both.message).toMatch(/^attendees\[0\]: \w+ cannot be given with \w+; give one of record_id, email$/);
    expect(both).not.toHaveProperty('suggestion');
  });

  it('states the parameter\'s own bound for an integer past 2^53, an article that reads, and what an out-of-range number was', () => {
    expect(refusal('records.list', { object_type_slug: 'deals', page: 9007199254740992 })).toMatchObject({ param: 'page', rule: 'max', max: 100_000 });
    expect(refusal('graph.query', { record_id: 'rec_01JD3Q2X7ZK9M4T6V8W0Y2A4C6', depth: 1e20 })).toMatchObject({ param: 'depth', rule: 'max', max: 4 });
    expect(refusal('records.list', { object_type_slug: 'deals', page: 1.5 }).message).toBe('page must be an integer, got number');
    expect(refusal('records.list', { object_type_slug: 'deals', page: Infinity }).message).toBe('page must be a number, got number Infinity (out of range)');
  });

  it('states the bound a field key broke', () => {
    expect(refusal('records.create', { object_type_slug: 'deals', data: { ['k'.repeat(70)]: 1 } }))
      .toMatchObject({ rule: 'key_max', max: 64, message: expect.stringMatching(/a key here may have at most 64 characters, got 70$/) });
  });

  it('never answers a bare "Invalid input"', () => {
    for (const [tool, params] of [
      ['tasks.list', { status: 5 }], ['email.send', { to: null, subject: 's', body: 'b' }], ['meetings.create', { ...MEETING, attendees: ['x'] }],
    ] as const) {
      expect(refusal(tool, params).message, `${tool} ${JSON.stringify(params)}`).not.toMatch(/Invalid input/);
    }
  });
});
