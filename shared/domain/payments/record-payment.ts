import type { TBundleStore, TClock, TPaymentEvent } from '../../ports';
import type { TBundle } from '../bundles/bundle';
import { changeBundle } from '../bundles/change-bundle';
import { event } from '../bundles/send-bundle';
import { NotFoundError } from '../errors';

/** How many processor event ids a payment remembers: more than a processor ever repeats. */
const REMEMBERED_EVENTS = 20;

/**
 * Records what the processor says happened to a bundle's payment, idempotently: an event seen
 * before, one for another payment, and anything after `paid` or `refunded` change nothing (a late
 * failure never undoes a payment). `failed` lets the signer try again on the same payment.
 * Answers the bundle, or undefined when the event names no bundle of ours.
 */
export async function recordPaymentEvent(
  deps: { bundles: TBundleStore; clock: TClock },
  paymentEvent: TPaymentEvent,
): Promise<TBundle | undefined> {
  try {
    return await changeBundle(deps, paymentEvent.accountId, paymentEvent.bundleId, (b) => {
      const p = b.payment;
      if (!p || p.reference !== paymentEvent.reference) return b;
      if (p.eventIds?.includes(paymentEvent.id)) return b;
      if (p.status === 'paid' || p.status === 'refunded') return b;
      const now = deps.clock.now().toISOString();
      const billed = b.packets.find((k) => k.key === p.billedTo);
      const paid = paymentEvent.outcome === 'paid';
      const detail = paid
        ? `${p.amountDue} ${p.currency ?? ''} (${p.reference})`
        : `${paymentEvent.message ?? 'refused'} (${p.reference})`;
      return {
        ...b,
        payment: {
          ...p,
          status: paid ? 'paid' : 'failed',
          eventIds: [...(p.eventIds ?? []), paymentEvent.id].slice(-REMEMBERED_EVENTS),
        },
        events: [...b.events, event(paid ? 'paymentPaid' : 'paymentFailed', now, billed?.id, detail)],
      };
    });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}
