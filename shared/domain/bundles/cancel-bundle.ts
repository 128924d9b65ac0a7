import type { TBundleStore } from '../ports/bundles';
import type { TClock } from '../ports/system';
import type { TActing } from './actor';
import type { TBundle } from './bundle';
import { changeBundle } from './change-bundle';
import { cancel } from './lifecycle/transitions';

/** `by` cancels a bundle that is not finished; its open packets are cancelled with it (409 when finished). */
export function cancelBundle(
  deps: { bundles: TBundleStore; clock: TClock },
  { accountId, by }: TActing,
  id: string,
): Promise<TBundle> {
  return changeBundle(deps, accountId, id, (b) => cancel(b, deps.clock.now(), by));
}
