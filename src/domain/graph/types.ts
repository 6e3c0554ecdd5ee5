/**
 * The relationship graph's vocabulary: links (typed, directed edges made by graph.link), the edges
 * and nodes a walk sees, and contact classifications.
 */

/** A typed, directed edge between two records made with graph.link; `properties` is free JSON. */
export interface Link {
  id: string;
  workspace_id: string;
  from_id: string;
  to_id: string;
  type: string;
  properties: Record<string, unknown>;
  created_by: string | null;
  created_at: string;
}

/** Where an edge comes from: a record_reference field (type = the field slug) or a link. */
export type EdgeOrigin = 'field' | 'link';

/** One stored edge between two live records, as a walk sees it (direction kept). */
export interface GraphEdge {
  source: string;
  target: string;
  type: string;
  origin: EdgeOrigin;
}

export const CATEGORIES = ['customer', 'prospect', 'partner', 'investor', 'vendor', 'other'] as const;
export type Category = (typeof CATEGORIES)[number];

export const STRENGTHS = ['strong', 'warm', 'weak', 'cold'] as const;
export type Strength = (typeof STRENGTHS)[number];

/** What a walk needs of a record it reaches: its type and, for contacts, the persisted classification. */
export interface GraphRecord {
  id: string;
  object_type_slug: string;
  category: Category | null;
  strength: Strength | null;
}

/** One signal of a classification: its measured value and how many points it added. */
export interface Reason {
  signal: string;
  value: number;
  contribution: number;
  detail?: string;
}

/** A contact's persisted classification. */
export interface Classification {
  record_id: string;
  workspace_id: string;
  category: Category;
  strength: Strength;
  score: number;
  reasons: Reason[];
  classified_at: string;
}

/** One interaction with a record: a note, task, email, meeting or message attached to it. */
export interface Interaction {
  record_id: string;
  /** The interaction kind, e.g. `notes`, `emails` (see INTERACTION_KINDS). */
  kind: string;
  at: string;
}
