/**
 * The closed list of error codes (README.md lists them with their statuses) and the one error
 * type every layer throws.
 * Each edge (REST, bridge, MCP, GraphQL) renders a CrmError through ERROR_TABLE; anything that
 * is not a CrmError is an internal_error whose details are logged, never shown.
 */

export const ERROR_CODES = [
  /** Invalid parameters: the message names the parameter and the rule it broke. */
  'validation_error',
  /** Missing, malformed, unknown or revoked API key. */
  'unauthorized',
  /** The key's scopes or the user's role do not allow the call. */
  'permission_denied',
  /** The workspace's trial has ended and no plan is active. */
  'subscription_required',
  /** The resource does not exist in the caller's workspace (or was deleted). */
  'not_found',
  /** The tool name is not in the catalog. */
  'tool_not_found',
  /** A unique value is taken, or an idempotency key was reused with other parameters. */
  'conflict',
  /** The request body is larger than the gateway accepts. */
  'payload_too_large',
  /** The key has used its calls for the current window. */
  'rate_limited',
  /** An unexpected failure; the message never carries internals. */
  'internal_error',
  /** The store (or another dependency) cannot be reached. */
  'unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** How MCP carries a failure: as a tool result with isError, as a JSON-RPC error, or as plain HTTP. */
export type McpTreatment = 'tool_result' | 'jsonrpc' | 'http';

export interface ErrorTraits {
  status: number;
  /** The upper-case form used by the bridge's envelope shape (shape B). */
  upper: string;
  mcp: McpTreatment;
}

export const ERROR_TABLE: { readonly [C in ErrorCode]: ErrorTraits } = Object.freeze({
  validation_error: { status: 400, upper: 'VALIDATION_ERROR', mcp: 'tool_result' },
  unauthorized: { status: 401, upper: 'UNAUTHORIZED', mcp: 'http' },
  permission_denied: { status: 403, upper: 'PERMISSION_DENIED', mcp: 'tool_result' },
  subscription_required: { status: 403, upper: 'SUBSCRIPTION_REQUIRED', mcp: 'tool_result' },
  not_found: { status: 404, upper: 'NOT_FOUND', mcp: 'tool_result' },
  tool_not_found: { status: 404, upper: 'TOOL_NOT_FOUND', mcp: 'jsonrpc' },
  conflict: { status: 409, upper: 'CONFLICT', mcp: 'tool_result' },
  payload_too_large: { status: 413, upper: 'PAYLOAD_TOO_LARGE', mcp: 'http' },
  rate_limited: { status: 429, upper: 'RATE_LIMITED', mcp: 'http' },
  internal_error: { status: 500, upper: 'INTERNAL_ERROR', mcp: 'tool_result' },
  unavailable: { status: 503, upper: 'UNAVAILABLE', mcp: 'tool_result' },
});

/** Machine-readable context an agent can act on. `param` is a dotted path such as `data.email`. */
export interface ErrorDetails {
  param?: string;
  rule?: string;
  allowed?: readonly unknown[];
  suggestion?: string;
  [key: string]: unknown;
}

export class CrmError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;

  /**
   * `cause` is for logs only; renderers never show it. The message and the top-level strings of
   * `details` are cut to a bound, so an answer never echoes a caller's huge value back (an id of
   * 90,000 characters sent where no schema bounded it came back twice in a not_found).
   */
  constructor(code: ErrorCode, message: string, details?: ErrorDetails, options?: { cause?: unknown }) {
    super(cut(message, MESSAGE_MAX), options);
    this.name = 'CrmError';
    this.code = code;
    this.details = details && boundedDetails(details);
  }

  get status(): number {
    return ERROR_TABLE[this.code].status;
  }

  toJSON(): { code: ErrorCode; message: string; details?: ErrorDetails } {
    return this.details ? { code: this.code, message: this.message, details: this.details } : { code: this.code, message: this.message };
  }
}

/** The longest message an error carries, and the longest string at the top of its details. */
const MESSAGE_MAX = 4_000;
const DETAIL_MAX = 300;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

function boundedDetails(details: ErrorDetails): ErrorDetails {
  let out: ErrorDetails | undefined;
  for (const [key, value] of Object.entries(details)) {
    if (typeof value === 'string' && value.length > DETAIL_MAX) (out ??= { ...details })[key] = cut(value, DETAIL_MAX);
  }
  return out ?? details;
}

export function isCrmError(value: unknown): value is CrmError {
  return value instanceof CrmError;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** Shorthand for the most common failure: a named parameter broke a named rule. */
export function validationError(param: string, message: string, details: Omit<ErrorDetails, 'param'> = {}): CrmError {
  return new CrmError('validation_error', message, { param, ...details });
}

export function notFound(kind: string, id: string): CrmError {
  return new CrmError('not_found', `${kind} ${JSON.stringify(id)} was not found`, { resource: kind, id });
}

/**
 * An object type that live lists or views still name by its slug: deleted, it would leave them to
 * serve whichever new type takes the slug. The store checks this in the deleting transaction.
 */
export function objectTypeInUse(slug: string, lists: number, views: number): CrmError {
  return new CrmError('conflict', `object type "${slug}" still has ${lists} list(s) and ${views} view(s); delete them first`, { param: 'slug', lists, views });
}

/** A list that live views still name; checked by the store in the deleting transaction. */
export function listInUse(listId: string, views: number): CrmError {
  return new CrmError('conflict', `list ${listId} still has ${views} view(s); delete them first`, { param: 'list_id', views });
}

/**
 * A deleted record whose object type was deleted after it: the type that now has its slug is
 * another one, whose lists and search would never show the record, so it is not restored there.
 */
export function recordTypeDeleted(recordId: string, slug: string): CrmError {
  return new CrmError('not_found', `record ${JSON.stringify(recordId)} belonged to an object type "${slug}" that was deleted; it cannot be restored`, {
    resource: 'object type', id: slug, record_id: recordId,
  });
}

/**
 * A write that was to apply to a row as the caller read it, refused because another write to the
 * row came between (its updated_at moved): the caller reads it again and redoes its change.
 */
export function changedMeanwhile(kind: string, id: string): CrmError {
  return new CrmError('conflict', `${kind} ${JSON.stringify(id)} was changed by other calls while this change was being applied; send it again`, {
    resource: kind, id, rule: 'changed_meanwhile',
  });
}

export function isChangedMeanwhile(error: unknown): boolean {
  return isCrmError(error) && error.code === 'conflict' && error.details?.rule === 'changed_meanwhile';
}

/** Exhaustiveness guard for switches over closed unions. */
export function unreachable(value: never): never {
  throw new Error(`unreachable: ${JSON.stringify(value)}`);
}
