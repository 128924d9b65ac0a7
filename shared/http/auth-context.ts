import type { APIGatewayProxyEvent } from 'aws-lambda';
import { NotAuthenticatedError } from './errors';

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
}

export function readAuthContext(event: APIGatewayProxyEvent): TAuthContext {
  const a = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  const accountId = a?.accountId;
  if (typeof accountId !== 'string' || accountId === '') throw new NotAuthenticatedError();
  return {
    accountId,
    userId: String(a?.userId ?? ''),
    keyId: String(a?.keyId ?? ''),
    usageKeyId: String(a?.usageKeyId ?? a?.keyId ?? ''),
  };
}
