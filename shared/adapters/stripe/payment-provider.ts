// Bundle payments through Stripe Connect: a Checkout Session per bundle (Stripe's hosted payment
// page) whose PaymentIntent transfers the amount to the account's connected account (destination
// charge), and Stripe's webhooks verified with the endpoint's signing secret. The official `stripe`
// package; `host`/`port`/`protocol` point it at a stand-in (infra/local/stripe-standin.ts) in tests.
import Stripe from 'stripe';
import { ConflictError, ServiceUnavailableError, ValidationError } from '#shared/domain/errors';
import type {
  TPaymentEvent,
  TPaymentProvider,
  TPaymentRequest,
  TPaymentSession,
  TRefund,
  TRefundRequest,
} from '#shared/domain/ports/payments';

export interface TStripeSettings {
  /** The platform's secret key (`sk_…`). */
  apiKey: string;
  /** The webhook endpoint's signing secret (`whsec_…`). */
  webhookSecret: string;
  /**
   * Where Checkout sends the signer once paid (and, with `?cancelled=1`, when they leave it):
   * the service's `/payments/stripe/done` page.
   */
  returnUrl: string;
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/** Seconds a webhook's timestamp may be old: Stripe's default, against replays. */
const WEBHOOK_TOLERANCE = 300;

export function createStripePaymentProvider(settings: TStripeSettings): TPaymentProvider {
  const stripe = new Stripe(settings.apiKey, {
    ...(settings.host ? { host: settings.host } : {}),
    ...(settings.port ? { port: settings.port } : {}),
    ...(settings.protocol ? { protocol: settings.protocol } : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
  const cancelUrl = `${settings.returnUrl}${settings.returnUrl.includes('?') ? '&' : '?'}cancelled=1`;

  return {
    async start(request: TPaymentRequest): Promise<TPaymentSession> {
      // A session started before is resumed while it is open (never a second payment); a finished
      // one has no page left to open.
      if (request.reference?.startsWith('cs_')) {
        const before = await stripe.checkout.sessions.retrieve(request.reference, {
          expand: ['payment_intent'],
        });
        if (before.status === 'open' && before.url) return { reference: before.id, checkoutUrl: before.url };
        const intent = before.payment_intent;
        const retry = typeof intent === 'object' && intent?.status === 'requires_payment_method';
        // Paid, or a bank debit still on its way: nothing to pay now.
        if (before.status === 'complete' && !retry) return { reference: before.id };
      }
      // Expired, its debit failed (or a PaymentIntent from before Checkout): a new session, under
      // its own key, as the bundle's key would replay the old one.
      const idempotencyKey = request.reference
        ? `${request.idempotencyKey}-after-${request.reference}`
        : request.idempotencyKey;
      const metadata = {
        account_id: request.accountId,
        bundle_id: request.bundleId,
        packet_id: request.packetId,
      };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              price_data: {
                currency: request.currency,
                unit_amount: request.amount,
                product_data: { name: request.description },
              },
              quantity: 1,
            },
          ],
          payment_method_types:
            request.paymentMethodTypes as Stripe.Checkout.SessionCreateParams.PaymentMethodType[],
          payment_intent_data: {
            transfer_data: { destination: request.connectedAccountId },
            description: request.description,
            metadata,
          },
          metadata,
          client_reference_id: request.bundleId,
          success_url: settings.returnUrl,
          cancel_url: cancelUrl,
        },
        { idempotencyKey },
      );
      return { reference: session.id, ...(session.url ? { checkoutUrl: session.url } : {}) };
    },

    parseWebhook: (rawBody, signature) =>
      verifiedEvent(stripe, rawBody, signature, settings.webhookSecret, async (id) => {
        try {
          return (await stripe.paymentIntents.retrieve(id)).metadata;
        } catch (err) {
          // Not one of ours (another platform's intent): the event concerns no bundle.
          if (err instanceof Stripe.errors.StripeError && err.code === 'resource_missing') return {};
          // Stripe unreachable: a 503 has Stripe deliver the event again later.
          throw new ServiceUnavailableError('Stripe could not be reached to read the refunded payment.');
        }
      }),

    async refund(request: TRefundRequest): Promise<TRefund> {
      // Refunds name the PaymentIntent; the bundle keeps its Checkout Session.
      let intent = request.reference;
      if (intent.startsWith('cs_')) {
        const session = await stripe.checkout.sessions.retrieve(intent);
        const pi = session.payment_intent;
        intent = (typeof pi === 'string' ? pi : pi?.id) ?? '';
        if (!intent) throw new ConflictError('Stripe has no payment to refund for this bundle.');
      }
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: intent,
            // A destination charge: the connected account gives back what it was transferred.
            reverse_transfer: true,
            metadata: {
              account_id: request.accountId,
              bundle_id: request.bundleId,
              packet_id: request.packetId,
            },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        if (refund.status === 'failed' || refund.status === 'canceled')
          throw new ConflictError(`Stripe did not refund the payment (the refund is ${refund.status}).`);
        return { id: refund.id, status: refund.status === 'succeeded' ? 'succeeded' : 'pending' };
      } catch (err) {
        // Refunded already at Stripe (its Dashboard, or a refund whose webhook we missed): done.
        if (err instanceof Stripe.errors.StripeError && err.code === 'charge_already_refunded')
          return { id: `refunded-${intent}`, status: 'succeeded' };
        throw err;
      }
    },
  };
}

/**
 * A webhook whose Stripe-Signature matches its exact body and is recent, read; a ValidationError
 * (400) otherwise. Events that concern no bundle payment answer undefined. `intentMetadata` reads
 * a PaymentIntent's metadata from Stripe (absent where there is no Stripe to ask).
 */
export async function verifiedEvent(
  stripe: Stripe,
  rawBody: string,
  signature: string,
  secret: string,
  intentMetadata?: (intentId: string) => Promise<Stripe.Metadata>,
): Promise<TPaymentEvent | undefined> {
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE);
  } catch {
    throw new ValidationError('The webhook signature does not match.');
  }
  if (event.type === 'charge.refunded') return refundEvent(event, intentMetadata);
  if (event.type === 'refund.failed') return refundFailedEvent(event, intentMetadata);
  return paymentEvent(event);
}

/**
 * `refund.failed`: the bank could not take the money back (a closed card, say), so the payment
 * stands. The refund carries the bundle's metadata we set on it; otherwise its intent is read.
 */
async function refundFailedEvent(
  event: Stripe.RefundFailedEvent,
  intentMetadata: ((intentId: string) => Promise<Stripe.Metadata>) | undefined,
) {
  const refund = event.data.object;
  const pi = refund.payment_intent;
  const intent = typeof pi === 'string' ? pi : pi?.id;
  let metadata: Stripe.Metadata | null | undefined = refund.metadata;
  if (!metadata?.bundle_id && intent && intentMetadata) metadata = await intentMetadata(intent);
  const why = refund.failure_reason ? `refund failed: ${refund.failure_reason}` : 'refund failed';
  return read(event.id, 'refund_failed', intent ?? refund.id, metadata, why);
}

/**
 * `charge.refunded`, for a full refund only (a partial one leaves the bundle paid). The charge
 * carries its PaymentIntent's metadata when Stripe copied it; otherwise the intent is read.
 */
async function refundEvent(
  event: Stripe.ChargeRefundedEvent,
  intentMetadata: ((intentId: string) => Promise<Stripe.Metadata>) | undefined,
) {
  const charge = event.data.object;
  if (!charge.refunded) return undefined;
  const pi = charge.payment_intent;
  const intent = typeof pi === 'string' ? pi : pi?.id;
  let metadata: Stripe.Metadata | null | undefined = charge.metadata;
  if (!metadata?.bundle_id && intent && intentMetadata) metadata = await intentMetadata(intent);
  return read(event.id, 'refunded', intent ?? charge.id, metadata);
}

/**
 * The events that concern bundle payments; others (and foreign payments) are ignored. Checkout
 * Sessions (the reference of payments started on AWS): `checkout.session.completed` once paid
 * (bank debits pay later: `checkout.session.async_payment_succeeded`), and
 * `checkout.session.async_payment_failed`. PaymentIntents (the local provider's references):
 * `payment_intent.succeeded` and `payment_intent.payment_failed`, also sent for the intent of a
 * Checkout Session (a card declined on Checkout's page is only told this way). All of them name
 * the bundle by the metadata set when the payment was created. Refunds: `charge.refunded`.
 */
function paymentEvent(event: Stripe.Event): TPaymentEvent | undefined {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed': {
      const session = event.data.object;
      const failed = event.type === 'checkout.session.async_payment_failed';
      // A completed session whose bank debit is still pending is neither paid nor failed yet.
      if (!failed && session.payment_status !== 'paid') return undefined;
      return read(event.id, failed ? 'failed' : 'paid', session.id, session.metadata);
    }
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      const paid = event.type === 'payment_intent.succeeded';
      return read(
        event.id,
        paid ? 'paid' : 'failed',
        intent.id,
        intent.metadata,
        intent.last_payment_error?.message,
      );
    }
    default:
      return undefined;
  }
}

function read(
  id: string,
  outcome: TPaymentEvent['outcome'],
  reference: string,
  metadata: Stripe.Metadata | null | undefined,
  message?: string,
): TPaymentEvent | undefined {
  const { account_id: accountId, bundle_id: bundleId } = metadata ?? {};
  if (!accountId || !bundleId) return undefined;
  return { id, outcome, reference, accountId, bundleId, ...(message ? { message } : {}) };
}
