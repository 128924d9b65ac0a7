import { requireAdmin } from '../accounts/caller';
import { ConflictError } from '../errors';
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
  const bundle = await changeBundle(deps, acting.accountId, id, (b) =>
    hold ? setHold(b, deps.clock.now(), acting.by) : releaseHold(b, deps.clock.now(), acting.by),
  );
  if (hold) await assertKeyKept(deps.accounts, acting.accountId);
  return bundle;
}

/**
 * A hold is written first and the account read after it, consistently; the destruction of the
 * account's key marks the account first and reads the bundles after it
 * (account-documents-key.ts). So one of the two sees the other: a hold that finds no mark is
 * seen by any destruction still to come, which refuses; a hold that finds one answers 409 and
 * stays written, so that a destruction not yet past its check refuses all the same.
 */
async function assertKeyKept(accounts: TAccountStore, accountId: string): Promise<void> {
  const key = (await accounts.getAccount(accountId, { consistent: true }))?.documentsKey;
  if (key?.destroyed) {
    throw new ConflictError(
      `The account's documents key was destroyed on ${key.destroyed.slice(0, 10)}: this bundle's documents can no longer be read, and a legal hold cannot keep them. If they must be kept, ask the service's operator before ${(key.deletionDate ?? key.destroyed).slice(0, 10)}: until then the key's deletion can still be cancelled.`,
    );
  }
  if (key?.destroying) {
    throw new ConflictError(
      "The account's documents key is being destroyed at this moment, so this bundle's documents may become unreadable. The hold is recorded, and a destruction that has not yet checked this bundle will be refused because of it. Send the same request again in a minute: it answers 200 once the destruction has been refused and the hold stands, 409 if the key was destroyed; if it still answers this, ask the service's operator.",
    );
  }
}
