import { CrmError } from '../../domain/errors.ts';

/** What a failing call was doing, so a driver error can be told in the caller's terms. */
export interface ErrorContext {
  /** The server address, named in `unavailable` messages (credentials stripped). */
  uri: string;
  database: string;
  /**
   * The conflict to report when a uniqueness constraint fires. Given the driver's message, which
   * names the offending property values, so a write with several claims can name the right one.
   */
  conflict?: (driverMessage: string) => CrmError;
}

const CONSTRAINT_FAILED = 'Neo.ClientError.Schema.ConstraintValidationFailed';
const UNREACHABLE_CODES = new Set(['ServiceUnavailable', 'SessionExpired', 'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EAI_AGAIN']);

/** The address without user info, safe for messages and logs. */
export function displayUri(uri: string): string {
  return uri.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1');
}

/** The driver's (or Node's) error code, or ''. */
export function codeOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : '';
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').slice(0, 200);
}

/**
 * The one translation of driver failures into CrmError: a uniqueness constraint becomes
 * `conflict`; an unreachable server, a lost session, refused credentials or a missing database
 * become `unavailable` naming the address (the driver error rides along as `cause`, for logs
 * only). CrmErrors pass through; anything else is returned unchanged, to surface as
 * `internal_error` (logged, never shown).
 */
export function translateNeo4jError(error: unknown, ctx: ErrorContext): unknown {
  if (error instanceof CrmError) return error;
  const code = codeOf(error);
  const where = `The Neo4j store at ${displayUri(ctx.uri)}`;
  const unavailable = (message: string): CrmError =>
    new CrmError('unavailable', message, { store: 'neo4j', uri: displayUri(ctx.uri) }, { cause: error });
  if (code === CONSTRAINT_FAILED) {
    return ctx.conflict ? ctx.conflict(firstLine(error)) : new CrmError('conflict', 'The value is already taken', { rule: 'unique' });
  }
  if (UNREACHABLE_CODES.has(code) || /ECONNREFUSED|ENOTFOUND|Failed to connect/i.test(firstLine(error))) {
    return unavailable(`${where} cannot be reached; check NEO4J_URI and that the server is running`);
  }
  if (code === 'Neo.ClientError.Security.Unauthorized' || code === 'Neo.ClientError.Security.AuthenticationRateLimit') {
    return unavailable(`${where} refused the credentials; check NEO4J_USER and NEO4J_PASSWORD`);
  }
  if (code === 'Neo.ClientError.Database.DatabaseNotFound') {
    return unavailable(`${where} has no database ${JSON.stringify(ctx.database)}; check NEO4J_DATABASE`);
  }
  if (code.startsWith('Neo.TransientError.')) {
    return unavailable(`${where} is busy (${code}); try again shortly`);
  }
  return error;
}
