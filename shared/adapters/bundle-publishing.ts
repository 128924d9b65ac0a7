import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TConfig } from '../config';
import { countMilestones } from '../domain/bundles/count-milestones';
import { publishBundleEvents, type TPublishDeps } from '../domain/outbox/publish-events';
import type { TBundleStore } from '../domain/ports/bundles';
import type { TMetrics } from '../domain/ports/metrics';
import { publishAfterWrite } from '../domain/webhooks/publish-after-write';
import type { TLogger } from '../logger';
import { createSqsClient } from './aws/clients';
import { createBundleStore } from './dynamodb/bundle-store';
import { createWebhookEventStore } from './dynamodb/webhook-event-store';
import { createWebhookStore } from './dynamodb/webhook-store';
import { createSqsQueue } from './sqs/queue';
import { systemClock } from './system';
import { noMetrics } from './telemetry/metrics';

/** What publishing webhook events needs, from config: used by every function that changes bundles. */
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
 * The bundle store that publishes the webhook events of each change it writes, and counts the
 * bundles sent and completed.
 */
export function createPublishingBundleStore(
  config: TConfig,
  db: DynamoDBDocumentClient,
  log: TLogger,
  metrics: TMetrics = noMetrics,
): TBundleStore {
  const deps = publishDeps(config, db);
  const published = publishAfterWrite(
    deps.bundles,
    {
      prepare: (bundle) => deps.webhooks.all(bundle.accountId),
      publish: (bundle, webhooks) => publishBundleEvents(deps, bundle, webhooks),
    },
    (err, bundle) =>
      log.error('webhook events not published; the sweeper will retry', {
        bundleId: bundle.id,
        error: (err as Error).message,
      }),
  );
  return countMilestones(published, metrics);
}
