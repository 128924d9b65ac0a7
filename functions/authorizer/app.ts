import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { createDocumentClient } from '#shared/adapters/aws/clients';
import { createApiKeyStore } from '#shared/adapters/dynamodb/api-key-store';
import { withTelemetry } from '#shared/adapters/telemetry/telemetry';
import { type TFunctionOptions, telemetryOf } from '#shared/composition/function-base';
import { authenticateApiKey } from '#shared/domain/accounts/authenticate-api-key';

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
 * REQUEST authorizer. No usable header: throw "Unauthorized" (API Gateway answers 401, the
 * gateway response says not_authenticated). A key that is wrong or revoked: Deny (403, which
 * the gateway response turns into 401 authentication_failed). A good key: Allow for the whole
 * API, the account in the context, and the key itself as the usage plan's identifier.
 */
export function buildAuthorizer(opts: TFunctionOptions) {
  const keys = createApiKeyStore(opts.db ?? createDocumentClient(opts.config), opts.config.tableName);
  const telemetry = telemetryOf(opts);
  const { log } = telemetry;

  const authorize = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const header = Object.entries(event.headers ?? {}).find(
      ([k]) => k.toLowerCase() === 'authorization',
    )?.[1];
    const match = header ? /^\s*Token\s+(\S+)\s*$/i.exec(header) : null;
    if (!header || header.trim() === '') throw new Error('Unauthorized');
    const result = match ? await authenticateApiKey({ keys }, match[1]!) : undefined;
    const requestId = event.requestContext?.requestId;
    if (!result) {
      log.info('authorizer denied', { requestId });
      return { principalId: 'anonymous', policyDocument: policy('Deny', wholeApi(event.methodArn)) };
    }
    return {
      principalId: result.userId,
      policyDocument: policy('Allow', wholeApi(event.methodArn)),
      context: {
        accountId: result.accountId,
        userId: result.userId,
        keyId: result.keyId,
        usageKeyId: result.usageKeyId,
      },
      usageIdentifierKey: match![1]!,
    };
  };
  return withTelemetry(telemetry, authorize);
}
