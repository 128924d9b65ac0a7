// Errors that only the HTTP layer raises (the request itself is malformed, not the domain),
// members of the service's error family (shared/domain/errors.ts).
import { ServiceError } from '../domain/errors';

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
