import type { CrmList, EventAction, FieldChange, ResourceType, StoredRecord, TimelineEvent } from '../../../src/domain/types.ts';
import type { NewEvent, NewList } from '../../../src/domain/store/port.ts';
import { newRecord, type Harness } from './harness.ts';

/** Helpers for the work surface cases: lists, entries, notes, tasks and the timeline. */

/** A timeline event as the domain builds it, from a conformance tool over REST. */
export function ev(
  action: EventAction, resourceType: ResourceType, resourceId: string, recordIds: string[] = [],
  diff: Record<string, FieldChange> | null = null,
): NewEvent {
  return {
    actor_id: null, key_id: null, via: 'rest', tool: `conformance.${action}`, action,
    resource_type: resourceType, resource_id: resourceId, record_ids: recordIds, diff,
  };
}

/** A pipeline of deals: a stage (status), a score (number) and labels (multi_select). */
export const PIPELINE: NewList = {
  object_type_slug: 'deals',
  name: 'Pipeline',
  description: 'Deals we work on',
  created_by: null,
  fields: [
    { slug: 'stage', name: 'Stage', type: 'status', config: { options: ['lead', 'qualified', 'won'] } },
    { slug: 'score', name: 'Score', type: 'number' },
    { slug: 'labels', name: 'Labels', type: 'multi_select', config: { options: ['hot', 'cold'] } },
  ],
};

export async function pipeline(h: Harness, workspaceId: string, extra: Partial<NewList> = {}): Promise<CrmList> {
  return h.store.createList(workspaceId, { ...structuredClone(PIPELINE), ...extra }, []);
}

/** Deals with the given names, created one after another. */
export async function deals(h: Harness, workspaceId: string, ...names: string[]): Promise<StoredRecord[]> {
  const out: StoredRecord[] = [];
  for (const name of names) out.push(await h.store.createRecord(workspaceId, newRecord('deals', { name })));
  return out;
}

/** The whole timeline of the workspace (or of one record), newest first. */
export async function timeline(h: Harness, workspaceId: string, recordId?: string): Promise<TimelineEvent[]> {
  return (await h.store.listEvents(workspaceId, { ...(recordId ? { record_id: recordId } : {}), offset: 0, limit: 100 })).items;
}

/** `action resource_type` of each event, newest first. */
export const actions = (events: readonly TimelineEvent[]): string[] => events.map((e) => `${e.action} ${e.resource_type}`);

/** A valid event id shape that sorts before every real one. */
export const EVENT_ZERO = 'evt_00000000000000000000000000';
