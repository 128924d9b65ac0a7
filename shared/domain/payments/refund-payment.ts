import { OPERATOR } from '../bundles/actor';
import type { TBundle } from '../bundles/bundle';
import { getBundle } from '../bundles/get-bundle';
import { ConflictError } from '../errors';
import type { TBundleStore } from '../ports/bundles';
import type { TPaymentProvider, TRefund } from '../ports/payments';
import type { TClock } from '../ports/system';
import { recordPayment } from './record-payment';

export interface TRefundPaymentDeps {
  bundles: TBundleStore;
  payments: TPaymentProvider;
  clock: TClock;
}

export interface TRefundOutcome {
  bundle: TBundle;
  /** The processor's refund; absent when the payment was refunded already (nothing asked). */
  refund?: TRefund;
}

/**
 * The operator gives a bundle's payment back in full. The processor is asked under one key per
 * bundle and attempt, so running the command again never refunds twice. A refund the processor answers as
 * succeeded (cards, usually) is recorded at once, with the refund's id as event id; a pending one
 * (bank debits) is recorded when the processor's webhook confirms it. The webhook of a refund
 * recorded here changes nothing: `refunded` is final.
 */
export async function refundPayment(
  deps: TRefundPaymentDeps,
  accountId: string,
  bundleId: string,
): Promise<TRefundOutcome> {
  const bundle = await getBundle(deps, accountId, bundleId);
  const payment = bundle.payment;
  if (!payment) throw new ConflictError('This bundle has no payment.');
  if (payment.status === 'refunded') return { bundle };
  if (payment.status !== 'paid' || !payment.reference)
    throw new ConflictError(`Only a paid payment can be refunded; this one is ${payment.status ?? 'due'}.`);
  const billed = bundle.packets.find((k) => k.key === payment.billedTo);
  const refund = await deps.payments.refund({
    reference: payment.reference,
    accountId,
    bundleId,
    packetId: billed?.id ?? '',
    // One key per attempt: the same command run again replays the same refund, while a refund
    // asked after the bank refused one is a new request (a replay would answer the failed one).
    idempotencyKey: `bundle-refund-${accountId}-${bundleId}-${payment.refundFailures ?? 0}`,
  });
  if (refund.status !== 'succeeded') return { bundle, refund };
  const recorded = await recordPayment(
    deps,
    {
      id: refund.id,
      outcome: 'refunded',
      reference: payment.reference,
      accountId,
      bundleId,
    },
    OPERATOR,
  );
  return { bundle: recorded ?? bundle, refund };
}
