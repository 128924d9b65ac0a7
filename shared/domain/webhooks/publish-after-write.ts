import type { TBundleStore } from '../../ports/bundles';
import type { TBundle } from '../bundles/bundle';

/**
 * The bundle store as the functions that change bundles use it: each write that leaves webhook
 * events in the bundle's outbox is followed by publishing them, before the request answers (a
 * Lambda may be frozen as soon as it has answered). Publishing failing does not fail the change,
 * which is already written: the outbox keeps the events and the sweeper publishes them.
 */
export function publishAfterWrite(
  store: TBundleStore,
  publish: (bundle: TBundle) => Promise<void>,
  onError: (err: unknown, bundle: TBundle) => void,
): TBundleStore {
  const after = async (bundle: TBundle) => {
    if (!bundle.outbox?.length) return;
    try {
      await publish(bundle);
    } catch (err) {
      onError(err, bundle);
    }
  };
  return {
    ...store,
    async create(bundle, documents) {
      await store.create(bundle, documents);
      await after(bundle);
    },
    async save(bundle, previous) {
      await store.save(bundle, previous);
      await after(bundle);
    },
  };
}
