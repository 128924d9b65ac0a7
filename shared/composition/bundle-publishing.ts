import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createSqsClient } from '#shared/adapters/aws/clients';
import { accountReadByRequest } from '#shared/adapters/dynamodb/account-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { createWebhookEventStore } from '#shared/adapters/dynamodb/webhook-event-store';
import { createWebhookStore } from '#shared/adapters/dynamodb/webhook-store';
import { createSqsQueue } from '#shared/adapters/sqs/queue';
import { systemClock } from '#shared/adapters/system';
import { noMetrics } from '#shared/adapters/telemetry/metrics';
import type { TConfig } from '#shared/config';
import type { TPublishDeps } from '#shared/domain/outbox/publish-events';
import { publishingBundleStore } from '#shared/domain/outbox/publishing-store';
import type { TBundleStore } from '#shared/domain/ports/bundles';
import type { TMetrics } from '#shared/domain/ports/metrics';
import type { TLogger } from '#shared/logger';

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
 * How long after the request started reading its account the reading still tells whether the
 * account never had a webhook: the finish reads it one round of requests before its bundle
 * write, opening a session beside it. A request that read it earlier (one that converted
 * documents or sealed since) reads the webhooks, so a webhook created meanwhile is not missed.
 */
const RECENT_ACCOUNT_READ_MS = 1000;

/** Whether the account, as this request read it a moment ago, never had a webhook. */
async function neverHadWebhooks(accountId: string): Promise<boolean> {
  const read = accountReadByRequest(accountId, RECENT_ACCOUNT_READ_MS);
  const account = await read?.catch(() => undefined);
  return account?.webhooksEverMade === false;
}

/** The publishing bundle store (shared/domain/outbox/publishing-store.ts) on the configured stores. */
export function createPublishingBundleStore(
  config: TConfig,
  db: DynamoDBDocumentClient,
  log: TLogger,
  metrics: TMetrics = noMetrics,
): TBundleStore {
  return publishingBundleStore({ ...publishDeps(config, db), neverHadWebhooks }, metrics, (err, bundle) =>
    log.error('webhook events not published; the sweeper will retry', {
      bundleId: bundle.id,
      error: (err as Error).message,
    }),
  );
}
