import { describe, expect, it } from 'vitest';
import { CrmError, notFound } from '../../src/domain/errors.ts';

describe('CrmError', () => {
  it('never carries a caller\'s huge value back whole, in its message or the strings of its details', () => {
    const id = `rel_${'X'.repeat(90_000)}`;
    const error = notFound('link', id);
    expect(error.message.length).toBeLessThan(4_100);
    expect(error.message).toMatch(/… \(\d+ more characters\)$/);
    expect(String(error.details!.id).length).toBeLessThan(400);
    expect(String(error.details!.id).startsWith('rel_XXX')).toBe(true);
  });

  it('keeps ordinary messages and details as given', () => {
    const details = { param: 'data.email', rule: 'unique', allowed: ['a', 'b'] };
    const error = new CrmError('conflict', 'Another record already has this email value', details);
    expect(error.message).toBe('Another record already has this email value');
    expect(error.details).toBe(details);
  });
});
