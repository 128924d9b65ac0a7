import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { TConfig } from '../../config';
import type { TPaymentProvider } from '../../ports';
import { createStripePaymentProvider } from '../stripe/payment-provider';
import { createLocalPaymentProvider, type TLocalPaymentProvider } from './local-payment-provider';

/**
 * The payment provider of the configuration, made on first use (on AWS its keys are read from
 * Secrets Manager once per Lambda instance). Undefined when payments are not configured.
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
        const client = new SecretsManagerClient({
          region: config.region,
          ...(config.endpoints.secretsmanager ? { endpoint: config.endpoints.secretsmanager } : {}),
        });
        const out = await client.send(new GetSecretValueCommand({ SecretId: settings.secretId }));
        const keys = JSON.parse(out.SecretString ?? '{}') as { apiKey?: string; webhookSecret?: string };
        if (!keys.apiKey || !keys.webhookSecret)
          throw new Error('The Stripe secret needs "apiKey" and "webhookSecret".');
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
