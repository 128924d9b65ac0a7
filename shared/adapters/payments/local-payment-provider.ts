// The local runtime's stand-in for Stripe: no network, a test checkout page
// (/payments/local/checkout/<token>) whose "Pay" button produces a Stripe-shaped
// `payment_intent.succeeded` event signed with the local webhook secret, handled by the same
// webhook path as Stripe's. The checkout token carries the payment, HMAC-signed.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import Stripe from 'stripe';
import type {
  TPaymentProvider,
  TPaymentRequest,
  TPaymentSession,
  TRefund,
  TRefundRequest,
} from '#shared/domain/ports/payments';
import { verifiedEvent } from '../stripe/payment-provider';

export interface TLocalCheckout {
  reference: string;
  accountId: string;
  bundleId: string;
  packetId: string;
  amount: number;
  currency: string;
  description: string;
}

export interface TLocalPaymentProvider extends TPaymentProvider {
  /** The payment behind a checkout token, or undefined when the token was not made here. */
  readCheckout(token: string): TLocalCheckout | undefined;
  /** The webhook a paid (or declined) checkout delivers: its body and Stripe-Signature. */
  checkoutEvent(checkout: TLocalCheckout, outcome: 'paid' | 'failed'): { payload: string; signature: string };
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export function createLocalPaymentProvider(opts: {
  webhookSecret: string;
  /** The service's public base URL (known once the local gateway listens). */
  baseUrl: () => string;
}): TLocalPaymentProvider {
  // Only for verifying and signing webhooks: never calls Stripe.
  const stripe = new Stripe('sk_test_local_no_network', { telemetry: false });
  const mac = (data: string) => createHmac('sha256', opts.webhookSecret).update(`checkout.${data}`).digest();

  return {
    async start(request: TPaymentRequest): Promise<TPaymentSession> {
      const reference =
        request.reference ??
        `pi_local_${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24)}`;
      const checkout: TLocalCheckout = {
        reference,
        accountId: request.accountId,
        bundleId: request.bundleId,
        packetId: request.packetId,
        amount: request.amount,
        currency: request.currency,
        description: request.description,
      };
      const data = b64url(JSON.stringify(checkout));
      const token = `${data}.${b64url(mac(data))}`;
      return { reference, checkoutUrl: `${opts.baseUrl()}/payments/local/checkout/${token}` };
    },

    parseWebhook: (rawBody, signature) => verifiedEvent(stripe, rawBody, signature, opts.webhookSecret),

    // No money moved, so none goes back: the refund succeeds at once, the same one per key.
    async refund(request: TRefundRequest): Promise<TRefund> {
      const hash = createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24);
      return { id: `re_local_${hash}`, status: 'succeeded' };
    },

    readCheckout(token) {
      const [data, sig, extra] = token.split('.');
      if (!data || !sig || extra !== undefined) return undefined;
      const given = Buffer.from(sig, 'base64url');
      const want = mac(data);
      if (given.length !== want.length || !timingSafeEqual(given, want)) return undefined;
      return JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as TLocalCheckout;
    },

    checkoutEvent(checkout, outcome) {
      const error =
        outcome === 'failed'
          ? { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' }
          : null;
      const payload = JSON.stringify({
        id: `evt_local_${randomBytes(12).toString('hex')}`,
        object: 'event',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        type: outcome === 'paid' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
        data: {
          object: {
            id: checkout.reference,
            object: 'payment_intent',
            amount: checkout.amount,
            currency: checkout.currency,
            status: outcome === 'paid' ? 'succeeded' : 'requires_payment_method',
            last_payment_error: error,
            metadata: {
              account_id: checkout.accountId,
              bundle_id: checkout.bundleId,
              packet_id: checkout.packetId,
            },
          },
        },
      });
      const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: opts.webhookSecret });
      return { payload, signature };
    },
  };
}
