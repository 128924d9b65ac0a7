import type { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { createDocumentClient, createSqsClient } from '../../shared/adapters/aws/clients';
import { createWebhookEventStore } from '../../shared/adapters/dynamodb/webhook-event-store';
import { createWebhookSecretStore, createWebhookStore } from '../../shared/adapters/dynamodb/webhook-store';
import { createWebhookCaller } from '../../shared/adapters/fetch/webhook-caller';
import { createSecretCipher } from '../../shared/adapters/secrets/cipher';
import { jobBatch } from '../../shared/adapters/sqs/job-batch';
import { createRetryLater } from '../../shared/adapters/sqs/retry-later';
import { randomIds, systemClock } from '../../shared/adapters/system';
import { withTelemetry } from '../../shared/adapters/telemetry/telemetry';
import { type TFunctionOptions, telemetryOf } from '../../shared/composition/function-base';
import type { TWebhookJob } from '../../shared/domain/outbox/jobs';
import type { TWebhookCaller } from '../../shared/domain/ports/webhooks';
import { deliverEvent, type TDeliverDeps } from '../../shared/domain/webhooks/deliver-event';

/**
 * Composition root of the webhook dispatcher, fed by the webhookDeliveries queue (an SQS event
 * source on AWS, infra/local/queue-consumer.ts locally). The jobs of a batch are delivered side
 * by side, each bounded by the caller's 10-second deadline, so one slow receiver holds up no
 * other. A failed attempt stays on the queue, hidden until its retry is due (its visibility
 * timeout set to the schedule's delay), and is reported as a batch item failure.
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

  async function handle(job: TWebhookJob, attempt: number, record: SQSRecord): Promise<boolean> {
    const outcome = await deliverEvent(deps, job, attempt);
    if (outcome.kind === 'done') return true;
    // Visible again when the retry is due; after the last attempt at once, so that the queue's
    // redrive moves it to the dead-letter queue on its next receive.
    const delay = outcome.kind === 'retry' ? outcome.delaySeconds : 0;
    await retryLater(record, delay);
    log.info('webhook delivery failed', { eventId: job.eventId, attempt, outcome: outcome.kind, delay });
    return false;
  }

  // Side by side: each call ends within its 10-second deadline, so no receiver holds up another.
  const batch = jobBatch({
    queue: 'webhookDeliveries',
    inParallel: true,
    log,
    async handle(job, attempt, record) {
      try {
        return await handle(job, attempt, record);
      } catch (err) {
        // A fault of ours (the table, the secret): the job comes back after the queue's
        // visibility timeout, and the receive counts as an attempt.
        log.error('webhook job failed', { messageId: record.messageId, error: (err as Error).message });
        return false;
      }
    },
  });
  return withTelemetry(telemetry, batch);
}
