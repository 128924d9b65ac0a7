import type { TAccountStore, TBundleStore } from '../../ports';
import { ConflictError, PermissionDeniedError } from '../errors';
import { isFinished } from './bundle';
import { getBundle } from './get-bundle';

/**
 * PUT /bundles/{id}/files/: interim files of a bundle in progress, for accounts with early file
 * access; refused for a finished bundle (spec rule 3). Interim files are the documents as they
 * stand; until signers fill fields they are the originals, which GET /files/ already links, so
 * there is nothing to wait for and the answer is 202 with the result ready to poll.
 */
export async function requestInterimFiles(
  deps: { bundles: TBundleStore; accounts: TAccountStore },
  accountId: string,
  id: string,
): Promise<void> {
  const b = await getBundle(deps, accountId, id);
  const account = await deps.accounts.getAccount(accountId);
  if (!account?.features.early_file_access) {
    throw new PermissionDeniedError('Interim files need the early file access feature.');
  }
  if (isFinished(b.status)) throw new ConflictError(`The bundle is finished ("${b.status}").`);
}
