import type * as z from 'zod';
import type { TBulkProgress } from '#shared/domain/bulk/get-bulk-batch';
import type { ZBulkBatchResponseSchema } from '#shared/schemas/responses/bulk';

type TBulkBatchResponse = z.input<typeof ZBulkBatchResponseSchema>;

/** A batch on the wire: counts by state, and a result for every row (pending until it has one). */
export function toBulkBatchResponse({ batch, results }: TBulkProgress): TBulkBatchResponse {
  const byRow = new Map(results.map((r) => [r.row, r]));
  const rows = Array.from({ length: batch.total }, (_, row) => {
    const r = byRow.get(row);
    if (!r) return { row, status: 'pending' as const };
    return {
      row,
      status: r.status,
      ...(r.bundleId ? { bundle_id: r.bundleId } : {}),
      ...(r.errors?.length ? { errors: r.errors } : {}),
    };
  });
  const created = results.filter((r) => r.status === 'created').length;
  const failed = results.filter((r) => r.status === 'failed').length;
  return {
    id: batch.id,
    status: batch.completed ? 'completed' : results.length > 0 ? 'running' : 'queued',
    created: batch.created,
    ...(batch.completed ? { completed: batch.completed } : {}),
    counts: { total: batch.total, pending: batch.total - created - failed, created, failed },
    rows,
    ...(batch.documentsDeleted
      ? {
          documents_deleted: { deleted_at: batch.documentsDeleted.at, sha256: batch.documentsDeleted.sha256 },
        }
      : {}),
  };
}
