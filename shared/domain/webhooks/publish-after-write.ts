import type { TBundleStore } from '../../ports/bundles';
import type { TBundle } from '../bundles/bundle';

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
 * publishing reads is read side by side with the write, not after it: a signer waits one round
 * trip less; when the write loses its race the read is simply not used.
 */
export function publishAfterWrite<TPrepared>(
  store: TBundleStore,
  publisher: TPublisher<TPrepared>,
  onError: (err: unknown, bundle: TBundle) => void,
): TBundleStore {
  const write = async (bundle: TBundle, written: () => Promise<void>) => {
    if (!bundle.outbox?.length) return written();
    const prepared = publisher.prepare(bundle);
    // Not awaited when the write fails: its failure is the write's to report, not this read's.
    prepared.catch(() => undefined);
    await written();
    try {
      await publisher.publish(bundle, prepared);
    } catch (err) {
      onError(err, bundle);
    }
  };
  return {
    ...store,
    create: (bundle, documents) => write(bundle, () => store.create(bundle, documents)),
    save: (bundle, previous) => write(bundle, () => store.save(bundle, previous)),
  };
}
