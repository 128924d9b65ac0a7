import type { TBundleStore, TClock } from '../../ports';
import { ConflictError } from '../errors';
import { isFinished, type TBundle } from './bundle';
import { changeBundle } from './change-bundle';
import { event } from './send-bundle';

/** Cancels a bundle that is not finished; its open packets are cancelled with it. */
export function cancelBundle(
  deps: { bundles: TBundleStore; clock: TClock },
  accountId: string,
  id: string,
): Promise<TBundle> {
  return changeBundle(deps, accountId, id, (b) => {
    if (isFinished(b.status)) throw new ConflictError(`The bundle is already finished ("${b.status}").`);
    const now = deps.clock.now().toISOString();
    return {
      ...b,
      status: 'ca',
      packets: b.packets.map((p) => (p.status === 'co' ? p : { ...p, status: 'ca' })),
      events: [...b.events, event('cancelled', now)],
    };
  });
}
