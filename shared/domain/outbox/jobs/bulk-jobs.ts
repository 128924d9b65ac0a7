// The bulk job: one chunk of a bulk send's rows, run by the bulk worker (functions/bulk-worker)
// through shared/domain/bulk/process-bulk-chunk.ts; each row is created once however often its
// chunk runs.
import * as z from 'zod';
import { DONE, defineJob, retryAfter, retryDelayOf, retryPolicy, type THandlerDeps } from './job';

export const ZBulkJob = z.object({
  accountId: z.string().min(1),
  batchId: z.string().min(1),
  chunk: z.number().int().min(0),
  /** When the chunk's reserved time starts (epoch ms), once reserved (process-bulk-chunk.ts). */
  slot: z.number().int().min(0).optional(),
});
export type TBulkJob = z.infer<typeof ZBulkJob>;

export interface TBulkJobDeps extends THandlerDeps {
  /** Creates the chunk's rows (processBulkChunk); on the last attempt a failing row is recorded failed. */
  processChunk(job: TBulkJob, lastAttempt: boolean): Promise<void>;
}

const policy = retryPolicy([30, 120, 600]);

export const bulkJob = defineJob({
  schema: ZBulkJob,
  ...policy,
  // A chunk of 25 creates ends well within the worker's timeout.
  visibilityTimeoutSeconds: 300,
  // One chunk at a time: the chunks of a batch are paced one after another.
  inParallel: false,
  async handle(deps: TBulkJobDeps, job, attempt) {
    const about = { batchId: job.batchId, chunk: job.chunk, attempt };
    try {
      await deps.processChunk(job, attempt >= policy.maxAttempts);
      deps.log.info('bulk chunk done', about);
      return DONE;
    } catch (err) {
      deps.metrics.count('BulkChunkFailures');
      deps.log.error('bulk chunk failed', { ...about, error: (err as Error).message });
      return retryAfter(retryDelayOf(policy, attempt));
    }
  },
});
