import type { SQSClient } from '@aws-sdk/client-sqs';
import { createDocumentClient, createSqsClient } from '#shared/adapters/aws/clients';
import { createWebhookEventStore } from '#shared/adapters/dynamodb/webhook-event-store';
import { createWebhookSecretStore, createWebhookStore } from '#shared/adapters/dynamodb/webhook-store';
import { createWebhookCaller } from '#shared/adapters/fetch/webhook-caller';
import { createSecretCipher } from '#shared/adapters/secrets/cipher';
import { createRetryLater } from '#shared/adapters/sqs/retry-later';
import { randomIds, systemClock } from '#shared/adapters/system';
import { withTelemetry } from '#shared/adapters/telemetry/telemetry';
import { type TFunctionOptions, telemetryOf } from '#shared/composition/function-base';
import { jobWorker } from '#shared/composition/job-batch';
import type { TWebhookJob } from '#shared/domain/outbox/jobs/webhook-deliveries';
import type { TWebhookCaller } from '#shared/domain/ports/webhooks';
import { deliverEvent, type TDeliverDeps } from '#shared/domain/webhooks/deliver-event';

/**
 * Composition root of the webhook dispatcher, fed by the webhookDeliveries queue (an SQS event
 * source on AWS, infra/local/queue-consumer.ts locally); the job, its retries and its handler are
 * shared/domain/outbox/jobs/webhook-deliveries.ts.
 */
export function buildWebhookDispatcher(
  opts: TFunctionOptions & { sqs?: SQSClient; caller?: TWebhookCaller },
) {
  const { config } = opts;
  const db = opts.db ?? createDocumentClient(config);
  const sqs = opts.sqs ?? createSqsClient(config);
  const telemetry = telemetryOf(opts);
  const { log, metrics } = telemetry;
  const retryLater = createRetryLater(sqs, config.queues?.webhookDeliveries, log);
  const deps: TDeliverDeps = {
    webhooks: createWebhookStore(db, config.tableName),
    webhookEvents: createWebhookEventStore(db, config.tableName),
    webhookSecrets: createWebhookSecretStore(db, config.tableName),
    cipher: createSecretCipher(config),
    caller: opts.caller ?? createWebhookCaller(config.fetch ?? { allowHttp: true, allowLoopback: false }),
    ids: randomIds,
    clock: systemClock,
    retryScale: config.webhookRetryScale ?? 1,
    metrics,
  };

  const deliver = (job: TWebhookJob, attempt: number) => deliverEvent(deps, job, attempt);
  const batch = jobWorker('webhookDeliveries', { deliver, log, metrics }, { log, retryLater });
  return withTelemetry(telemetry, batch);
}
