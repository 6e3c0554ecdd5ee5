import { CrmError, ERROR_TABLE, isCrmError } from '../src/domain/errors.ts';
import type { Logger } from './logger.ts';

/** Any failure as a CrmError; unexpected ones are logged here and shown only as internal_error. */
export function asCrmError(err: unknown, logger: Logger): CrmError {
  if (isCrmError(err)) {
    if (err.code === 'internal_error') logger.error('internal error', { error: describe(err.cause ?? err) });
    return err;
  }
  const status = (err as { status?: number; expose?: boolean }).status;
  if (status === 413) return new CrmError('payload_too_large', 'the request body is too large');
  logger.error('internal error', { error: describe(err) });
  return new CrmError('internal_error', 'internal error; the incident was logged');
}

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

/** Shape A (per-tool REST, plain bridge): `{error, code}` plus details when there are any. */
export function shapeA(err: CrmError): Record<string, unknown> {
  return { error: err.message, code: err.code, ...(err.details ? { details: err.details } : {}) };
}

/** Shape B (envelope bridge): `{success: false, error: {code: UPPER, message}}`. */
export function shapeB(err: CrmError): Record<string, unknown> {
  return {
    success: false,
    error: { code: ERROR_TABLE[err.code].upper, message: err.message, ...(err.details ? { details: err.details } : {}) },
  };
}
