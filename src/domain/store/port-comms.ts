import type { CallStyle, TimelineEvent } from '../types.ts';
import type { NewEvent } from './port-work.ts';

/**
 * Communications of a workspace: emails, messages, meetings, support tickets, integrations and
 * webhook deliveries. They share one shape (`Comm`): a kind, a status, a JSON body of kind-specific
 * values, the records they concern, and a delivery schedule (`attempts`, `next_attempt_at`) that the
 * in-process workers read, so queued work survives a restart.
 */
export const COMM_KINDS = ['email', 'message', 'meeting', 'ticket', 'integration', 'delivery'] as const;
export type CommKind = (typeof COMM_KINDS)[number];

export interface Comm {
  id: string;
  workspace_id: string;
  kind: CommKind;
  status: string;
  /** What the kind is filtered by: a message's channel, an integration's provider, a delivery's integration id. */
  tag: string | null;
  /** A message's thread. */
  thread_id: string | null;
  /** When it happens: a meeting's start; for every other kind its creation time. Lists sort by it. */
  at: string;
  /** Kind-specific values (an email's subject and body, an integration's config with encrypted secrets, …). */
  data: Record<string, unknown>;
  record_ids: string[];
  attempts: number;
  /** When a worker should next try to deliver it; null when there is nothing to do. */
  next_attempt_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type NewComm = Pick<Comm, 'kind' | 'status' | 'tag' | 'thread_id' | 'at' | 'data' | 'record_ids' | 'next_attempt_at' | 'created_by'>
  & { id?: string };

/** Keys given replace values; `data` replaces the whole body. */
export type CommPatch = Partial<Pick<Comm, 'status' | 'data' | 'attempts' | 'next_attempt_at' | 'deleted_at'>>;

export interface CommQuery {
  kind: CommKind;
  status?: string[];
  tag?: string;
  thread_id?: string;
  record_id?: string;
  /** Inclusive bounds on `at`. */
  from?: string;
  to?: string;
  /** Oldest first when true; newest first (the default) otherwise. Ties break by id. */
  ascending?: boolean;
  offset: number;
  limit: number;
}

/** Calls counted for one workspace, period (the month, `2026-11`) and call style. */
export interface UsageCount {
  workspace_id: string;
  period: string;
  style: CallStyle;
  count: number;
}

export interface CommsStore {
  /** Links must be live records of the workspace (`not_found` naming `record_ids[<i>]`). */
  createComm(workspaceId: string, input: NewComm, events: NewEvent[]): Promise<Comm>;
  /** The item of that kind, deleted ones included (the caller decides). */
  getComm(workspaceId: string, kind: CommKind, id: string): Promise<Comm | null>;
  /** Live items matching every given criterion, ordered by `at` then id. */
  listComms(workspaceId: string, query: CommQuery): Promise<{ items: Comm[]; total: number }>;
  /** `not_found` for an unknown item. */
  updateComm(workspaceId: string, kind: CommKind, id: string, patch: CommPatch, events?: NewEvent[]): Promise<Comm>;
  /**
   * Work due in every workspace: live items of the kind with a status among `statuses` and
   * `next_attempt_at <= now`. Workspaces take turns: the oldest due item of each workspace, the
   * oldest of those first, then the second oldest of each, and so on, so one workspace's backlog
   * never holds another's behind it. Each returned item is claimed by moving its
   * `next_attempt_at` to `leaseUntil` in the same transaction, so two workers never take one item.
   */
  claimDueComms(kind: CommKind, statuses: readonly string[], now: string, leaseUntil: string, limit: number): Promise<Comm[]>;
  /** Live items of the kind and status in every workspace (the dispatcher's webhook connections). */
  listCommsEverywhere(kind: CommKind, status: string, tag: string): Promise<Comm[]>;
  /** Timeline events after the cursor (an event id, '' for all), oldest first. */
  eventsAfter(workspaceId: string, cursor: string, limit: number): Promise<TimelineEvent[]>;
  /**
   * In one transaction: creates the deliveries and moves the integration's `data.cursor` to
   * `cursor`, so an event is turned into deliveries exactly once, even across restarts.
   */
  recordDispatch(workspaceId: string, integrationId: string, cursor: string, deliveries: NewComm[]): Promise<void>;
  /** Adds the counts to the stored ones (additive, so every replica may flush its own). */
  addUsage(counts: readonly UsageCount[]): Promise<void>;
  /** The calls by style counted for the workspace in the period. */
  getUsage(workspaceId: string, period: string): Promise<Partial<Record<CallStyle, number>>>;
}
