import { createApiGatewayUsageReader } from '../../shared/adapters/apigateway/usage-reader';
import { createApiGatewayClient } from '../../shared/adapters/aws/clients';
import { systemClock } from '../../shared/adapters/system';
import type { TConfig } from '../../shared/config';
import { createApiHandler } from '../../shared/http/api-handler';
import type { TRoute } from '../../shared/http/router';
import { createLogger, type TLogger } from '../../shared/logger';

/** Composition root of the account Lambda: the caller's own standing (rate limits). */
export function buildAccountHandler(opts: { config: TConfig; log?: TLogger }) {
  const usage = createApiGatewayUsageReader(
    createApiGatewayClient(opts.config),
    opts.config.usagePlanId,
    systemClock,
  );
  const routes: TRoute[] = [
    {
      method: 'GET',
      path: '/rate_limit',
      handler: async (req) => {
        const u = await usage.usageFor(req.auth.usageKeyId);
        return {
          status: 200,
          body: { limit: u.limit, remaining: u.remaining, reset: u.reset, window: u.window },
        };
      },
    },
  ];
  return createApiHandler(routes, opts.log ?? createLogger(opts.config.logLevel));
}
