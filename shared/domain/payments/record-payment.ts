import { SYSTEM, type TActor } from '../bundles/actor';
import { event } from '../bundles/audit-event';
import type { TBundle, TPayment } from '../bundles/bundle';
import { changeBundle } from '../bundles/change-bundle';
import { NotFoundError } from '../errors';
import type { TBundleStore } from '../ports/bundles';
import type { TPaymentEvent } from '../ports/payments';
import type { TClock } from '../ports/system';

/** How many processor event ids a payment remembers: more than a processor ever repeats. */
const REMEMBERED_EVENTS = 20;

/**
 * Records what the processor says happened to a bundle's payment, idempotently.
 *
 * The event names the bundle by the metadata we set on every payment we create (the processor
 * signs the event, so only we could have put it there); its object may be the Checkout Session
 * the bundle keeps as reference, or that session's PaymentIntent or Charge, which Stripe reports
 * on their own (a card declined inside Checkout, a refund). So any event of the bundle counts once
 * the signer started paying.
 *
 * Processors deliver at least once and in no set order, so:
 * - an event seen before changes nothing;
 * - `refunded` is taken from any state: a refund proves the money came and went back, even if
 *   its event overtakes the payment's own (so it is taken from due or failed too); after it only
 *   a failed refund counts, which makes the payment `paid` again (the money never went back);
 * - after `paid` only a refund counts (a late failure never undoes a payment);
 * - `failed` lets the signer try again, and a later success makes it `paid`.
 * Answers the bundle, or undefined when the event names no bundle of ours. What the processor's
 * webhook reports is recorded as the service's doing.
 */
export function recordPaymentEvent(
  deps: { bundles: TBundleStore; clock: TClock },
  paymentEvent: TPaymentEvent,
): Promise<TBundle | undefined> {
  return recordPayment(deps, paymentEvent, SYSTEM);
}

/** recordPaymentEvent, with who acted: the operator, for a refund they asked for and the processor made at once. */
export async function recordPayment(
  deps: { bundles: TBundleStore; clock: TClock },
  paymentEvent: TPaymentEvent,
  by: TActor,
): Promise<TBundle | undefined> {
  try {
    return await changeBundle(deps, paymentEvent.accountId, paymentEvent.bundleId, (b) => {
      const p = b.payment;
      if (!p?.reference || !changes(p, paymentEvent)) return b;
      const now = deps.clock.now().toISOString();
      const billed = b.packets.find((k) => k.key === p.billedTo);
      const { outcome } = paymentEvent;
      const amount = `${p.amountDue} ${p.currency ?? ''}`.trim();
      const detail =
        outcome === 'failed' || outcome === 'refund_failed'
          ? `${paymentEvent.message ?? 'refused'} (${p.reference})`
          : `${amount} (${p.reference})`;
      const kind = KINDS[outcome];
      return {
        ...b,
        payment: {
          ...p,
          status: outcome === 'refund_failed' ? 'paid' : outcome,
          ...(outcome === 'refund_failed' ? { refundFailures: (p.refundFailures ?? 0) + 1 } : {}),
          eventIds: [...(p.eventIds ?? []), paymentEvent.id].slice(-REMEMBERED_EVENTS),
        },
        events: [...b.events, event(kind, now, by, billed?.id, detail)],
      };
    });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

const KINDS = {
  paid: 'paymentPaid',
  failed: 'paymentFailed',
  refunded: 'paymentRefunded',
  refund_failed: 'paymentRefundFailed',
} as const;

/** Whether the event moves the payment on (see recordPaymentEvent for the rules). */
function changes(p: TPayment, e: TPaymentEvent): boolean {
  if (p.eventIds?.includes(e.id)) return false;
  if (e.outcome === 'refund_failed') return p.status === 'refunded';
  if (p.status === 'refunded') return false;
  if (e.outcome === 'refunded') return true;
  return p.status !== 'paid';
}
