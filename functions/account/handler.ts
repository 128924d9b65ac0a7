import { createUsageKeyRegistry } from '#shared/adapters/apigateway/usage-keys';
import { createApiGatewayClient } from '#shared/adapters/aws/clients';
import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildAccountHandler } from './app';

const opts = lambdaFunction('account');
// On AWS an API key works only once API Gateway's usage plan knows it (create-api-key.ts).
const usageKeys = createUsageKeyRegistry(createApiGatewayClient(opts.config), opts.config.usagePlanId);

export const handler = buildAccountHandler({ ...opts, usageKeys });
