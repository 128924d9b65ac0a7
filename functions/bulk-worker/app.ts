import type { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { createSqsClient } from '../../shared/adapters/aws/clients';
import { createDocumentIntake } from '../../shared/adapters/document-intake';
import { createBulkStore } from '../../shared/adapters/dynamodb/bulk-store';
import { createDocTemplateStore } from '../../shared/adapters/dynamodb/doc-template-store';
import { createEnvelopeTemplateStore } from '../../shared/adapters/dynamodb/envelope-template-store';
import { createPersonStore } from '../../shared/adapters/dynamodb/person-store';
import { createWebhookEventStore } from '../../shared/adapters/dynamodb/webhook-event-store';
import { createWebhookStore } from '../../shared/adapters/dynamodb/webhook-store';
import { jobBatch } from '../../shared/adapters/sqs/job-batch';
import { createSqsQueue } from '../../shared/adapters/sqs/queue';
import { createRetryLater } from '../../shared/adapters/sqs/retry-later';
import { withTelemetry } from '../../shared/adapters/telemetry/telemetry';
import { bundleAdapters, functionBase, type TFunctionOptions } from '../../shared/composition/function-base';
import { DEFAULT_BULK_ROWS_PER_SECOND } from '../../shared/domain/bulk/bulk-batch';
import { processBulkChunk, type TBulkChunkDeps } from '../../shared/domain/bulk/process-bulk-chunk';
import { createBundle } from '../../shared/domain/bundles/create-bundle';
import { JOBS, retryDelaySeconds, type TBulkJob } from '../../shared/domain/outbox/jobs';

/**
 * Composition root of the bulk worker, fed by the bulkJobs queue (an SQS event source, batch size
 * 1, with batch item failures on AWS; infra/local/queue-consumer.ts locally). Each job is one
 * chunk of a batch's rows; a chunk that fails is hidden until its retry is due and run again,
 * which creates no row twice (process-bulk-chunk.ts).
 */
export function buildBulkWorker(opts: TFunctionOptions & { sqs?: SQSClient }) {
  const { config, db, log, metrics, telemetry } = functionBase(opts);
  const sqs = opts.sqs ?? createSqsClient(config);
  const create = {
    ...bundleAdapters(config, db, log, metrics),
    persons: createPersonStore(db, config.tableName),
    templates: createDocTemplateStore(db, config.tableName),
    envelopeTemplates: createEnvelopeTemplateStore(db, config.tableName),
    ...createDocumentIntake(config),
  };
  const deps: TBulkChunkDeps = {
    bulk: createBulkStore(db, config.tableName),
    blobs: create.blobs,
    queue: createSqsQueue(sqs, config.queues ?? {}),
    clock: create.clock,
    webhooks: createWebhookStore(db, config.tableName),
    webhookEvents: createWebhookEventStore(db, config.tableName),
    createBundle: (accountId, body, caller, made) =>
      createBundle(create, accountId, body, new Map(), caller, made),
    getBundle: (accountId, id) => create.bundles.get(accountId, id),
    rowsPerSecond: config.bulkRowsPerSecond ?? DEFAULT_BULK_ROWS_PER_SECOND,
  };
  const retryLater = createRetryLater(sqs, config.queues?.bulkJobs, log);

  async function handle(job: TBulkJob, attempt: number, record: SQSRecord): Promise<boolean> {
    const about = { batchId: job.batchId, chunk: job.chunk, attempt };
    try {
      await processBulkChunk(deps, job, attempt >= JOBS.bulkJobs.maxAttempts);
      log.info('bulk chunk done', about);
      return true;
    } catch (err) {
      metrics.count('BulkChunkFailures');
      log.error('bulk chunk failed', { ...about, error: (err as Error).message });
      await retryLater(record, retryDelaySeconds('bulkJobs', attempt));
      return false;
    }
  }

  // One chunk at a time: the chunks of a batch are paced one after another.
  return withTelemetry(telemetry, jobBatch({ queue: 'bulkJobs', inParallel: false, handle, log }));
}
