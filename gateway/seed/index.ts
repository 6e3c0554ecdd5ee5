import type { Actor } from '../../src/domain/actor.ts';
import { CrmError, notFound } from '../../src/domain/errors.ts';
import { addUser, createKey, createWorkspace } from '../../src/domain/services/settings.ts';
import type { Store } from '../../src/domain/store/port.ts';
import { seedContext, type SeedContext } from './context.ts';
import { seedComms } from './comms.ts';
import { seedCore } from './core.ts';
import { seedGraph } from './graph.ts';

/**
 * `crm seed demo`: one step per family, run in order; a family adds its demo data by adding its
 * step here (its own file beside these), building on what earlier steps made (`ctx.made`).
 */
export const SEED_STEPS: ReadonlyArray<{ family: string; run: (ctx: SeedContext) => Promise<void> }> = [
  { family: 'records', run: seedCore },
  // Before the graph, whose classification counts emails and meetings as interactions.
  { family: 'comms', run: seedComms },
  { family: 'graph', run: seedGraph },
];

export interface SeedOptions {
  /** An existing workspace to fill; a new "Demo" workspace with an owner when absent. */
  workspaceId?: string;
  scale?: number;
  seed?: number;
  keyPrefix: string;
}

export interface SeedResult {
  workspace_id: string;
  user_id: string;
  /** A key of the acting owner, shown once, to try the tools on the demo. */
  key: string;
  counts: Record<string, number>;
}

/** Builds the demo dataset, deterministically for a given seed and scale. */
export async function seedDemo(store: Store, opts: SeedOptions): Promise<SeedResult> {
  const workspace = opts.workspaceId
    ? await store.getWorkspace(opts.workspaceId)
    : await createWorkspace(store, { name: 'Demo', plan: 'developer', trialDays: null });
  if (!workspace) throw notFound('workspace', opts.workspaceId!);
  const users = await store.listUsers(workspace.id);
  const owner = users.find((u) => u.role === 'owner') ?? await addUser(store, { workspace_id: workspace.id, email: 'demo.owner@demo.example', name: 'Demo Owner', role: 'owner' });
  const actor: Actor = {
    workspace_id: workspace.id, user_id: owner.id, role: 'owner', key_id: null, scopes: [], via: 'cli', tool: 'seed.demo',
    plan: workspace.plan, trial_ends_at: workspace.trial_ends_at,
  };
  const ctx = seedContext(store, actor, opts.scale ?? 1, opts.seed ?? 20_261_123);
  try {
    for (const step of SEED_STEPS) await step.run(ctx);
  } catch (error) {
    if (error instanceof CrmError && error.code === 'conflict') {
      throw new CrmError('conflict', `${error.message}: the workspace already holds demo data of this seed; seed another workspace or pass another --seed`, error.details);
    }
    throw error;
  }
  const { key } = await createKey(store, { workspace_id: workspace.id, user_id: owner.id, name: 'demo', scopes: [], prefix: opts.keyPrefix });
  return { workspace_id: workspace.id, user_id: owner.id, key, counts: ctx.counts };
}
