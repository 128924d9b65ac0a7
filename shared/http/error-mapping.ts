import {
  ConcurrentUpdateError,
  ConflictError,
  ContentDeletedError,
  CsrfFailedError,
  DocumentsKeyDestroyedError,
  DocumentsKeyDestroyingError,
  GoneError,
  InvalidLinkError,
  NotFoundError,
  PasskeyRefusedError,
  PermissionDeniedError,
  ServiceUnavailableError,
  SigningSessionError,
  type TFieldError,
  ThrottledError,
  TooComplexError,
  ValidationError,
} from '#shared/domain/errors';
import type { TErrorCode } from './error-body';
import {
  AuthenticationFailedError,
  IdempotencyInFlightError,
  IdempotencyKeyReusedError,
  MethodNotAllowedError,
  NotAuthenticatedError,
  ParseError,
  PayloadTooLargeError,
  RouteNotFoundError,
  UnsupportedMediaTypeError,
} from './errors';

export interface THttpErrorShape {
  status: number;
  code: TErrorCode;
  message: string;
  fieldErrors: TFieldError[];
  headers: Record<string, string>;
}

type TMapped = Omit<THttpErrorShape, 'message' | 'fieldErrors'> & { fieldErrors?: TFieldError[] };

/** Error classes the service answers with on purpose (shared/domain/errors.ts, ./errors.ts). */
// biome-ignore lint/suspicious/noExplicitAny: constructors of any signature
type TErrorClass<E extends Error> = abstract new (...args: any[]) => E;

/** A class and what its errors mean on the wire; the mapper is called only on errors of that class. */
const rule = <E extends Error>(type: TErrorClass<E>, map: (e: E) => TMapped) => ({
  type: type as TErrorClass<Error>,
  map: (e: Error) => map(e as E),
});

/** What an error means on the wire: its status, code and the headers it brings. */
const wire = (status: number, code: TErrorCode, headers: Record<string, string> = {}) => ({
  status,
  code,
  headers,
});
const plain = (status: number, code: TErrorCode) => () => wire(status, code);

// Every error class the service raises on purpose, and what it means on the wire. A subclass is
// answered by its own rule (each class is listed once; none of these extends another but the
// base). Anything else is a 500 whose message never reaches the client.
const RULES = [
  rule(ValidationError, (e) => ({ ...wire(400, 'invalid'), fieldErrors: e.fieldErrors })),
  rule(ParseError, plain(400, 'parse_error')),
  rule(InvalidLinkError, plain(400, 'invalid_link')),
  rule(PasskeyRefusedError, plain(401, 'authentication_failed')),
  rule(CsrfFailedError, plain(403, 'csrf_failed')),
  rule(NotAuthenticatedError, plain(401, 'not_authenticated')),
  rule(AuthenticationFailedError, plain(401, 'authentication_failed')),
  rule(PermissionDeniedError, plain(403, 'permission_denied')),
  rule(NotFoundError, plain(404, 'not_found')),
  rule(RouteNotFoundError, plain(404, 'not_found')),
  rule(MethodNotAllowedError, (e) => wire(405, 'method_not_allowed', { Allow: e.allow.join(', ') })),
  rule(SigningSessionError, plain(401, 'authentication_failed')),
  rule(GoneError, plain(410, 'not_found')),
  rule(ContentDeletedError, plain(410, 'gone')),
  rule(DocumentsKeyDestroyedError, plain(410, 'gone')),
  rule(DocumentsKeyDestroyingError, plain(409, 'conflict')),
  rule(ConflictError, plain(409, 'conflict')),
  rule(ConcurrentUpdateError, plain(409, 'conflict')),
  rule(IdempotencyInFlightError, (e) =>
    wire(409, 'idempotency_in_flight', { 'Retry-After': String(e.retryAfterSeconds) }),
  ),
  rule(IdempotencyKeyReusedError, plain(422, 'idempotency_key_reused')),
  rule(TooComplexError, plain(422, 'too_complex')),
  rule(PayloadTooLargeError, plain(413, 'invalid')),
  rule(UnsupportedMediaTypeError, plain(415, 'unsupported_media_type')),
  rule(ServiceUnavailableError, plain(503, 'service_unavailable')),
  rule(ThrottledError, (e) => wire(429, 'throttled', { 'Retry-After': String(e.retryAfterSeconds) })),
];

export function toHttpError(err: unknown): THttpErrorShape {
  const e = err instanceof Error ? err : new Error(String(err));
  const found = RULES.find((r) => e instanceof r.type);
  if (!found) return { ...wire(500, 'error'), message: 'A server error occurred.', fieldErrors: [] };
  return { message: e.message, fieldErrors: [], ...found.map(e) };
}
