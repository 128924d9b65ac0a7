import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { TConfig } from '#shared/config';

// Apart from clients.ts: only the few functions that read secrets load this client, and the
// document worker only when a job runs.
export function createSecretsManagerClient(config: TConfig): SecretsManagerClient {
  const client = new SecretsManagerClient({
    region: config.region,
    ...(config.endpoints.secretsmanager ? { endpoint: config.endpoints.secretsmanager } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
  });
  // Traced on Lambda, as the clients of clients.ts are.
  return config.traceClient ? config.traceClient(client) : client;
}
