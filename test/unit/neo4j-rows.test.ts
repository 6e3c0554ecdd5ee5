import { describe, expect, it } from 'vitest';
import { toWorkspace } from '../../src/store/neo4j/rows.ts';

describe('Neo4j rows as domain values', () => {
  const node = (plan: string | null) => ({ id: 'ws_1', name: 'W', plan, trial_ends_at: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' });

  it('reads a workspace plan stored as "none" (any case) as no plan, as SQLite migrates it', () => {
    expect(toWorkspace(node(' None ')).plan).toBeNull();
    expect(toWorkspace(node('none')).plan).toBeNull();
    expect(toWorkspace(node('pro')).plan).toBe('pro');
    expect(toWorkspace(node(null)).plan).toBeNull();
  });
});
