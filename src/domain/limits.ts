/**
 * Defaults and bounds the spec leaves open. One place, read by zod, GraphQL and services.
 * Every string, key and nesting level a caller controls has a bound here, so that no single
 * call can make the server do unbounded work (see docs/hardening.md).
 */
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
  /**
   * Relations a record answer carries (records.get, `Record.relations`): a company with 20,000
   * contacts answered 3.6 MB, and thirty aliases of it on /graphql 107 MB. `relations_total`
   * counts them all; records.list on a reference field, or graph.query, reads the rest.
   */
  relationsMax: 1000,
  /** Largest request body the gateway reads, in bytes (`BODY_LIMIT_BYTES` overrides it). */
  bodyMaxBytes: 1_048_576,

  /** A slug (object type, field): `^[a-z][a-z0-9_]{0,62}$`. */
  slugMaxLength: 63,
  /** Ids (`rec_…`, `lst_…`, user ids): ours are 30 characters; 100 leaves room for imports. */
  idMaxLength: 100,
  /** Display names and titles. */
  nameMaxLength: 100,
  /** Short enum-like strings: kinds, statuses, operators, sort fields, dates, currency codes. */
  tokenMaxLength: 64,
  /** Tool names (`<category>.<action>`), on the bridge and in MCP `tools/call`. */
  toolNameMaxLength: 64,
  /** A key of `data`, `filters` or any other field map: a field slug or an operator. */
  fieldKeyMaxLength: 64,
  /** Any object key anywhere in a tool's parameters, whatever the tool. */
  keyMaxLength: 128,
  /** Any string anywhere in a tool's parameters (a note body is the longest text we take). */
  stringMaxLength: 100_000,
  /** Objects and arrays nested deeper than this in a tool's parameters are refused. */
  nestingMaxDepth: 32,
  /** "Did you mean" compares only names up to this length; no valid name is longer. */
  suggestInputMaxLength: 64,

  /** `/graphql` operation bounds (checked before execution; each is a 400 validation_error). */
  graphql: Object.freeze({
    maxTokens: 2_000,
    maxDepth: 10,
    maxAliases: 30,
    maxDirectives: 20,
    /**
     * Cost: 1 per field, and a field's selection counts once per item it may return, taken from
     * its `page_size` or `limit` argument (the default when absent). Graph fields (`graph`, `path`,
     * `Record.neighbors`, `classifyContacts`) also count one per item per level they walk.
     */
    maxCost: 20_000,
  }),
});

/**
 * Keys that name or reach an object's prototype. They are never fields or parameters, and a
 * copier that assigns them (`o[k] = v`) would replace a prototype instead of setting a key.
 */
export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
