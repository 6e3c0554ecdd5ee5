import { LIMITS } from '../limits.ts';

/** The bounds of the graph tools, enforced in the domain (and described in the tool schemas). */
export const GRAPH_LIMITS = {
  depthDefault: LIMITS.graphDepthDefault,
  depthMax: LIMITS.graphDepthMax,
  limitDefault: LIMITS.graphLimitDefault,
  limitMax: LIMITS.graphLimitMax,
  pathDepthDefault: 4,
  pathDepthMax: 6,
  pathLimitDefault: 3,
  pathLimitMax: 10,
  classifyMax: 100,
  /** Bytes of a link's properties as JSON. */
  propertiesMaxBytes: 10_000,
  /** Entries of a comma-separated `types` / `categories` list. */
  filterMax: 50,
} as const;

/** Link types: snake_case, starting with a letter, at most 40 characters. */
export const LINK_TYPE = /^[a-z][a-z0-9_]{0,39}$/;
