import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TConfig } from '../config';
import { publishBundleEvents, type TPublishDeps } from '../domain/outbox/publish-events';
import { publishAfterWrite } from '../domain/webhooks/publish-after-write';
import type { TLogger } from '../logger';
import type { TBundleStore } from '../ports/bundles';
import { createSqsClient } from './aws/clients';
import { createBundleStore } from './dynamodb/bundle-store';
import { createWebhookEventStore } from './dynamodb/webhook-event-store';
import { createWebhookStore } from './dynamodb/webhook-store';
import { createSqsQueue } from './sqs/queue';
import { systemClock } from './system';

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

/** The bundle store that publishes the webhook events of each change it writes. */
export function createPublishingBundleStore(
  config: TConfig,
  db: DynamoDBDocumentClient,
  log: TLogger,
): TBundleStore {
  const deps = publishDeps(config, db);
  return publishAfterWrite(
    deps.bundles,
    (bundle) => publishBundleEvents(deps, bundle),
    (err, bundle) =>
      log.error('webhook events not published; the sweeper will retry', {
        bundleId: bundle.id,
        error: (err as Error).message,
      }),
  );
}
