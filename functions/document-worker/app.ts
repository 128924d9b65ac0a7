import type { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { createDocumentClient, createS3Client, createSqsClient } from '../../shared/adapters/aws/clients';
import { createPublishingBundleStore } from '../../shared/adapters/bundle-publishing';
import { createEvidenceStore } from '../../shared/adapters/dynamodb/evidence-store';
import { createSigningRecordStore } from '../../shared/adapters/dynamodb/signing-record-store';
import { createEvidencePdf, sealIdentityFromConfig } from '../../shared/adapters/pdf/evidence-pdf';
import { createBlobStore } from '../../shared/adapters/s3/blob-store';
import { jobBatch } from '../../shared/adapters/sqs/job-batch';
import { createRetryLater } from '../../shared/adapters/sqs/retry-later';
import { randomIds, systemClock } from '../../shared/adapters/system';
import { withTelemetry } from '../../shared/adapters/telemetry/telemetry';
import { type TFunctionOptions, telemetryOf } from '../../shared/composition/function-base';
import {
  EvidenceInputError,
  type TEvidenceDeps,
  type TJobOutcome,
} from '../../shared/domain/evidence/evidence-deps';
import { DOCUMENT_MAX_ATTEMPTS } from '../../shared/domain/evidence/evidence-files';
import {
  bundleErrorOf,
  failDocumentJob,
  noteDocumentJobRetry,
} from '../../shared/domain/evidence/fail-document-job';
import { produceFinalFiles } from '../../shared/domain/evidence/produce-final-files';
import { produceInterimFiles } from '../../shared/domain/evidence/produce-interim-files';
import { retryDelaySeconds } from '../../shared/domain/outbox/jobs';
import type { TDocumentJob } from '../../shared/domain/outbox/outbox';
import type { TEvidencePdf } from '../../shared/domain/ports/evidence';

/** The job's use case: final documents and certificates, or interim files. */
function runDocumentJob(deps: TEvidenceDeps, job: TDocumentJob): Promise<TJobOutcome> {
  return job.type === 'final' ? produceFinalFiles(deps, job) : produceInterimFiles(deps, job);
}

/**
 * Composition root of the document worker, fed by the documentJobs queue (an SQS event source,
 * batch size 1, with batch item failures on AWS; infra/local/queue-consumer.ts locally). A job
 * that fails is hidden until its retry is due (DOCUMENT_RETRY_DELAYS_SECONDS, growing) and
 * reported failed; after its last attempt, or at once for a fault of the bundle's inputs that no
 * retry mends (EvidenceInputError), the bundle is marked failed (`fa`, `errors`, bundle_error)
 * and the job is done. Only a job whose failure could not even be recorded goes to the DLQ.
 */
export function buildDocumentWorker(opts: TFunctionOptions & { sqs?: SQSClient; pdf?: TEvidencePdf }) {
  const { config } = opts;
  const db = opts.db ?? createDocumentClient(config);
  const sqs = opts.sqs ?? createSqsClient(config);
  const telemetry = telemetryOf(opts);
  const { log, metrics } = telemetry;
  const scale = config.documentRetryScale ?? 1;
  const deps: TEvidenceDeps = {
    bundles: createPublishingBundleStore(config, db, log, metrics),
    records: createSigningRecordStore(db, config.tableName),
    blobs: createBlobStore(createS3Client(config), config.bucketName),
    evidence: createEvidenceStore(db, config.tableName),
    pdf: opts.pdf ?? createEvidencePdf(sealIdentityFromConfig(config), config),
    clock: systemClock,
    ids: randomIds,
  };

  const retryLater = createRetryLater(sqs, config.queues?.documentJobs, log);

  async function handle(job: TDocumentJob, attempt: number, record: SQSRecord): Promise<boolean> {
    const about = { type: job.type, bundleId: job.bundleId, seq: job.seq, attempt };
    const started = Date.now();
    const attempted = (outcome: 'done' | 'waiting' | 'retry' | 'failed') =>
      metrics.count('DocumentJobAttempts', { outcome });
    try {
      const outcome = await runDocumentJob(deps, job);
      if (outcome.kind === 'done') {
        const ms = Date.now() - started;
        attempted('done');
        if (job.type === 'final') metrics.duration('SealTime', ms);
        log.info('document job done', { ...about, detail: outcome.detail, ms });
        return true;
      }
      attempted('waiting');
      log.info('document job waits for another run of it', { ...about, seconds: outcome.seconds });
      await retryLater(record, outcome.seconds);
      return false;
    } catch (err) {
      const final = err instanceof EvidenceInputError || attempt >= DOCUMENT_MAX_ATTEMPTS;
      attempted(final ? 'failed' : 'retry');
      log.error('document job failed', {
        ...about,
        error: (err as Error).message,
        name: (err as Error).name,
        final,
      });
      if (final) {
        try {
          await failDocumentJob(deps, job, bundleErrorOf(err, attempt));
          return true;
        } catch (failure) {
          log.error('document job failure not recorded', { ...about, error: (failure as Error).message });
          await retryLater(record, 0);
          return false;
        }
      }
      try {
        await noteDocumentJobRetry(deps, job, bundleErrorOf(err, attempt));
      } catch (failure) {
        // The retry matters more than the note of it: it goes ahead either way.
        log.warn('document job retry not noted on the bundle', {
          ...about,
          error: (failure as Error).message,
        });
      }
      const delay = retryDelaySeconds('documentJobs', attempt, scale);
      await retryLater(record, delay);
      return false;
    }
  }

  // One job at a time: each may hold several PDFs in memory.
  return withTelemetry(telemetry, jobBatch({ queue: 'documentJobs', inParallel: false, handle, log }));
}
