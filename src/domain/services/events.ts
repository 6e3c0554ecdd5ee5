import type { NewEvent } from '../store/port-work.ts';
import type { Actor } from '../actor.ts';
import type { EventAction, FieldChange, ResourceType } from '../types.ts';

/** The timeline event of one change made by the actor, with its provenance: user, key, call style and tool. */
export function eventFor(
  actor: Actor,
  action: EventAction,
  resource_type: ResourceType,
  resource_id: string,
  record_ids: readonly string[],
  diff: Record<string, FieldChange> | null = null,
): NewEvent {
  return {
    actor_id: actor.user_id, key_id: actor.key_id, via: actor.via, tool: actor.tool,
    action, resource_type, resource_id, record_ids: [...new Set(record_ids)], diff,
  };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Field-level changes from `before` to `after` (both keyed by field). Only changed keys appear;
 * a key set for the first time has no `before`, a cleared key no `after`. Null when nothing changed.
 */
export function diffOf(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, FieldChange> | null {
  const diff: Record<string, FieldChange> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const b = before[key];
    const a = after[key];
    if (same(b, a)) continue;
    diff[key] = { ...(b === undefined ? {} : { before: b }), ...(a === undefined ? {} : { after: a }) };
  }
  return Object.keys(diff).length ? diff : null;
}

/** The diff of a creation: every given value as `after`. */
export function created(values: Record<string, unknown>): Record<string, FieldChange> | null {
  return diffOf({}, Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null)));
}
