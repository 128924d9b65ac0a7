import { requireAdmin } from '../accounts/caller';
import type { TAccountStore } from '../ports/accounts';
import type { TBundleStore } from '../ports/bundles';
import type { TClock } from '../ports/system';
import type { TActing } from './actor';
import type { TBundle } from './bundle';
import { changeBundle } from './change-bundle';
import { releaseHold, setHold } from './retention';

/**
 * Sets (`hold`) or releases a bundle's legal hold, with its audit event and who acted: while
 * held, the retention policy deletes nothing of it. One conditional write on the bundle's
 * version, the same the scheduler's "deleting" mark takes, so of a hold and a deletion that
 * meet exactly one wins; a hold that loses is 409. Setting a hold twice, or releasing none,
 * changes nothing. An admin's call on the API (`userId`), or the operator's.
 */
export async function changeLegalHold(
  deps: { bundles: TBundleStore; accounts: TAccountStore; clock: TClock },
  acting: TActing & { userId?: string },
  id: string,
  hold: boolean,
): Promise<TBundle> {
  if (acting.userId !== undefined) {
    await requireAdmin(
      deps,
      { accountId: acting.accountId, userId: acting.userId },
      'set or release a legal hold',
    );
  }
  return changeBundle(deps, acting.accountId, id, (b) =>
    hold ? setHold(b, deps.clock.now(), acting.by) : releaseHold(b, deps.clock.now(), acting.by),
  );
}
