// A bulk batch's own objects under retention: its request (the rows' names, addresses and
// values), its notes and the documents its bundles share are kept once for all its rows, so no
// one bundle's deletion may take them; the deletion of the last bundle's originals does.
import type { TBundle, TDocument } from '../bundles/bundle';
import { batchObjectsPrefix, batchOfSharedDocument } from '../bundles/document-sharing';
import type { TBulkStore } from '../ports/bulk';
import type { TBlobEraser } from '../ports/files';

export interface TBatchErased {
  accountId: string;
  batchId: string;
  /** Object versions erased. */
  erased: number;
}

/**
 * Called by the scheduler while it deletes a bundle's originals by policy, before it records
 * them deleted (scheduler/delete-by-policy.ts): a run that fails here leaves the bundle marked
 * and due, and the next run comes back. The bundle's row is marked first, then the rows read
 * again: of bundles erased side by side, the last to mark its row sees every other mark, so the
 * batch's objects go once every bundle the batch made has had its originals erased (a bundle
 * under legal hold never has: its batch's objects stay with it). Every version is erased; the
 * batch keeps the date and the SHA-256 of each shared document, as each bundle keeps its own.
 */
export async function eraseBatchDocumentsWhenDone(
  deps: { bulk: TBulkStore; eraser: TBlobEraser },
  bundle: Pick<TBundle, 'accountId' | 'id'>,
  documents: readonly Pick<TDocument, 'blobKey' | 'sha256'>[],
  now: Date,
): Promise<TBatchErased | undefined> {
  const { accountId } = bundle;
  const shared = documents.filter((d) => batchOfSharedDocument(accountId, d.blobKey));
  const batchId = shared[0] && batchOfSharedDocument(accountId, shared[0].blobKey);
  if (!batchId) return undefined;
  const batch = await deps.bulk.get(accountId, batchId);
  if (!batch || batch.documentsDeleted) return undefined;
  const row = (await deps.bulk.rowResults(batch)).find((r) => r.bundleId === bundle.id);
  if (!row) return undefined;
  const at = now.toISOString();
  if (!row.originalsErased) await deps.bulk.markOriginalsErased(row, at);
  // Rows still to come may make bundles that need the documents.
  if (!batch.completed) return undefined;
  const rows = await deps.bulk.rowResults(batch);
  if (rows.some((r) => r.status === 'created' && !r.originalsErased)) return undefined;
  const erased = await deps.eraser.eraseAll(batchObjectsPrefix(accountId, batchId));
  const sha256 = [...new Set(shared.map((d) => d.sha256))].sort();
  // Two last bundles may both get here: the erasing is idempotent, and one of them records it.
  await deps.bulk.markDocumentsDeleted(batch, { at, sha256 });
  return { accountId, batchId, erased };
}
