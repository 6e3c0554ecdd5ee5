import { describe, expect, it } from 'vitest';
import { editDistance, nearest } from '../../src/domain/suggest.ts';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', 'abc')).toBe(0);
  });

  it('counts a swap of two neighbouring letters as one edit', () => {
    expect(editDistance('emial', 'email')).toBe(1);
    expect(editDistance('ab', 'ba')).toBe(1);
  });
});

describe('nearest', () => {
  const fields = ['name', 'email', 'phone', 'job_title', 'company'];

  it('suggests the field one transposition away', () => {
    expect(nearest('emial', fields)).toBe('email');
  });

  it('ignores case', () => {
    expect(nearest('EMAIL', fields)).toBe('email');
    expect(nearest('$AND', ['$and', '$or'])).toBe('$and');
  });

  it('suggests a candidate that starts with an input of three or more characters', () => {
    expect(nearest('comp', fields)).toBe('company');
    expect(nearest('job', fields)).toBe('job_title');
  });

  it('does not treat a two-character prefix as a typo', () => {
    expect(nearest('jo', fields)).toBeUndefined();
  });

  it('returns undefined when nothing is close enough', () => {
    expect(nearest('revenue', fields)).toBeUndefined();
    expect(nearest('', fields)).toBeUndefined();
    expect(nearest('email', [])).toBeUndefined();
  });

  it('allows more edits for longer inputs', () => {
    expect(nearest('employe_cont', ['employee_count', 'name'])).toBe('employee_count');
    expect(nearest('nmae', ['name'])).toBe('name');
    expect(nearest('company', ['contacts', 'companies', 'deals'])).toBe('companies');
    expect(nearest('xyz', ['abc'])).toBeUndefined();
    expect(nearest('nm', ['name'])).toBeUndefined();
  });

  it('prefers the closest candidate, then the longer shared prefix, then the earlier one', () => {
    expect(nearest('eq', ['ne', 'eq'])).toBe('eq');
    expect(nearest('neq', ['eq', 'ne', 'in'])).toBe('ne');
    expect(nearest('nq', ['ne', 'eq'])).toBe('ne');
    expect(nearest('xq', ['ne', 'eq'])).toBe('eq');
    expect(nearest('ab', ['ax', 'ay'])).toBe('ax');
  });
});

describe('nearest on hostile input', () => {
  const tools = Array.from({ length: 62 }, (_, i) => `category${i}.action_${i}`);

  it('suggests nothing for a 1 MB input, without comparing it', () => {
    expect(nearest('a'.repeat(1_048_576), tools)).toBeUndefined();
    expect(nearest(`${'x'.repeat(1_048_576)}records.list`, ['records.list'])).toBeUndefined();
  });

  it('still suggests for an input at the length cap', () => {
    const name = `f${'a'.repeat(62)}`;
    expect(nearest(`${name.slice(0, -1)}b`, [name, 'email'])).toBe(name);
  });

  it('stops counting edits past the budget it was given', () => {
    expect(editDistance('abcdefgh', 'zyxwvuts', 2)).toBe(3);
    expect(editDistance('abcdefgh', 'abcdefgh', 2)).toBe(0);
    expect(editDistance('a'.repeat(10), 'a'.repeat(100), 5)).toBe(6);
  });
});
