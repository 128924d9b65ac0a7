/** The processor refused the payment method (a declined card): the signer may try another. */
export class PaymentDeclinedError extends Error {
  override name = 'PaymentDeclinedError';
  constructor(
    message: string,
    /** The processor's code (Stripe: `card_declined`). */
    readonly code: string,
    readonly reference?: string,
  ) {
    super(message);
  }
}
