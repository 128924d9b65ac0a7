// Errors that only the HTTP layer raises (the request itself is malformed, not the domain),
// members of the service's error family (shared/domain/errors.ts).
import { ServiceError } from '#shared/domain/errors';

export class ParseError extends ServiceError {
  override name = 'ParseError';
}

export class UnsupportedMediaTypeError extends ServiceError {
  override name = 'UnsupportedMediaTypeError';
}

export class PayloadTooLargeError extends ServiceError {
  override name = 'PayloadTooLargeError';
}

export class RouteNotFoundError extends ServiceError {
  override name = 'RouteNotFoundError';
  constructor() {
    super('Not found.');
  }
}

export class MethodNotAllowedError extends ServiceError {
  override name = 'MethodNotAllowedError';
  constructor(
    readonly method: string,
    readonly allow: string[],
  ) {
    super(`Method "${method}" not allowed.`);
  }
}

export class NotAuthenticatedError extends ServiceError {
  override name = 'NotAuthenticatedError';
  constructor() {
    super('Authentication credentials were not provided.');
  }
}

export class AuthenticationFailedError extends ServiceError {
  override name = 'AuthenticationFailedError';
  constructor() {
    super('Invalid token.');
  }
}

/** An Idempotency-Key sent again with another request (another method, path or body). */
export class IdempotencyKeyReusedError extends ServiceError {
  override name = 'IdempotencyKeyReusedError';
  constructor() {
    super(
      'This Idempotency-Key was used with a different request (method, path or body) in the last 24 hours. Send a new key for a new request, or resend the first request exactly as it was to get its answer again.',
    );
  }
}

/** The request that first sent this Idempotency-Key is still at work. */
export class IdempotencyInFlightError extends ServiceError {
  override name = 'IdempotencyInFlightError';
  constructor(readonly retryAfterSeconds: number) {
    super(
      'A request with this Idempotency-Key is still being processed. Retry after a moment with the same key and body to get its answer.',
    );
  }
}
