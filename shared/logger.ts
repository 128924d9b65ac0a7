// The logging port and the rules every log line passes through: secrets never reach a log (any
// field whose name looks like a credential is masked, however deep it sits), nor do link tokens
// in paths. The logger itself is Powertools' (shared/adapters/telemetry/logger.ts).

export type TLogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const secretName = /authorization|token|secret|password|api[-_]?key|^key$|signature|cookie/i;

export interface TLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): TLogger;
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error)
    return {
      name: value.name,
      message: value.message,
      stack: value.stack,
      ...(value.cause !== undefined ? { cause: redact(value.cause, depth + 1) } : {}),
    };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = secretName.test(k) ? '[redacted]' : redact(v, depth + 1);
  }
  return out;
}

/**
 * A request path as it may be logged: a segment that is a link token (signing and preparation
 * links carry 43 base62 characters in the path, and whoever holds one may use it) is masked. Ids
 * (slugs, uuids) are shorter or have dashes and stay, so a log still says what was asked for.
 */
export function loggablePath(path: string | undefined): string | undefined {
  return path?.replace(/(^|\/)[0-9A-Za-z]{32,}(?=\/|$)/g, '$1[token]');
}
