import type { Classification, GraphEdge, GraphRecord, Interaction, Link } from '../graph/types.ts';
import type { GraphView } from '../graph/view.ts';
import type { NewEvent } from './port-work.ts';

/**
 * The relationship graph surface of the Store port: links, one-level expansions (the walks in
 * src/domain/graph call it once per level, so both adapters give identical answers), interactions
 * and classifications. Same rules as port.ts.
 */
export interface GraphStore {
  /**
   * Writes the link, or returns the existing one with the same (from_id, to_id, type): then
   * `created` is false and no event is written. Both records must be live records of the workspace
   * (`not_found` naming `from_record_id` / `to_record_id` otherwise).
   */
  createLink(workspaceId: string, input: NewLink, events: NewEvent[]): Promise<{ link: Link; created: boolean }>;
  /**
   * The bulk path (benchmark datasets, demo data): writes many links in one transaction, skipping
   * any whose (from, to, type) exists or whose ends are not records of the workspace; no events.
   * Returns how many were written.
   */
  createLinks(workspaceId: string, inputs: readonly NewLink[]): Promise<number>;
  getLink(workspaceId: string, linkId: string): Promise<Link | null>;
  findLink(workspaceId: string, fromId: string, toId: string, type: string): Promise<Link | null>;
  /** True when a record_reference field edge from → to of this type (field slug) exists. */
  hasFieldEdge(workspaceId: string, fromId: string, toId: string, type: string): Promise<boolean>;
  /** Removes the link; `not_found` when there is none. */
  deleteLink(workspaceId: string, linkId: string, events: NewEvent[]): Promise<Link>;
  /**
   * One level of a walk, in one round trip: every edge (field or link, either direction) that
   * touches one of `recordIds` and whose two ends are live records of the workspace, and the
   * GraphRecord of every end of those edges. Self-edges are left out. Order is not specified.
   */
  expandGraph(workspaceId: string, recordIds: readonly string[]): Promise<{ edges: GraphEdge[]; records: GraphRecord[] }>;
  /**
   * Every stored edge (field or link) whose two ends are both among `recordIds`, self-edges left
   * out; order not specified. Liveness is not checked: callers pass the live records a walk returned.
   */
  edgesAmong(workspaceId: string, recordIds: readonly string[]): Promise<GraphEdge[]>;
  /**
   * The workspace's graph held in memory, for walks run synchronously over it (graph/view.ts),
   * answering exactly what expandGraph and edgesAmong answer; null when the adapter holds none or
   * cannot use it now (the walk then goes level by level through expandGraph). Its own reads fail
   * with the adapter's CrmErrors.
   */
  graphView(workspaceId: string): Promise<GraphView | null>;
  /** The GraphRecords of the live records among the ids (unknown and deleted ones are absent). */
  graphRecords(workspaceId: string, recordIds: readonly string[]): Promise<GraphRecord[]>;
  /**
   * Live notes, tasks, emails, meetings and messages attached to the records, as interactions: kind
   * `notes` at created_at, `tasks` at updated_at, and the comm kinds of COMM_INTERACTIONS at the comm's
   * `at` (an email's or message's creation, a meeting's start). A meeting's attendees with a record are
   * among its linked records, so they count for those contacts.
   */
  interactions(workspaceId: string, recordIds: readonly string[]): Promise<Interaction[]>;
  /** Ids of the workspace's live records of an object type, by id, after `after` (exclusive), at most `limit`. */
  recordIdsOf(workspaceId: string, objectSlug: string, after: string | null, limit: number): Promise<string[]>;
  /** Replaces the classifications of these contacts, with their events, in one transaction. */
  saveClassifications(workspaceId: string, items: readonly Omit<Classification, 'workspace_id'>[], events: NewEvent[]): Promise<void>;
  getClassifications(workspaceId: string, recordIds: readonly string[]): Promise<Classification[]>;
}

export interface NewLink {
  id?: string;
  from_id: string;
  to_id: string;
  type: string;
  properties: Record<string, unknown>;
  created_by: string | null;
}
