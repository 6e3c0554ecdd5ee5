import { describe, expect, it } from 'vitest';
import type { ComparisonNode, FilterNode } from '../../../src/domain/filter-ast.ts';
import { compileFilter } from '../../../src/store/sqlite/filter-sql.ts';
import { escapeLike } from '../../../src/store/sqlite/value-tests.ts';

const cmp = (field: string, op: ComparisonNode['op'], value: ComparisonNode['value'], extra: Partial<ComparisonNode> = {}): ComparisonNode =>
  ({ kind: 'cmp', field, system: false, op, value, valueKind: 'text', multi: false, ...extra });

const HOSTILE = "x'); DROP TABLE records; --";

describe('filter translation to SQL', () => {
  it('binds every user value as a parameter and never writes it into the SQL', () => {
    const filter: FilterNode = {
      kind: 'or',
      nodes: [
        cmp('name', 'eq', HOSTILE),
        cmp('name', 'contains', HOSTILE),
        cmp('name', 'in', [HOSTILE, 'b']),
        { kind: 'and', nodes: [cmp('tags', 'ne', HOSTILE, { multi: true }), cmp('record_id', 'starts_with', HOSTILE, { system: true })] },
      ],
    };
    const set = compileFilter(filter, 7);
    expect(set.sql).not.toContain('DROP');
    expect(set.sql).not.toContain(HOSTILE);
    expect(set.params).toContain(HOSTILE);
    expect(set.params).toContain(`%${HOSTILE}%`);
    expect(set.params).toContain(JSON.stringify([HOSTILE, 'b']));
  });

  it('writes field names as parameters too', () => {
    const set = compileFilter(cmp("name' OR 1=1 --", 'eq', 'a'), 1);
    expect(set.sql).not.toContain('OR 1=1');
    expect(set.params).toContain("name' OR 1=1 --");
  });

  it('binds booleans as 1 and 0', () => {
    expect(compileFilter(cmp('active', 'eq', true, { valueKind: 'boolean' }), 1).params).toEqual([1, 'active', 1]);
    expect(compileFilter(cmp('active', 'in', [false], { valueKind: 'boolean' }), 1).params).toEqual([1, 'active', '[0]']);
  });

  it('escapes LIKE wildcards and the escape character', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });

  it('matches the complement of the value rows for operators that are true on missing values', () => {
    for (const op of ['ne', 'not_in', 'is_empty'] as const) {
      expect(compileFilter(cmp('name', op, op === 'not_in' ? ['a'] : op === 'ne' ? 'a' : null), 1).complement).toBe(true);
    }
    expect(compileFilter(cmp('name', 'eq', 'a'), 1).complement).toBe(false);
    expect(compileFilter(cmp('record_id', 'ne', 'a', { system: true }), 1).complement).toBe(false);
  });
});
