// The bundle store every function that changes bundles is given (shared/composition/function-base.ts):
// it counts the milestones its writes reach. What a write's audit events set off is in the
// bundle's outbox, written with it (effects.ts); the outbox relay publishes it from the table's
// stream (functions/outbox-relay/), so the request answers without waiting for it.
import { isBundleComplete, isOut, type TBundleStatus } from '../bundles/lifecycle/status';
import type { TBundleStore } from '../ports/bundles';
import type { TMetrics } from '../ports/metrics';
import { MILESTONES, type TMilestone } from './effects';

/**
 * The status each milestone of the effect table is reached at. Counted on the status a write
 * reaches, not on its events: a bundle made and sent at once, or a draft sent, counts alike.
 */
const REACHED: Record<TMilestone, (status: TBundleStatus) => boolean> = {
  BundlesSent: isOut,
  BundlesCompleted: isBundleComplete,
};

/** Which milestones a write from `before` (none for a new bundle) to `after` reaches. */
function milestonesOf(before: TBundleStatus | undefined, after: TBundleStatus): TMilestone[] {
  return MILESTONES.filter((m) => REACHED[m](after) && (before === undefined || !REACHED[m](before)));
}

/**
 * The bundle store that counts bundles sent and completed as their writes succeed: a write that
 * lost a race (a conditional write refused) counts nothing, so a change retried or made twice
 * counts once.
 */
export function countMilestones(store: TBundleStore, metrics: TMetrics): TBundleStore {
  const count = (before: TBundleStatus | undefined, after: TBundleStatus) => {
    for (const m of milestonesOf(before, after)) metrics.count(m);
  };
  return {
    ...store,
    async create(bundle, documents) {
      await store.create(bundle, documents);
      count(undefined, bundle.status);
    },
    async save(bundle, previous, alongside) {
      await store.save(bundle, previous, alongside);
      count(previous.status, bundle.status);
    },
  };
}
