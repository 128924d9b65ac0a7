import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createSqsClient } from '#shared/adapters/aws/clients';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { createWebhookEventStore } from '#shared/adapters/dynamodb/webhook-event-store';
import { createWebhookStore } from '#shared/adapters/dynamodb/webhook-store';
import { createSqsQueue } from '#shared/adapters/sqs/queue';
import { systemClock } from '#shared/adapters/system';
import { noMetrics } from '#shared/adapters/telemetry/metrics';
import type { TConfig } from '#shared/config';
import { countMilestones } from '#shared/domain/outbox/milestones-store';
import type { TPublishDeps } from '#shared/domain/outbox/publish-events';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import type { TMetrics } from '#shared/domain/ports/metrics';

/** What publishing a bundle's outbox needs, from config: the stores and queues it writes to. */
export function publishDeps(config: TConfig, db: DynamoDBDocumentClient): TPublishDeps {
  return {
    bundles: createBundleStore(db, config.tableName),
    webhooks: createWebhookStore(db, config.tableName),
    webhookEvents: createWebhookEventStore(db, config.tableName),
    queue: createSqsQueue(createSqsClient(config), config.queues ?? {}),
    clock: systemClock,
  };
}

/**
 * The bundle store of every function that changes bundles: each write counts the milestones it
 * reaches; what it sets off is published from its outbox by the outbox relay.
 */
export function createCountingBundleStore(
  config: TConfig,
  db: DynamoDBDocumentClient,
  metrics: TMetrics = noMetrics,
): TBundleStore {
  return countMilestones(createBundleStore(db, config.tableName), metrics);
}
