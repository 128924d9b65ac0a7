// The bundle store every function that changes bundles is given (shared/adapters/function-base.ts):
// a bundle store whose writes set off what their audit events cause (effects.ts). A write puts
// those effects in the bundle's outbox; this store publishes them right after the write and
// counts the milestones the write reached.
import type { TBundle } from '../bundles/bundle';
import { isBundleComplete, isOut, type TBundleStatus } from '../bundles/lifecycle/status';
import type { TBundleStore } from '../ports/bundles';
import type { TMetrics } from '../ports/metrics';
import { MILESTONES, type TMilestone } from './effects';
import { publishBundleEvents, type TPublishDeps } from './publish-events';

/** What the publishing bundle store needs besides what publishing itself does. */
export type TPublishingDeps = TPublishDeps & {
  /**
   * True when the request that writes has just read the account (or is reading it) and it never
   * had a webhook: its webhooks then go unread. False whenever it is not known so; it never
   * reads the account itself, which would cost the request it saves.
   */
  neverHadWebhooks: (accountId: string) => Promise<boolean>;
};

/**
 * The publishing bundle store: each write is followed by publishing its outbox (webhook events,
 * messages, evidence jobs), and counts the bundles it sent and completed. `unpublished` hears of
 * a publishing that failed (the sweeper publishes it later).
 */
export function publishingBundleStore(
  deps: TPublishingDeps,
  metrics: TMetrics,
  unpublished: (err: unknown, bundle: TBundle) => void,
): TBundleStore {
  // An account that never had a webhook has none to read. Its mark is set before its first
  // webhook is written (webhook-store.ts), so a write that saw the mark unset misses only a
  // webhook created since that reading, as one whose webhooks were read misses one created since.
  const webhooksOf = async (accountId: string) =>
    (await deps.neverHadWebhooks(accountId)) ? [] : deps.webhooks.all(accountId);
  const published = publishAfterWrite(
    deps.bundles,
    {
      prepare: (bundle) => webhooksOf(bundle.accountId),
      publish: (bundle, webhooks) => publishBundleEvents(deps, bundle, webhooks),
    },
    unpublished,
  );
  return countMilestones(published, metrics);
}

/** Publishing a written bundle's outbox, with what `prepare` read for it while it was written. */
interface TPublisher<TPrepared> {
  /** Reads what publishing needs and the write does not change (the account's webhooks). */
  prepare(bundle: TBundle): Promise<TPrepared>;
  publish(bundle: TBundle, prepared: Promise<TPrepared>): Promise<void>;
}

/**
 * Each write that leaves effects in the bundle's outbox is followed by publishing them, before the
 * request answers (a Lambda may be frozen as soon as it has answered). Publishing failing does not
 * fail the change, which is already written: the outbox keeps the effects and the sweeper
 * publishes them. What publishing reads is read beside the write, and it publishes beside the
 * deletes of lookup items the change dropped, not after them. When the write loses its race the
 * read is simply not used.
 */
function publishAfterWrite<TPrepared>(
  store: TBundleStore,
  publisher: TPublisher<TPrepared>,
  onError: (err: unknown, bundle: TBundle) => void,
): TBundleStore {
  /** Publishing, once `bundle` is written; undefined when it has nothing to publish. */
  const publishing = (bundle: TBundle) => {
    if (!bundle.outbox?.length) return undefined;
    const prepared = publisher.prepare(bundle);
    // Not awaited when the write fails: its failure is the write's to report, not this read's.
    prepared.catch(() => undefined);
    return async () => {
      try {
        await publisher.publish(bundle, prepared);
      } catch (err) {
        onError(err, bundle);
      }
    };
  };
  return {
    ...store,
    async create(bundle, documents) {
      const publish = publishing(bundle);
      await store.create(bundle, documents);
      await publish?.();
    },
    async save(bundle, previous, written, alongside) {
      const publish = publishing(bundle);
      if (!publish) return store.save(bundle, previous, written, alongside);
      await store.save(
        bundle,
        previous,
        async () => {
          await Promise.all([publish(), written?.()]);
        },
        alongside,
      );
    },
  };
}

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
    async save(bundle, previous, written, alongside) {
      await store.save(bundle, previous, written, alongside);
      count(previous.status, bundle.status);
    },
  };
}
