/** Defaults and bounds the spec leaves open (DESIGN.md §4). One place, read by zod, GraphQL and services. */
export const LIMITS = Object.freeze({
  pageSizeDefault: 25,
  pageSizeMax: 100,
  /** A page past this would scan more rows than any UI needs; use filters instead. */
  pageMax: 100_000,
  searchQueryMaxLength: 200,
  bulkEntriesMax: 100,
  graphDepthDefault: 2,
  graphDepthMax: 4,
  graphLimitDefault: 100,
  graphLimitMax: 1000,
  /** Largest request body the gateway reads, in bytes. */
  bodyMaxBytes: 1_048_576,
});
