// Domain errors carry a name and what the caller needs to fix; the HTTP status and wire code
// for each name are decided in one place, shared/http/error-mapping.ts.

export interface TFieldError {
  field: string;
  message: string;
}

export class NotFoundError extends Error {
  override name = 'NotFoundError';
  constructor(message = 'Not found.') {
    super(message);
  }
}

export class ValidationError extends Error {
  override name = 'ValidationError';
  constructor(
    message: string,
    readonly fieldErrors: TFieldError[] = [],
  ) {
    super(message);
  }
}

export class ConflictError extends Error {
  override name = 'ConflictError';
}

export class PermissionDeniedError extends Error {
  override name = 'PermissionDeniedError';
  constructor(message = 'You do not have permission to perform this action.') {
    super(message);
  }
}

export class ThrottledError extends Error {
  override name = 'ThrottledError';
  constructor(
    readonly retryAfterSeconds: number,
    message = 'Request was throttled.',
  ) {
    super(message);
  }
}

/** An optimistic-concurrency write lost a race; use cases retry on it, HTTP maps it to 409. */
export class ConcurrentUpdateError extends Error {
  override name = 'ConcurrentUpdateError';
  constructor(message = 'The resource was changed by another request; try again.') {
    super(message);
  }
}

/** A single-use link that was used already. */
export class GoneError extends Error {
  override name = 'GoneError';
}

/** A signer's session that is missing, unknown or expired: the page must be opened again. */
export class SigningSessionError extends Error {
  override name = 'SigningSessionError';
  constructor(message = 'Your signing session has ended. Open your signing link again.') {
    super(message);
  }
}

/**
 * Something the operator must set up is missing or broken (e.g. the payment processor's keys):
 * 503, so that callers (and Stripe's webhook deliveries) retry once it is fixed.
 */
export class ServiceUnavailableError extends Error {
  override name = 'ServiceUnavailableError';
}
