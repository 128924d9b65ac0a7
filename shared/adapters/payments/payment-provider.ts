import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import type { TConfig } from '../../config';
import { ServiceUnavailableError } from '../../domain/errors';
import type { TPaymentProvider } from '../../ports/payments';
import { createSecretsManagerClient } from '../aws/secrets-manager-client';
import { createStripePaymentProvider } from '../stripe/payment-provider';
import { createLocalPaymentProvider, type TLocalPaymentProvider } from './local-payment-provider';

/**
 * The payment provider of the configuration, made on first use (on AWS its keys are read from
 * Secrets Manager once per Lambda instance). Undefined when payments are not configured.
 * Keys that cannot be read, or a secret left empty or incomplete by the operator, make `get()`
 * fail with a ServiceUnavailableError (503, retried by Stripe's webhook deliveries), and the next
 * call reads the secret again, so storing the keys fixes it without a redeploy.
 */
export interface TPaymentProviderSource {
  get(): Promise<TPaymentProvider>;
  /** Only in the local runtime: the provider with the test checkout page. */
  local?: TLocalPaymentProvider;
}

export function createPaymentProviderSource(config: TConfig): TPaymentProviderSource | undefined {
  const settings = config.payments;
  if (!settings) return undefined;
  if (settings.kind === 'local') {
    const local = createLocalPaymentProvider({
      webhookSecret: settings.webhookSecret,
      baseUrl: () => config.publicBaseUrl ?? '',
    });
    return { get: async () => local, local };
  }
  let made: Promise<TPaymentProvider> | undefined;
  return {
    get() {
      made ??= (async () => {
        const keys = await readStripeKeys(config, settings.secretId);
        return createStripePaymentProvider({
          apiKey: keys.apiKey,
          webhookSecret: keys.webhookSecret,
          returnUrl: `${config.publicBaseUrl ?? ''}/payments/stripe/done`,
        });
      })().catch((err: unknown) => {
        made = undefined;
        throw err;
      });
      return made;
    },
  };
}

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
