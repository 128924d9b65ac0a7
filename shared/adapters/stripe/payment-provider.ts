// Bundle payments through Stripe Connect: a PaymentIntent per bundle whose amount is transferred
// to the account's connected account (destination charge), and Stripe's webhooks verified with
// the endpoint's signing secret. The official `stripe` package; `host`/`port`/`protocol` point it
// at a stand-in (infra/local/stripe-standin.ts) in tests.
import Stripe from 'stripe';
import { ValidationError } from '../../domain/errors';
import { PaymentDeclinedError } from '../../domain/payments/payment-errors';
import type { TPaymentEvent, TPaymentProvider, TPaymentRequest, TPaymentSession } from '../../ports';

export interface TStripeSettings {
  /** The platform's secret key (`sk_…`). */
  apiKey: string;
  /** The webhook endpoint's signing secret (`whsec_…`). */
  webhookSecret: string;
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

export interface TStripePaymentProvider extends TPaymentProvider {
  /**
   * Confirms a payment with a payment method on the server (tests, and saved methods): its status
   * after, or a PaymentDeclinedError when the method is refused.
   */
  confirm(reference: string, paymentMethod: string): Promise<string>;
}

/** Seconds a webhook's timestamp may be old: Stripe's default, against replays. */
const WEBHOOK_TOLERANCE = 300;

export function createStripePaymentProvider(settings: TStripeSettings): TStripePaymentProvider {
  const stripe = new Stripe(settings.apiKey, {
    ...(settings.host ? { host: settings.host } : {}),
    ...(settings.port ? { port: settings.port } : {}),
    ...(settings.protocol ? { protocol: settings.protocol } : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });

  return {
    async start(request: TPaymentRequest): Promise<TPaymentSession> {
      const intent = request.reference
        ? await stripe.paymentIntents.retrieve(request.reference)
        : await stripe.paymentIntents.create(
            {
              amount: request.amount,
              currency: request.currency,
              payment_method_types: request.paymentMethodTypes,
              transfer_data: { destination: request.connectedAccountId },
              description: request.description,
              metadata: {
                account_id: request.accountId,
                bundle_id: request.bundleId,
                packet_id: request.packetId,
              },
            },
            { idempotencyKey: request.idempotencyKey },
          );
      return {
        reference: intent.id,
        ...(intent.client_secret ? { clientSecret: intent.client_secret } : {}),
      };
    },

    async confirm(reference, paymentMethod) {
      try {
        const intent = await stripe.paymentIntents.confirm(reference, { payment_method: paymentMethod });
        return intent.status;
      } catch (err) {
        if (err instanceof Stripe.errors.StripeCardError)
          throw new PaymentDeclinedError(err.message, err.code ?? 'card_declined', reference);
        throw err;
      }
    },

    parseWebhook: (rawBody, signature) => verifiedEvent(stripe, rawBody, signature, settings.webhookSecret),
  };
}

/**
 * A webhook whose Stripe-Signature matches its exact body and is recent, read; a ValidationError
 * (400) otherwise. Events that concern no bundle payment answer undefined.
 */
export function verifiedEvent(
  stripe: Stripe,
  rawBody: string,
  signature: string,
  secret: string,
): TPaymentEvent | undefined {
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE);
  } catch {
    throw new ValidationError('The webhook signature does not match.');
  }
  return paymentEvent(event);
}

/** The events that concern bundle payments; others (and foreign intents) are ignored. */
function paymentEvent(event: Stripe.Event): TPaymentEvent | undefined {
  if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.payment_failed')
    return undefined;
  const intent = event.data.object;
  const { account_id: accountId, bundle_id: bundleId } = intent.metadata ?? {};
  if (!accountId || !bundleId) return undefined;
  return {
    id: event.id,
    outcome: event.type === 'payment_intent.succeeded' ? 'paid' : 'failed',
    reference: intent.id,
    accountId,
    bundleId,
    ...(intent.last_payment_error?.message ? { message: intent.last_payment_error.message } : {}),
  };
}
