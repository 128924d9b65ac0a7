// The platform's Stripe keys, read from their Secrets Manager secret when payments are first used
// (payments/payment-provider.ts imports this file then, with the Stripe adapter).
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import type { TConfig } from '#shared/config';
import { ServiceUnavailableError } from '#shared/domain/errors';
import { createSecretsManagerClient } from '../aws/secrets-manager-client';

const NOT_CONFIGURED =
  'Payments are not configured by the operator of this service: the Stripe keys secret needs "apiKey" and "webhookSecret".';

/**
 * The Stripe keys from their secret. The stack creates the secret without a value (Secrets
 * Manager then answers ResourceNotFoundException), and an operator may store "", "{}" or only one
 * key: all of them are the same "not configured". Never a message with the secret's contents.
 */
export async function readStripeKeys(
  config: TConfig,
  secretId: string,
): Promise<{ apiKey: string; webhookSecret: string }> {
  const client = createSecretsManagerClient(config);
  let text: string | undefined;
  try {
    text = (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
  } catch (err) {
    if ((err as Error).name === 'ResourceNotFoundException')
      throw new ServiceUnavailableError(NOT_CONFIGURED);
    // The cause (AccessDenied, a KMS or network error) goes to the log with the 503, for the
    // operator; the caller is told only that the keys could not be read.
    throw new ServiceUnavailableError('Payments are unavailable right now: their keys could not be read.', {
      cause: err,
    });
  } finally {
    client.destroy();
  }
  let keys: unknown;
  try {
    keys = JSON.parse(text ?? '');
  } catch {
    throw new ServiceUnavailableError(NOT_CONFIGURED);
  }
  const { apiKey, webhookSecret } = (keys ?? {}) as { apiKey?: unknown; webhookSecret?: unknown };
  if (
    typeof apiKey !== 'string' ||
    !apiKey.trim() ||
    typeof webhookSecret !== 'string' ||
    !webhookSecret.trim()
  )
    throw new ServiceUnavailableError(NOT_CONFIGURED);
  return { apiKey: apiKey.trim(), webhookSecret: webhookSecret.trim() };
}
