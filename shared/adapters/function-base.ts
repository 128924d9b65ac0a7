import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TConfig } from '../config';
import { createLogger, type TLogger } from '../logger';
import { createDocumentClient, createS3Client } from './aws/clients';
import { createPublishingBundleStore } from './bundle-publishing';
import { createAccountStore } from './dynamodb/account-store';
import { createBlobStore } from './s3/blob-store';
import { randomIds, systemClock } from './system';

/** What a composition root is given: its configuration; tests may hand in a table client and a logger. */
export interface TFunctionOptions {
  config: TConfig;
  db?: DynamoDBDocumentClient;
  log?: TLogger;
}

/** The configuration, table client and logger every composition root builds its adapters from. */
export function functionBase(opts: TFunctionOptions) {
  const { config } = opts;
  return {
    config,
    db: opts.db ?? createDocumentClient(config),
    log: opts.log ?? createLogger(config.logLevel),
  };
}

/**
 * The adapters every function that works on bundles uses: the bundle store that publishes the
 * webhook events of its changes, the accounts (settings, branding), the documents bucket, the
 * clock and ids.
 */
export function bundleAdapters(config: TConfig, db: DynamoDBDocumentClient, log: TLogger) {
  return {
    bundles: createPublishingBundleStore(config, db, log),
    accounts: createAccountStore(db, config.tableName),
    blobs: createBlobStore(createS3Client(config), config.bucketName),
    clock: systemClock,
    ids: randomIds,
  };
}
