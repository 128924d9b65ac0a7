import { isFinished } from '../bundles/lifecycle/status';
import { ConflictError } from '../errors';
import type { TBundleStore } from '../ports/bundles';
import type { TPersonStore } from '../ports/persons';
import { retryOnConflict } from '../retry-on-conflict';
import { getPerson } from './get-person';

/** A Person who signs in a bundle that is not finished stays: the bundle still needs them. */
export async function deletePerson(
  deps: { store: TPersonStore; bundles: TBundleStore },
  accountId: string,
  id: string,
): Promise<void> {
  await retryOnConflict(async () => {
    const current = await getPerson(deps, accountId, id);
    for (const bundleId of await deps.bundles.bundlesOfPerson(accountId, current.id)) {
      const bundle = await deps.bundles.get(accountId, bundleId);
      if (bundle && !isFinished(bundle.status)) {
        throw new ConflictError(`This person signs in bundle ${bundle.id}, which is not finished.`);
      }
    }
    await deps.store.delete(current);
  });
}
