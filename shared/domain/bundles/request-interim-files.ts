import { ConflictError, PermissionDeniedError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TBundleStore } from '../ports/bundles';
import type { TClock } from '../ports/system';
import type { TActing } from './actor';
import { event } from './audit-event';
import { changeBundle } from './change-bundle';
import { bundleAt } from './expiry';
import { getBundle } from './get-bundle';
import { isFinished } from './lifecycle/status';

/**
 * PUT /bundles/{id}/files/: interim files of a bundle in progress, for accounts with early file
 * access (403 without it: interim files are files, and rule 5 gives files before completion
 * only to them); refused for a finished bundle (409, spec rule 3). The request is an audit event
 * (`if`) that sets off an interim job for the document worker (EFFECTS.interimRequested); the answer is 202 and
 * GET files/ shows the interim files once they are made (until then what it showed before).
 */
export async function requestInterimFiles(
  deps: { bundles: TBundleStore; accounts: TAccountStore; clock: TClock },
  { accountId, by }: TActing,
  id: string,
): Promise<void> {
  const b = await getBundle(deps, accountId, id);
  const account = await deps.accounts.getAccount(accountId);
  if (!account?.features.early_file_access) {
    throw new PermissionDeniedError('Interim files need the early file access feature.');
  }
  // As of now: a bundle past its expiry is finished (expired), whether or not it is recorded yet.
  const now = deps.clock.now();
  const finished = (x: typeof b) => {
    const status = bundleAt(x, now).status;
    if (isFinished(status)) throw new ConflictError(`The bundle is finished ("${status}").`);
  };
  finished(b);
  const at = now.toISOString();
  await changeBundle(deps, accountId, id, (current) => {
    finished(current);
    return { ...current, events: [...current.events, event('interimRequested', at, by)] };
  });
}
