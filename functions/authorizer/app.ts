import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { createDocumentClient } from '#shared/adapters/aws/clients';
import { createApiKeyStore } from '#shared/adapters/dynamodb/api-key-store';
import { createConsoleStore } from '#shared/adapters/dynamodb/console-store';
import { systemClock } from '#shared/adapters/system';
import { withTelemetry } from '#shared/adapters/telemetry/telemetry';
import { type TFunctionOptions, telemetryOf } from '#shared/composition/function-base';
import type { TApiKey } from '#shared/domain/accounts/account';
import { authenticateApiKey } from '#shared/domain/accounts/authenticate-api-key';
import { checkConsoleSession } from '#shared/domain/console/check-console-session';
import { cookieHeaderOf, sessionCookieOf } from '#shared/http/session-cookie';

/** `arn:…:apiId/stage/GET/persons` → `arn:…:apiId/stage/*`: one cached answer serves every route. */
function wholeApi(methodArn: string): string {
  const [arn, stage] = methodArn.split('/');
  return `${arn}/${stage}/*`;
}

function policy(effect: 'Allow' | 'Deny', resource: string) {
  return {
    Version: '2012-10-17',
    Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }],
  };
}

/**
 * REQUEST authorizer. No usable header and no console session cookie: throw "Unauthorized" (API
 * Gateway answers 401, the gateway response says not_authenticated). A key that is wrong or
 * revoked: Deny (403, which the gateway response turns into 401 authentication_failed). A good
 * key: Allow for the whole API, the account in the context, and the key itself as the usage
 * plan's identifier. Without an Authorization header, a live console session (the `esign_session`
 * cookie) is taken instead: its user and account, and the account's console usage key (CSRF is
 * checked by the function, which can answer in the API's error body).
 */
export function buildAuthorizer(opts: TFunctionOptions) {
  const db = opts.db ?? createDocumentClient(opts.config);
  const keys = createApiKeyStore(db, opts.config.tableName);
  const sessions = { console: createConsoleStore(db, opts.config.tableName), clock: systemClock };
  const telemetry = telemetryOf(opts);
  const { log } = telemetry;
  // On AWS API Gateway's result cache is off (a cookie-only request must reach this function),
  // so a warm instance keeps key lookups itself, for as long as that cache did.
  const cacheMs = (opts.config.apiKeyCacheSeconds ?? 0) * 1000;
  const known = new Map<string, { key: TApiKey | undefined; until: number }>();
  const lookUp = async (secret: string) => {
    if (cacheMs <= 0) return authenticateApiKey({ keys }, secret);
    const hit = known.get(secret);
    if (hit && hit.until > Date.now()) return hit.key;
    const key = await authenticateApiKey({ keys }, secret);
    if (known.size > 10_000) known.clear();
    known.set(secret, { key, until: Date.now() + cacheMs });
    return key;
  };

  /**
   * Allow for the whole API: who calls (account, user, the key if any, and how they signed in) in
   * the context, and the identifier the usage plan meters them by.
   */
  const allowed = (
    event: APIGatewayRequestAuthorizerEvent,
    who: { accountId: string; userId: string; keyId: string; usageKeyId: string; via: 'key' | 'session' },
    usageIdentifierKey: string,
  ): APIGatewayAuthorizerResult => ({
    principalId: who.userId,
    policyDocument: policy('Allow', wholeApi(event.methodArn)),
    context: {
      accountId: who.accountId,
      userId: who.userId,
      keyId: who.keyId,
      usageKeyId: who.usageKeyId,
      via: who.via,
    },
    usageIdentifierKey,
  });

  const bySession = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const checked = await checkConsoleSession(sessions, sessionCookieOf(cookieHeaderOf(event.headers)));
    if (!checked) throw new Error('Unauthorized');
    const { session } = checked;
    return allowed(event, { ...session, keyId: '', via: 'session' }, session.usageKeyValue);
  };

  const authorize = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const header = Object.entries(event.headers ?? {}).find(
      ([k]) => k.toLowerCase() === 'authorization',
    )?.[1];
    if (!header || header.trim() === '') return bySession(event);
    const match = /^\s*Token\s+(\S+)\s*$/i.exec(header);
    const result = match ? await lookUp(match[1]!) : undefined;
    const requestId = event.requestContext?.requestId;
    if (!result) {
      log.info('authorizer denied', { requestId });
      return { principalId: 'anonymous', policyDocument: policy('Deny', wholeApi(event.methodArn)) };
    }
    return allowed(event, { ...result, via: 'key' }, match![1]!);
  };
  return withTelemetry(telemetry, authorize);
}
