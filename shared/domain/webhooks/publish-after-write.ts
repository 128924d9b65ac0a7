import type { TBundle } from '../bundles/bundle';
import type { TBundleStore } from '../ports/bundles';

/** Publishing a written bundle's outbox, with what `prepare` read for it while it was written. */
export interface TPublisher<TPrepared> {
  /** Reads what publishing needs and the write does not change (the account's webhooks). */
  prepare(bundle: TBundle): Promise<TPrepared>;
  publish(bundle: TBundle, prepared: Promise<TPrepared>): Promise<void>;
}

/**
 * The bundle store as the functions that change bundles use it: each write that leaves webhook
 * events in the bundle's outbox is followed by publishing them, before the request answers (a
 * Lambda may be frozen as soon as it has answered). Publishing failing does not fail the change,
 * which is already written: the outbox keeps the events and the sweeper publishes them. What
 * publishing reads is read beside the write, and it publishes beside the writes of the bundle's
 * lookup items, not after them: a signer waits two round trips less. When the write loses its
 * race the read is simply not used.
 */
export function publishAfterWrite<TPrepared>(
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
    async save(bundle, previous, written) {
      const publish = publishing(bundle);
      if (!publish) return store.save(bundle, previous, written);
      await store.save(bundle, previous, async () => {
        await Promise.all([publish(), written?.()]);
      });
    },
  };
}
