import { bySigner } from '../bundles/actor';
import { event } from '../bundles/audit-event';
import { changeBundle } from '../bundles/change-bundle';
import { getBundle } from '../bundles/get-bundle';
import { ConflictError, PermissionDeniedError, said } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TBundleStore } from '../ports/bundles';
import type { TPaymentProvider, TPaymentSession } from '../ports/payments';
import type { TClock } from '../ports/system';

export interface TStartPaymentDeps {
  bundles: TBundleStore;
  accounts: TAccountStore;
  payments: TPaymentProvider;
  clock: TClock;
}

/**
 * The billed signer starts (or resumes) paying the bundle: one payment per bundle at the
 * processor, whatever the number of attempts, its reference kept on the bundle with a `pi` audit
 * event the first time. Paid already, or not the billed signer: refused.
 */
export async function startPayment(
  deps: TStartPaymentDeps,
  accountId: string,
  bundleId: string,
  packetId: string,
): Promise<TPaymentSession> {
  const bundle = await getBundle(deps, accountId, bundleId);
  const payment = bundle.payment;
  const billed = payment && bundle.packets.find((k) => k.key === payment.billedTo);
  if (!payment || billed?.id !== packetId)
    throw said(new PermissionDeniedError('You have nothing to pay.'), 'errors.nothingToPay');
  if (payment.status === 'paid')
    throw said(new ConflictError('This bundle is paid already.'), 'errors.paidAlready');
  // A refunded payment is final: paying again would need the sender to decide, not the signer.
  if (payment.status === 'refunded')
    throw said(
      new ConflictError('This bundle was paid and refunded: please contact the sender.'),
      'errors.refunded',
    );
  const payout = (await deps.accounts.getAccount(accountId))?.payout;
  if (!payout)
    throw said(
      new ConflictError('Payments are not set up for this account: please contact the sender.'),
      'errors.paymentsOff',
    );
  const session = await deps.payments.start({
    accountId,
    bundleId,
    packetId,
    amount: payment.amountDue,
    currency: payment.currency || payout.currency,
    paymentMethodTypes: payment.paymentMethodTypes,
    connectedAccountId: payout.connectedAccountId,
    idempotencyKey: `bundle-payment-${accountId}-${bundleId}`,
    ...(payment.reference ? { reference: payment.reference } : {}),
    description: bundle.label || `Bundle ${bundleId}`,
  });
  await changeBundle(deps, accountId, bundleId, (b) => {
    if (!b.payment || b.payment.reference === session.reference) return b;
    const now = deps.clock.now().toISOString();
    return {
      ...b,
      payment: { ...b.payment, reference: session.reference },
      events: [...b.events, event('paymentStarted', now, bySigner(packetId), packetId, session.reference)],
    };
  });
  return session;
}
