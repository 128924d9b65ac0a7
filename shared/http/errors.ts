// Errors that only the HTTP layer raises (the request itself is malformed, not the domain).

export class ParseError extends Error {
  override name = 'ParseError';
}

export class UnsupportedMediaTypeError extends Error {
  override name = 'UnsupportedMediaTypeError';
}

export class PayloadTooLargeError extends Error {
  override name = 'PayloadTooLargeError';
}

export class RouteNotFoundError extends Error {
  override name = 'RouteNotFoundError';
  constructor() {
    super('Not found.');
  }
}

export class MethodNotAllowedError extends Error {
  override name = 'MethodNotAllowedError';
  constructor(
    readonly method: string,
    readonly allow: string[],
  ) {
    super(`Method "${method}" not allowed.`);
  }
}

export class NotAuthenticatedError extends Error {
  override name = 'NotAuthenticatedError';
  constructor() {
    super('Authentication credentials were not provided.');
  }
}

export class AuthenticationFailedError extends Error {
  override name = 'AuthenticationFailedError';
  constructor() {
    super('Invalid token.');
  }
}
