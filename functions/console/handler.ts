import { createUsageKeyRegistry } from '#shared/adapters/apigateway/usage-keys';
import { createApiGatewayClient } from '#shared/adapters/aws/clients';
import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildConsoleHandler } from './app';

const opts = lambdaFunction('console');
// On AWS each account's console sessions are counted under an API Gateway key of the usage plan.
const usageKeys = createUsageKeyRegistry(createApiGatewayClient(opts.config), opts.config.usagePlanId);

export const handler = buildConsoleHandler({
  ...opts,
  usageKeys: {
    register: (value, accountId) => usageKeys.register(value, `console-${accountId}`),
    remove: (id) => usageKeys.remove(id),
  },
});
