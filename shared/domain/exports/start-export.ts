// Starting an account's export (POST /account/exports/, admins only; or the operator's
// export-account) and reading how it stands (GET /account/exports/{id}/). Starting is one
// conditional write: while an export runs, a second start is refused with 409 and the running
// one's id, so two starts at once give exactly one export.
import { requireAdmin, type TCaller } from '../accounts/caller';
import { ConflictError, NotFoundError } from '../errors';
import type { TAccountStore } from '../ports/accounts';
import type { TExportStore } from '../ports/exports';
import type { TBlobStore } from '../ports/files';
import type { TQueue } from '../ports/queue';
import type { TClock, TIds } from '../ports/system';
import { EXPORT_LEASE_MS, LINK_SECONDS, type TExport } from './export';

export interface TStartExportDeps {
  accounts: TAccountStore;
  exports: TExportStore;
  clock: TClock;
  ids: TIds;
}

/** The export record made and claimed; the caller then has it built (queued, or in process). */
export async function claimExport(
  deps: TStartExportDeps,
  accountId: string,
  caller: TCaller | undefined,
): Promise<TExport> {
  if (caller) await requireAdmin(deps, caller, "export the account's data");
  if (!(await deps.accounts.getAccount(accountId))) throw new NotFoundError('Account not found.');
  const now = deps.clock.now();
  const record: TExport = {
    id: deps.ids.uuid(),
    accountId,
    status: 'queued',
    created: now.toISOString(),
    requestedBy: caller ? { type: 'user', userId: caller.userId } : { type: 'operator' },
    progress: { done: 0, total: 0 },
    leaseUntil: new Date(now.getTime() + EXPORT_LEASE_MS).toISOString(),
    version: 1,
  };
  if (!(await deps.exports.start(record, now.toISOString()))) {
    const running = await deps.exports.get(accountId);
    throw new ConflictError(
      `An export of this account is already under way (${running?.id ?? 'started just now'}). ` +
        'Follow it with GET /account/exports/{id}/ and start another once it has finished.',
    );
  }
  return record;
}

/** Starts an export built by the document worker: the API's way. */
export async function startExport(
  deps: TStartExportDeps & { queue: TQueue },
  caller: TCaller,
): Promise<TExport> {
  const record = await claimExport(deps, caller.accountId, caller);
  await deps.queue.send('documentJobs', { type: 'export', accountId: record.accountId, exportId: record.id });
  return record;
}

/** The export with its download link once done; another account's id, or an older one, is 404. */
export async function getExport(
  deps: {
    accounts: TAccountStore;
    exports: TExportStore;
    blobs: Pick<TBlobStore, 'presignGet'>;
    clock: TClock;
  },
  caller: TCaller,
  id: string,
): Promise<{ record: TExport; link?: { url: string; expires: string } }> {
  await requireAdmin(deps, caller, "export the account's data");
  const record = await deps.exports.get(caller.accountId);
  if (!record || record.id !== id) throw new NotFoundError('Export not found.');
  if (record.status !== 'done' || !record.archive) return { record };
  const url = await deps.blobs.presignGet(record.archive.key, LINK_SECONDS);
  return {
    record,
    link: { url, expires: new Date(deps.clock.now().getTime() + LINK_SECONDS * 1000).toISOString() },
  };
}
