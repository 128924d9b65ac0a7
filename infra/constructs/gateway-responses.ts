// API Gateway's own answers (before any handler runs: no key, a bad key, throttled, no such
// path), rewritten into the API's error body so clients read one shape whoever answered.
import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { errorBody, type TErrorCode } from '#shared/http/error-body';

/**
 * Retry-After for API Gateway's own 429s, which cannot compute a value per request.
 * - throttled: the token bucket refills throttleRatePerSecond (≥ 1) tokens a second, so one
 *   second always frees a request.
 * - quota exceeded: the daily quota resets at 00:00 UTC, up to a day away; an hour keeps clients
 *   from hammering a closed door while still noticing the reset soon after it happens.
 */
export const RETRY_AFTER_SECONDS = { throttled: 1, quotaExceeded: 3600 } as const;

/** API Gateway's own answers (before any handler runs), rewritten into the API's error body. */
const GATEWAY_ERRORS: ReadonlyArray<{
  type: ResponseType;
  /** Absent: keep the status API Gateway chose (the DEFAULT_* families span several). */
  status?: string;
  code: TErrorCode;
  /** Absent: API Gateway's own message, which says what went wrong without internals. */
  message?: string;
  headers?: Record<string, string>;
}> = [
  {
    // No Authorization header: API Gateway answers before calling the authorizer.
    type: ResponseType.UNAUTHORIZED,
    status: '401',
    code: 'not_authenticated',
    message: 'Authentication credentials were not provided.',
    headers: { 'WWW-Authenticate': 'Token' },
  },
  {
    // The authorizer returned a Deny policy: the key is unknown or revoked.
    type: ResponseType.ACCESS_DENIED,
    status: '401',
    code: 'authentication_failed',
    message: 'Invalid token.',
    headers: { 'WWW-Authenticate': 'Token' },
  },
  {
    // The authorizer's usageIdentifierKey is not an API key of the usage plan.
    type: ResponseType.INVALID_API_KEY,
    status: '401',
    code: 'authentication_failed',
    message: 'Invalid token.',
    headers: { 'WWW-Authenticate': 'Token' },
  },
  {
    type: ResponseType.THROTTLED,
    status: '429',
    code: 'throttled',
    message: 'Request was throttled.',
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS.throttled) },
  },
  {
    type: ResponseType.QUOTA_EXCEEDED,
    status: '429',
    code: 'throttled',
    message: 'Request was throttled: the daily request quota is used up.',
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS.quotaExceeded) },
  },
  {
    // What API Gateway answers for a path (or method) no resource matches.
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    status: '404',
    code: 'not_found',
    message: 'Not found.',
  },
  { type: ResponseType.REQUEST_TOO_LARGE, status: '413', code: 'invalid', message: 'Request is too large.' },
  // Integration failures and timeouts (502, 504) as well as authorizer errors (500).
  { type: ResponseType.DEFAULT_5XX, code: 'error', message: 'A server error occurred.' },
  { type: ResponseType.DEFAULT_4XX, code: 'error' },
];

const MESSAGE_SLOT = '\u0000message\u0000';

/**
 * The handlers' error body (shared/http/error-body.ts) as a gateway response template. Without a
 * message, API Gateway's own goes in: `$context.error.messageString` is already a quoted JSON string.
 */
export function gatewayErrorTemplate(code: TErrorCode, message?: string): string {
  if (message !== undefined) return JSON.stringify(errorBody(code, message));
  return JSON.stringify(errorBody(code, MESSAGE_SLOT)).replaceAll(
    JSON.stringify(MESSAGE_SLOT),
    '$context.error.messageString',
  );
}

/** Adds every response of GATEWAY_ERRORS to the API. */
export function addGatewayResponses(api: RestApi): void {
  for (const error of GATEWAY_ERRORS) {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...error.headers };
    api.addGatewayResponse(`Gateway${error.type.responseType}`, {
      type: error.type,
      ...(error.status ? { statusCode: error.status } : {}),
      // Gateway response header values are mapping expressions: literals go in single quotes.
      responseHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, `'${v}'`])),
      templates: { 'application/json': gatewayErrorTemplate(error.code, error.message) },
    });
  }
}
