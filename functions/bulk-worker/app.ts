import type { SQSClient } from '@aws-sdk/client-sqs';
import { createSqsClient } from '#shared/adapters/aws/clients';
import { createDocumentIntake } from '#shared/adapters/document-intake';
import { createBulkStore } from '#shared/adapters/dynamodb/bulk-store';
import { createDocTemplateStore } from '#shared/adapters/dynamodb/doc-template-store';
import { createEnvelopeTemplateStore } from '#shared/adapters/dynamodb/envelope-template-store';
import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { createWebhookEventStore } from '#shared/adapters/dynamodb/webhook-event-store';
import { createWebhookStore } from '#shared/adapters/dynamodb/webhook-store';
import { createSqsQueue } from '#shared/adapters/sqs/queue';
import { createRetryLater } from '#shared/adapters/sqs/retry-later';
import { withTelemetry } from '#shared/adapters/telemetry/telemetry';
import { bundleAdapters, functionBase, type TFunctionOptions } from '#shared/composition/function-base';
import { jobWorker } from '#shared/composition/job-batch';
import { DEFAULT_BULK_ROWS_PER_SECOND } from '#shared/domain/bulk/bulk-batch';
import { processBulkChunk, type TBulkChunkDeps } from '#shared/domain/bulk/process-bulk-chunk';
import { createBundle } from '#shared/domain/bundles/create-bundle';
import type { TBulkJob } from '#shared/domain/outbox/jobs/bulk-jobs';

/**
 * Composition root of the bulk worker, fed by the bulkJobs queue (an SQS event source, batch size
 * 1, with batch item failures on AWS; infra/local/queue-consumer.ts locally). Each job is one
 * chunk of a batch's rows; the job, its retries and its handler are
 * shared/domain/outbox/jobs/bulk-jobs.ts.
 */
export function buildBulkWorker(opts: TFunctionOptions & { sqs?: SQSClient }) {
  const { config, db, log, metrics, telemetry } = functionBase(opts);
  const sqs = opts.sqs ?? createSqsClient(config);
  const create = {
    ...bundleAdapters(config, db, metrics),
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

  const processChunk = (job: TBulkJob, lastAttempt: boolean) => processBulkChunk(deps, job, lastAttempt);
  return withTelemetry(telemetry, jobWorker('bulkJobs', { processChunk, log, metrics }, { log, retryLater }));
}
