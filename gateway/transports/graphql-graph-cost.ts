import type { ComplexityEstimator } from 'graphql-query-complexity';
import { GRAPH_LIMITS as L } from '../../src/domain/graph/limits.ts';

/** A whole number argument, or the default when absent; clamped to the tool's range (the service refuses what is out of it). */
const arg = (args: Record<string, unknown>, name: string, fallback: number, max: number): number => {
  const value = args[name];
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(1, Math.trunc(value))) : fallback;
};

/**
 * What one graph field may cost: how many items it may answer, and how many levels it walks to
 * find them. Each item costs its selection plus one per level, so a deeper walk costs more even
 * for the same answer size, and a graph field inside a list (a page of records, each with its
 * `neighbors`) is multiplied by that list's size like any other selection.
 */
const GRAPH_FIELDS: Readonly<Record<string, (args: Record<string, unknown>) => { items: number; levels: number }>> = {
  'Query.graph': (a) => ({ items: arg(a, 'limit', L.limitDefault, L.limitMax), levels: arg(a, 'depth', L.depthDefault, L.depthMax) }),
  // A neighbour walk answers at most the default limit plus one (the root is left out) and walks 1 level by default.
  'Record.neighbors': (a) => ({ items: L.limitDefault + 1, levels: arg(a, 'depth', 1, L.depthMax) }),
  // Each path holds up to max_depth + 1 nodes.
  'Query.path': (a) => {
    const depth = arg(a, 'max_depth', L.pathDepthDefault, L.pathDepthMax);
    return { items: arg(a, 'limit', L.pathLimitDefault, L.pathLimitMax) * (depth + 1), levels: depth };
  },
  // A contact's facts come from two levels: its company, then the company's deals and links.
  'Mutation.classifyContacts': (a) => ({ items: Array.isArray(a.record_ids) ? Math.min(a.record_ids.length, L.classifyMax) : L.classifyMax, levels: 2 }),
};

/** The cost of the graph fields above (other fields fall through to the next estimator). */
export const graphFieldEstimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  const size = GRAPH_FIELDS[`${type.name}.${field.name}`];
  if (!size) return undefined;
  const { items, levels } = size(args);
  return 1 + items * (childComplexity + levels);
};
