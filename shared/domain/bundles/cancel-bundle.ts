import type { TBundleStore, TClock } from '../../ports';
import { ConflictError } from '../errors';
import { isFinished, type TBundle } from './bundle';
import { changeBundle } from './change-bundle';
import { bundleAt } from './expiry';
import { event } from './send-bundle';

/** Cancels a bundle that is not finished; its open packets are cancelled with it. */
export function cancelBundle(
  deps: { bundles: TBundleStore; clock: TClock },
  accountId: string,
  id: string,
): Promise<TBundle> {
  return changeBundle(deps, accountId, id, (b) => {
    const at = deps.clock.now();
    // A bundle past its expiry is finished (expired), whether or not the scheduler recorded it.
    const status = bundleAt(b, at).status;
    if (isFinished(status)) throw new ConflictError(`The bundle is already finished ("${status}").`);
    const now = at.toISOString();
    return {
      ...b,
      status: 'ca',
      packets: b.packets.map((p) => (p.status === 'co' ? p : { ...p, status: 'ca' })),
      events: [...b.events, event('cancelled', now)],
    };
  });
}
