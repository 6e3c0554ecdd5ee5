import { pino, type DestinationStream, type Logger as Pino } from 'pino';

/**
 * Structured JSON logs (one object per line on stderr) through pino, which formats and writes
 * asynchronously so a log line never blocks a call on the event loop.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Field names that may carry a credential wherever they appear (two levels deep): pino replaces
 * their value before the line is written. Bodies and headers are never logged in the first
 * place; this is the second lock.
 */
export const REDACTED_PATHS = [
  'authorization', 'key', 'api_key', 'secret', 'password', 'token', 'credentials', 'headers', 'body', 'params', 'data',
  '*.authorization', '*.key', '*.api_key', '*.secret', '*.password', '*.token', '*.credentials', '*.headers', '*.body', '*.params', '*.data',
];

/** A pino logger at LOG_LEVEL writing to `destination` (default: stderr, asynchronously). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  // A silent logger opens no stream: test suites start hundreds of servers with LOG_LEVEL=silent.
  if (level === 'silent' && !destination) return wrap(pino({ enabled: false }));
  const dest = destination ?? pino.destination({ dest: 2, sync: false, minLength: 0 });
  const base = pino({
    level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  }, dest);
  return wrap(base);
}

/** Stderr written synchronously: for a last line before the process exits. */
export function syncStderr(): DestinationStream {
  return pino.destination({ dest: 2, sync: true });
}

/** Keeps the message-first call shape the gateway uses; pino takes the fields first. */
function wrap(base: Pino): Logger {
  const at = (lvl: 'debug' | 'info' | 'warn' | 'error') => (msg: string, fields?: Record<string, unknown>) => {
    if (fields) base[lvl](fields, msg);
    else base[lvl](msg);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
