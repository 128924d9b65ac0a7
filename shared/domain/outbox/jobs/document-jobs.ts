// The document job: the evidence an audit event causes, made by the document worker
// (functions/document-worker) through shared/domain/evidence/: the final documents and
// certificates when the bundle is complete, or interim files when they are requested. The same
// queue and worker build an account's export (shared/domain/exports/build-export.ts): they have
// the reads of the table and the documents bucket it needs.
import * as z from 'zod';
import { DOCUMENT_JOB_TYPES } from '../outbox-entry';
import { DONE, defineJob, retryAfter, retryDelayOf, retryPolicy, type THandlerDeps } from './job';

export const ZDocumentJob = z.object({
  type: z.enum(DOCUMENT_JOB_TYPES),
  accountId: z.string().min(1),
  bundleId: z.string().min(1),
  /** The audit event's place in the bundle's history (`co` or `if`). */
  seq: z.number().int(),
  date: z.string().catch(''),
});
export type TDocumentJob = z.infer<typeof ZDocumentJob>;

export const ZExportJob = z.object({
  type: z.literal('export'),
  accountId: z.string().min(1),
  exportId: z.string().min(1),
});
export type TExportJob = z.infer<typeof ZExportJob>;

/** What the documentJobs queue carries: a bundle's files, or an account's export. */
export const ZDocumentQueueJob = z.discriminatedUnion('type', [ZDocumentJob, ZExportJob]);

/** What became of a job: done (nothing left to do), or to be run again after `seconds`. */
export type TJobOutcome = { kind: 'done'; detail: string } | { kind: 'wait'; seconds: number };

export interface TDocumentJobDeps extends THandlerDeps {
  /** Makes the job's files (produceFinalFiles, produceInterimFiles). */
  run(job: TDocumentJob): Promise<TJobOutcome>;
  /** A fault of the bundle's inputs that no retry mends (EvidenceInputError). */
  isPermanent(err: unknown): boolean;
  /** Marks the bundle failed (failDocumentJob): no retry mends what went wrong. */
  fail(job: TDocumentJob, err: unknown, attempt: number): Promise<void>;
  /** Notes on the bundle that the job failed and will be run again (noteDocumentJobRetry). */
  noteRetry(job: TDocumentJob, err: unknown, attempt: number): Promise<void>;
  /** Builds the export (buildExport), which records its own failure on the export record. */
  runExport(job: TExportJob): Promise<void>;
}

const policy = retryPolicy([30, 120, 600, 1800]);

/**
 * A job that fails is run again after its delay (growing); after its last attempt, or at once
 * for a fault of the bundle's inputs that no retry mends (EvidenceInputError), the bundle is
 * marked failed (`fa`, `errors`, bundle_error) and the job is done. Only a job whose failure
 * could not even be recorded goes to the dead-letter queue.
 */
export const documentJob = defineJob({
  schema: ZDocumentQueueJob,
  ...policy,
  visibilityTimeoutSeconds: 300,
  // One at a time: each may hold several PDFs in memory.
  inParallel: false,
  async handle(deps: TDocumentJobDeps, job, attempt) {
    const { log, metrics } = deps;
    if (job.type === 'export') {
      try {
        await deps.runExport(job);
        log.info('account export done', { exportId: job.exportId, attempt });
      } catch (err) {
        // The export record says failed, and the account's admin may start again: no retry.
        log.error('account export failed', { exportId: job.exportId, error: (err as Error).message });
      }
      return DONE;
    }
    const about = { type: job.type, bundleId: job.bundleId, seq: job.seq, attempt };
    const started = Date.now();
    const attempted = (outcome: 'done' | 'waiting' | 'retry' | 'failed') =>
      metrics.count('DocumentJobAttempts', { outcome });
    try {
      const outcome = await deps.run(job);
      if (outcome.kind === 'done') {
        const ms = Date.now() - started;
        attempted('done');
        if (job.type === 'final') metrics.duration('SealTime', ms);
        log.info('document job done', { ...about, detail: outcome.detail, ms });
        return DONE;
      }
      attempted('waiting');
      log.info('document job waits for another run of it', { ...about, seconds: outcome.seconds });
      return retryAfter(outcome.seconds);
    } catch (err) {
      const final = deps.isPermanent(err) || attempt >= policy.maxAttempts;
      attempted(final ? 'failed' : 'retry');
      log.error('document job failed', {
        ...about,
        error: (err as Error).message,
        name: (err as Error).name,
        final,
      });
      if (final) {
        try {
          await deps.fail(job, err, attempt);
          return DONE;
        } catch (failure) {
          log.error('document job failure not recorded', { ...about, error: (failure as Error).message });
          return retryAfter(0);
        }
      }
      try {
        await deps.noteRetry(job, err, attempt);
      } catch (failure) {
        // The retry matters more than the note of it: it goes ahead either way.
        log.warn('document job retry not noted on the bundle', {
          ...about,
          error: (failure as Error).message,
        });
      }
      return retryAfter(retryDelayOf(policy, attempt, deps.retryScale));
    }
  },
});
