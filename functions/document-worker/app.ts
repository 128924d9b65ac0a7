import type { SQSClient } from '@aws-sdk/client-sqs';
import { createDocumentClient, createS3Client, createSqsClient } from '#shared/adapters/aws/clients';
import { createEvidenceStore } from '#shared/adapters/dynamodb/evidence-store';
import { createSigningRecordStore } from '#shared/adapters/dynamodb/signing-record-store';
import { createEvidencePdf, sealIdentityFromConfig } from '#shared/adapters/pdf/evidence-pdf';
import { inRequestScope } from '#shared/adapters/request-scope';
import { createRetryLater } from '#shared/adapters/sqs/retry-later';
import { randomIds, systemClock } from '#shared/adapters/system';
import { withTelemetry } from '#shared/adapters/telemetry/telemetry';
import { exportDeps } from '#shared/composition/account-export';
import { createCountingBundleStore } from '#shared/composition/bundle-publishing';
import { documentBlobs, type TFunctionOptions, telemetryOf } from '#shared/composition/function-base';
import { jobWorker } from '#shared/composition/job-batch';
import { EvidenceInputError, type TEvidenceDeps } from '#shared/domain/evidence/evidence-deps';
import {
  bundleErrorOf,
  failDocumentJob,
  noteDocumentJobRetry,
} from '#shared/domain/evidence/fail-document-job';
import { produceFinalFiles } from '#shared/domain/evidence/produce-final-files';
import { produceInterimFiles } from '#shared/domain/evidence/produce-interim-files';
import { buildExport } from '#shared/domain/exports/build-export';
import type { TDocumentJob } from '#shared/domain/outbox/jobs/document-jobs';
import type { TEvidencePdf } from '#shared/domain/ports/evidence';

/**
 * Composition root of the document worker, fed by the documentJobs queue (an SQS event source,
 * batch size 1, with batch item failures on AWS; infra/local/queue-consumer.ts locally): final
 * documents and certificates, or interim files; and accounts' exports. The job, its retries and its handler are
 * shared/domain/outbox/jobs/document-jobs.ts.
 */
export function buildDocumentWorker(opts: TFunctionOptions & { sqs?: SQSClient; pdf?: TEvidencePdf }) {
  const { config } = opts;
  const db = opts.db ?? createDocumentClient(config);
  const sqs = opts.sqs ?? createSqsClient(config);
  const telemetry = telemetryOf(opts);
  const { log, metrics } = telemetry;
  const scale = config.documentRetryScale ?? 1;
  const deps: TEvidenceDeps = {
    bundles: createCountingBundleStore(config, db, metrics),
    records: createSigningRecordStore(db, config.tableName),
    blobs: documentBlobs(config, db),
    evidence: createEvidenceStore(db, config.tableName),
    pdf: opts.pdf ?? createEvidencePdf(sealIdentityFromConfig(config), config),
    clock: systemClock,
    ids: randomIds,
  };

  const retryLater = createRetryLater(sqs, config.queues?.documentJobs, log);

  const exporting = exportDeps({
    db,
    tableName: config.tableName,
    s3: createS3Client(config),
    bucketName: config.bucketName,
    ...(config.documentsKeyId ? { documentsKeyId: config.documentsKeyId } : {}),
  });
  // Each job its own scope, as a request is: the account is read once for all its files'
  // key, not at each original, image and sealed file (request-scope.ts).
  const run = (job: TDocumentJob) =>
    inRequestScope(() =>
      job.type === 'final' ? produceFinalFiles(deps, job) : produceInterimFiles(deps, job),
    );
  const worker = jobWorker(
    'documentJobs',
    {
      run,
      isPermanent: (err) => err instanceof EvidenceInputError,
      fail: (job, err, attempt) => failDocumentJob(deps, job, bundleErrorOf(err, attempt)),
      noteRetry: (job, err, attempt) => noteDocumentJobRetry(deps, job, bundleErrorOf(err, attempt)),
      runExport: async (job) => {
        await inRequestScope(() => buildExport(exporting, job.accountId, job.exportId));
      },
      log,
      metrics,
      retryScale: scale,
    },
    { log, retryLater },
  );
  return withTelemetry(telemetry, worker);
}
