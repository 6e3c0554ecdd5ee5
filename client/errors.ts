import { ERROR_TABLE } from '../src/domain/errors.ts';

/** The one error a CrmClient call throws, whichever call style carried the failure. */
export class CrmClientError extends Error {
  /** The service's error code (`validation_error`, `rate_limited`, …; `jsonrpc` for a protocol error without one). */
  readonly code: string;
  /** The HTTP status the failure maps to (for MCP tool errors, the status of the code). */
  readonly status: number;
  /** Machine-readable context such as `param`, or `undefined`. */
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, status: number, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'CrmClientError';
    this.code = code;
    this.status = status;
    this.details = details;
  }
}

/** The HTTP status of a service error code, for failures (MCP tool results) that carry no status. */
export function statusOfCode(code: string): number {
  return (ERROR_TABLE as Record<string, { status: number } | undefined>)[code]?.status ?? 500;
}
