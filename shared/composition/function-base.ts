// Composition, not an adapter: what every function starts from (config, table client, telemetry
// with its logger and metrics, and the stores most of them need), wired from the adapters once.
// Only functions/ and infra/ build on it (.dependency-cruiser.cjs, composition-at-the-edge).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { rateLimitUsageFor } from '#shared/adapters/apigateway/cached-usage-reader';
import { createDocumentClient, createS3Client } from '#shared/adapters/aws/clients';
import { accountOfRequest, createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createIdempotencyStore } from '#shared/adapters/dynamodb/idempotency-store';
import { createBlobStore } from '#shared/adapters/s3/blob-store';
import { randomIds, systemClock } from '#shared/adapters/system';
import { createLogger } from '#shared/adapters/telemetry/logger';
import { quietTelemetry, type TTelemetry } from '#shared/adapters/telemetry/telemetry';
import type { TConfig } from '#shared/config';
import type { TMetrics } from '#shared/domain/ports/metrics';
import type { TLogger } from '#shared/logger';
import { createCountingBundleStore } from './bundle-publishing';

/**
 * The documents bucket as every function writes and reads it: the stack's documents key, or the
 * account's own key as its record says in each request (object-encryption.ts): the account the
 * request read already (its use case, or an earlier document of it), else read once for it.
 */
export function documentBlobs(config: TConfig, db: DynamoDBDocumentClient) {
  const accounts = createAccountStore(db, config.tableName);
  return createBlobStore(createS3Client(config), config.bucketName, {
    ...(config.documentsKeyId ? { defaultKeyId: config.documentsKeyId } : {}),
    accountKeyOf: async (accountId, options) =>
      (await accountOfRequest(accounts, accountId, options))?.documentsKey,
  });
}

/**
 * What a composition root is given: its configuration and telemetry (the Lambda entry's, or the
 * local runtime's); tests may hand in a table client, or a logger alone.
 */
export interface TFunctionOptions {
  config: TConfig;
  db?: DynamoDBDocumentClient;
  telemetry?: TTelemetry;
  log?: TLogger;
}

/** A function's telemetry: the one given, with `log` in place of its logger when given too. */
export function telemetryOf(opts: TFunctionOptions): TTelemetry {
  const telemetry = opts.telemetry ?? quietTelemetry(opts.log ?? createLogger(opts.config.logLevel));
  return opts.log ? { ...telemetry, log: opts.log } : telemetry;
}

/** The configuration, table client and telemetry every composition root builds its adapters from. */
export function functionBase(opts: TFunctionOptions) {
  const { config } = opts;
  const telemetry = telemetryOf(opts);
  return {
    config,
    db: opts.db ?? createDocumentClient(config),
    telemetry,
    log: telemetry.log,
    metrics: telemetry.metrics,
  };
}

/**
 * The adapters every function that works on bundles uses: the bundle store that counts the
 * milestones of its changes (their effects are published from the outbox by the outbox relay),
 * the accounts (settings, branding), the documents bucket, the clock and ids.
 */
export function bundleAdapters(config: TConfig, db: DynamoDBDocumentClient, metrics: TMetrics) {
  return {
    bundles: createCountingBundleStore(config, db, metrics),
    accounts: createAccountStore(db, config.tableName),
    blobs: documentBlobs(config, db),
    clock: systemClock,
    ids: randomIds,
  };
}

/**
 * What a keyed API's handler is given (createApiHandler's options): the usage its rate limit
 * headers come from, and the table its Idempotency-Key records are kept in.
 */
export function keyedApi(config: TConfig, db: DynamoDBDocumentClient) {
  return {
    usage: rateLimitUsageFor(config),
    idempotency: createIdempotencyStore(db, config.tableName),
    config,
  };
}
