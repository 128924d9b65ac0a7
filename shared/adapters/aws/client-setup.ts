// How every AWS client the service makes is set up, whichever file makes it (clients.ts, and the
// clients some functions load only on demand: sns-client.ts, secrets-manager-client.ts). A file
// of its own, which imports no client, so that those can use it without loading clients.ts.
import type { TConfig } from '#shared/config';

/** What every client is made with: the region, and locally the endpoint and credentials. */
export function common(config: TConfig, endpoint: string | undefined) {
  return {
    region: config.region,
    ...(endpoint ? { endpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
  };
}

/** The name the SDK gives its logger middleware in every client's stack. */
export const SDK_LOGGER_MIDDLEWARE = 'loggerMiddleware';

/**
 * The client without the SDK's logger middleware, then traced (config.traceClient, on Lambda).
 * That middleware copies every call's input and output through a filter of sensitive values to
 * hand them to the client's logger, and does it even for the SDK's default logger, which logs
 * nothing. The service gives the SDK no logger (its own logs say what happened), so the copies
 * were pure cost: about a tenth of the CPU of a DynamoDB call.
 */
export function prepared<T extends { middlewareStack: { remove(name: string): boolean } }>(
  config: TConfig,
  client: T,
): T {
  client.middlewareStack.remove(SDK_LOGGER_MIDDLEWARE);
  return config.traceClient ? config.traceClient(client) : client;
}
