// What a deletion by policy needs, in one place for the scheduler and the operator's
// run-retention: the bundle store, the eraser, and the bulk batches whose shared documents go
// with their last bundle's originals (shared/domain/bulk/erase-batch-documents.ts).
import { eraseBatchDocumentsWhenDone, type TBatchErased } from '#shared/domain/bulk/erase-batch-documents';
import type { TBulkStore } from '#shared/domain/ports/bulk';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import type { TBlobEraser } from '#shared/domain/ports/files';
import type { TSharedOriginals } from '#shared/domain/scheduler/delete-by-policy';

export function retentionDeps(
  stores: { bundles: TBundleStore; bulk: TBulkStore; eraser: TBlobEraser },
  /** Told of each batch whose objects were erased (a log line; never the rows' data). */
  onBatchErased: (erased: TBatchErased) => void = () => undefined,
): { bundles: TBundleStore; eraser: TBlobEraser; sharedOriginals: TSharedOriginals } {
  const { bundles, bulk, eraser } = stores;
  return {
    bundles,
    eraser,
    async sharedOriginals(bundle, now) {
      const erased = await eraseBatchDocumentsWhenDone(
        { bulk, eraser },
        bundle,
        await bundles.documents(bundle),
        now,
      );
      if (erased) onBatchErased(erased);
    },
  };
}
