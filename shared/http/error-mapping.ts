import type { TFieldError } from '../domain/errors';
import type { TErrorCode } from './error-body';

export interface THttpErrorShape {
  status: number;
  code: TErrorCode;
  message: string;
  fieldErrors: TFieldError[];
  headers: Record<string, string>;
}

type TMapper = (err: Error & Record<string, unknown>) => Omit<THttpErrorShape, 'message' | 'fieldErrors'> & {
  fieldErrors?: TFieldError[];
};

// Every error name the service raises, and what it means on the wire. Anything else is a 500
// whose message never reaches the client.
const byName: Record<string, TMapper> = {
  ValidationError: (e) => ({
    status: 400,
    code: 'invalid',
    headers: {},
    fieldErrors: (e.fieldErrors as TFieldError[] | undefined) ?? [],
  }),
  ParseError: () => ({ status: 400, code: 'parse_error', headers: {} }),
  NotAuthenticatedError: () => ({ status: 401, code: 'not_authenticated', headers: {} }),
  AuthenticationFailedError: () => ({ status: 401, code: 'authentication_failed', headers: {} }),
  PermissionDeniedError: () => ({ status: 403, code: 'permission_denied', headers: {} }),
  NotFoundError: () => ({ status: 404, code: 'not_found', headers: {} }),
  RouteNotFoundError: () => ({ status: 404, code: 'not_found', headers: {} }),
  MethodNotAllowedError: (e) => ({
    status: 405,
    code: 'method_not_allowed',
    headers: { Allow: (e.allow as string[]).join(', ') },
  }),
  SigningSessionError: () => ({ status: 401, code: 'authentication_failed', headers: {} }),
  GoneError: () => ({ status: 410, code: 'not_found', headers: {} }),
  ConflictError: () => ({ status: 409, code: 'conflict', headers: {} }),
  ConcurrentUpdateError: () => ({ status: 409, code: 'conflict', headers: {} }),
  PayloadTooLargeError: () => ({ status: 413, code: 'invalid', headers: {} }),
  UnsupportedMediaTypeError: () => ({ status: 415, code: 'unsupported_media_type', headers: {} }),
  ServiceUnavailableError: () => ({ status: 503, code: 'service_unavailable', headers: {} }),
  ThrottledError: (e) => ({
    status: 429,
    code: 'throttled',
    headers: { 'Retry-After': String(e.retryAfterSeconds) },
  }),
};

export function toHttpError(err: unknown): THttpErrorShape {
  const e = err instanceof Error ? (err as Error & Record<string, unknown>) : new Error(String(err));
  const mapper = byName[e.name];
  if (!mapper) {
    return {
      status: 500,
      code: 'error',
      message: 'A server error occurred.',
      fieldErrors: [],
      headers: {},
    };
  }
  const mapped = mapper(e as Error & Record<string, unknown>);
  return { message: e.message, fieldErrors: [], ...mapped };
}
