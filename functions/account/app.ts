import { cachedUsageReader } from '#shared/adapters/apigateway/cached-usage-reader';
import { usageReaderFor } from '#shared/adapters/apigateway/usage-reader';
import { systemClock } from '#shared/adapters/system';
import { type TFunctionOptions, telemetryOf } from '#shared/composition/function-base';
import type { TConfig } from '#shared/config';
import { createApiHandler } from '#shared/http/api-handler';
import type { TRoute } from '#shared/http/router';

/** Composition root of the account Lambda: the caller's own standing (rate limits). */
export function buildAccountHandler(opts: Omit<TFunctionOptions, 'db'> & { config: TConfig }) {
  // The body reads afresh; the headers (on this answer too) go through the cache as elsewhere.
  const usage = usageReaderFor(opts.config);
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
  return createApiHandler(routes, telemetryOf(opts), {
    usage: cachedUsageReader(usage, systemClock),
    config: opts.config,
  });
}
