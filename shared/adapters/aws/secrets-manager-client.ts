import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { TConfig } from '#shared/config';
import { common, prepared } from './client-setup';

// Apart from clients.ts: only the few functions that read secrets load this client, and the
// document worker only when a job runs.
export function createSecretsManagerClient(config: TConfig): SecretsManagerClient {
  return prepared(config, new SecretsManagerClient(common(config, config.endpoints.secretsmanager)));
}
