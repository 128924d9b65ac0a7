import type { TConfig } from '#shared/config';
import type { TPaymentProvider } from '#shared/domain/ports/payments';
import { onFirstUse } from '../on-first-use';
import type { TLocalPaymentProvider } from './local-payment-provider';

/**
 * The payment provider of the configuration, made on first use (on AWS its keys are read from
 * Secrets Manager once per Lambda instance). Undefined when payments are not configured.
 * Keys that cannot be read, or a secret left empty or incomplete by the operator, make `get()`
 * fail with a ServiceUnavailableError (503, retried by Stripe's webhook deliveries), and the next
 * call reads the secret again, so storing the keys fixes it without a redeploy.
 *
 * The provider's code (the `stripe` package, the Secrets Manager client) is imported then too:
 * only a signer paying and the processor's webhook need it, and public-pages, which answers them,
 * answers far more signing pages that never pay.
 */
export interface TPaymentProviderSource {
  get(): Promise<TPaymentProvider>;
  /** Only in the local runtime: the provider with the test checkout page. */
  local?: () => Promise<TLocalPaymentProvider>;
}

export function createPaymentProviderSource(config: TConfig): TPaymentProviderSource | undefined {
  const settings = config.payments;
  if (!settings) return undefined;
  if (settings.kind === 'local') {
    const made = onFirstUse<TLocalPaymentProvider>(() =>
      import('./local-payment-provider').then(({ createLocalPaymentProvider }) =>
        createLocalPaymentProvider({
          webhookSecret: settings.webhookSecret,
          baseUrl: () => config.publicBaseUrl ?? '',
        }),
      ),
    );
    return { get: made, local: made };
  }
  return {
    get: onFirstUse<TPaymentProvider>(async () => {
      const [{ readStripeKeys }, { createStripePaymentProvider }] = await Promise.all([
        import('../stripe/stripe-keys'),
        import('../stripe/payment-provider'),
      ]);
      const keys = await readStripeKeys(config, settings.secretId);
      return createStripePaymentProvider({
        apiKey: keys.apiKey,
        webhookSecret: keys.webhookSecret,
        returnUrl: `${config.publicBaseUrl ?? ''}/payments/stripe/done`,
      });
    }),
  };
}
