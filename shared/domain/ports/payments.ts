// The payment processor a signer pays through.
/** What a payment processor is asked for: the bundle's amount, paid out to the connected account. */
export interface TPaymentRequest {
  accountId: string;
  bundleId: string;
  /** The billed signer's packet. */
  packetId: string;
  /** In the currency's smallest unit. */
  amount: number;
  currency: string;
  paymentMethodTypes: string[];
  /** The account's payout settings: the processor transfers the amount there. */
  connectedAccountId: string;
  /** The same key gives the same payment: a retried start never charges twice. */
  idempotencyKey: string;
  /** The payment started before for this bundle: it is resumed, never a second one made. */
  reference?: string;
  description: string;
}

/** A payment the signer can now complete: by the client secret (Stripe.js) or on a checkout page. */
export interface TPaymentSession {
  /** The processor's reference (Stripe: the Checkout Session id; locally a PaymentIntent-shaped id). */
  reference: string;
  clientSecret?: string;
  checkoutUrl?: string;
}

/** A processor webhook, verified: what happened to which payment. */
export interface TPaymentEvent {
  /** The processor's event id (or, for a refund the processor answered at once, the refund's id). */
  id: string;
  /** `refunded`: the whole amount was given back; `refund_failed`: a refund did not go through. */
  outcome: 'paid' | 'failed' | 'refunded' | 'refund_failed';
  /** The processor's object the event is about (a Checkout Session, a PaymentIntent, a Charge). */
  reference: string;
  accountId: string;
  bundleId: string;
  /** Why a payment or refund failed, as the processor says it. */
  message?: string;
}

export interface TPaymentProvider {
  start(request: TPaymentRequest): Promise<TPaymentSession>;
  /**
   * Verifies the webhook's signature over its raw body (a ValidationError when it does not
   * match) and reads it; undefined for events that concern no bundle payment.
   */
  parseWebhook(rawBody: string, signature: string): Promise<TPaymentEvent | undefined>;
  /**
   * Gives a paid payment back in full (Stripe also takes the transfer back from the connected
   * account); the same idempotency key gives the same refund.
   */
  refund(request: TRefundRequest): Promise<TRefund>;
}

/** What the operator asks the processor to give back: the whole of a bundle's payment. */
export interface TRefundRequest {
  /** The payment's reference (TPaymentSession.reference). */
  reference: string;
  accountId: string;
  bundleId: string;
  /** The billed signer's packet. */
  packetId: string;
  idempotencyKey: string;
}

/** The processor's answer: `pending` refunds are confirmed by a later webhook. */
export interface TRefund {
  id: string;
  status: 'succeeded' | 'pending';
}
