import type { APIGatewayProxyEvent } from 'aws-lambda';
import { CsrfFailedError } from '#shared/domain/errors';
import { NotAuthenticatedError } from './errors';
import { cookieHeaderOf, csrfHolds, sessionCookieOf } from './session-cookie';

/**
 * What the authorizer hands to every endpoint (API Gateway passes it as
 * requestContext.authorizer; values there are strings).
 */
export interface TAuthContext {
  accountId: string;
  userId: string;
  keyId: string;
  /** The API Gateway API key id the usage plan counts against (locally, the key id). */
  usageKeyId: string;
  /** How the caller signed in: an API key, or a console session cookie (`keyId` is then empty). */
  via: 'key' | 'session';
}

export function readAuthContext(event: APIGatewayProxyEvent): TAuthContext {
  const a = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  const accountId = a?.accountId;
  if (typeof accountId !== 'string' || accountId === '') throw new NotAuthenticatedError();
  const via = a?.via === 'session' ? 'session' : 'key';
  // The authorizer checked the session; a change made with it must also carry its CSRF token.
  if (
    via === 'session' &&
    !csrfHolds(
      event.httpMethod ?? 'GET',
      sessionCookieOf(cookieHeaderOf(event.headers)),
      Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === 'x-csrf-token')?.[1],
    )
  )
    throw new CsrfFailedError();
  return {
    via,
    accountId,
    userId: String(a?.userId ?? ''),
    keyId: String(a?.keyId ?? ''),
    usageKeyId: String(a?.usageKeyId ?? a?.keyId ?? ''),
  };
}
