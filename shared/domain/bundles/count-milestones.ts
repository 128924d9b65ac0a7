import type { TBundleStore } from '../ports/bundles';
import type { TMetrics } from '../ports/metrics';
import { isBundleComplete, isOut, type TBundleStatus } from './lifecycle/status';

/** Which milestones a write from `before` (none for a new bundle) to `after` reaches. */
export function milestonesOf(before: TBundleStatus | undefined, after: TBundleStatus) {
  return {
    sent: isOut(after) && (before === undefined || !isOut(before)),
    completed: isBundleComplete(after) && (before === undefined || !isBundleComplete(before)),
  };
}

/**
 * The bundle store that counts bundles sent and completed as their writes succeed: a write that
 * lost a race (a conditional write refused) counts nothing, so a change retried or made twice
 * counts once.
 */
export function countMilestones(store: TBundleStore, metrics: TMetrics): TBundleStore {
  const count = (before: TBundleStatus | undefined, after: TBundleStatus) => {
    const reached = milestonesOf(before, after);
    if (reached.sent) metrics.count('BundlesSent');
    if (reached.completed) metrics.count('BundlesCompleted');
  };
  return {
    ...store,
    async create(bundle, documents) {
      await store.create(bundle, documents);
      count(undefined, bundle.status);
    },
    async save(bundle, previous, written) {
      await store.save(bundle, previous, written);
      count(previous.status, bundle.status);
    },
  };
}
