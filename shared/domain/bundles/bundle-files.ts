import type { TAccountStore, TBlobStore } from '../../ports';
import { ConflictError } from '../errors';
import type { TBundle } from './bundle';

/** How long a file link stays valid. */
export const FILE_LINK_SECONDS = 15 * 60;

/** Rule 5: files once complete with documents ready, or earlier with early file access. */
export async function filesAvailable(deps: { accounts: TAccountStore }, b: TBundle): Promise<boolean> {
  if (b.status === 'co' && b.docsReady) return true;
  return Boolean((await deps.accounts.getAccount(b.accountId))?.features.early_file_access);
}

/**
 * Time-limited links to the bundle's files. Until the evidence work produces final (stamped,
 * sealed) documents, the files are the originals as uploaded.
 */
export async function bundleFiles(
  deps: { accounts: TAccountStore; blobs: TBlobStore; clock: { now(): Date } },
  b: TBundle,
): Promise<{ file_url: string; expires: string; doc_key: string }[]> {
  if (!(await filesAvailable(deps, b))) {
    throw new ConflictError('Files are available once the bundle is complete and its documents are ready.');
  }
  const expires = new Date(deps.clock.now().getTime() + FILE_LINK_SECONDS * 1000).toISOString();
  return Promise.all(
    b.documents.map(async (d) => ({
      file_url: await deps.blobs.presignGet(d.blobKey, FILE_LINK_SECONDS),
      expires,
      doc_key: d.key,
    })),
  );
}
