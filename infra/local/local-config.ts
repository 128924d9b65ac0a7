// The functions' configuration locally: every AWS endpoint a stand-in's, the secrets key, seal,
// timestamp authority and payments of the local set-up, and the options' test knobs.

import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { documentsName } from '#shared/adapters/kms/documents-keys';
import { sealKeyAlias } from '#shared/adapters/sealing/seal-names';
import { LOCAL_SECRETS_KEY_BYTES } from '#shared/adapters/secrets/local-cipher';
import type { TConfig } from '#shared/config';
import { bulkRowsPerSecond } from '#shared/domain/bulk/bulk-batch';
import { DEFAULT_MAIL_FROM } from '#shared/domain/notifications/notification';
import type { TStageConfig } from '../stage-config';
import {
  dataPaths,
  LOCAL_BUCKET_NAME,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  LOCAL_SEAL_NAME,
  LOCAL_STAGE,
  LOCAL_TABLE_NAME,
} from './layout';
import type { TRuntimeOptions } from './runtime-options';
import type { TStandIns } from './stand-ins';
import type { LocalUsagePlan } from './usage-plan';

/**
 * The key that seals webhook secrets locally, as KMS does on AWS: created on first start and kept
 * in the data folder (mode 0600), so stored secrets open after a restart; in memory for `memory`.
 * Losing the file makes the stored secrets unreadable: delete their items or the data folder.
 */
export function localSecretsKey(dir: string, persist: boolean): string {
  if (!persist) return randomBytes(LOCAL_SECRETS_KEY_BYTES).toString('base64');
  const file = dataPaths(dir).secretsKey;
  try {
    const saved = readFileSync(file);
    if (saved.length === LOCAL_SECRETS_KEY_BYTES) return saved.toString('base64');
    throw new Error(`${file} is not a ${LOCAL_SECRETS_KEY_BYTES}-byte key; move it away to start afresh`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = randomBytes(LOCAL_SECRETS_KEY_BYTES);
  // 'wx': never overwrite a key another process has just written.
  writeFileSync(file, key, { mode: 0o600, flag: 'wx' });
  return key.toString('base64');
}

/** The configuration every local function is built with; `queues` and `publicBaseUrl` come later. */
export function localConfig(
  standIns: TStandIns,
  plan: LocalUsagePlan,
  stage: TStageConfig,
  where: { dataDir: string; memory: boolean },
  options: TRuntimeOptions,
): TConfig {
  const { dynamo, s3, sqs, mailbox, control, kms, tsa } = standIns;
  const paths = dataPaths(where.dataDir);
  return {
    stage: LOCAL_STAGE,
    region: LOCAL_REGION,
    tableName: LOCAL_TABLE_NAME,
    bucketName: LOCAL_BUCKET_NAME,
    // As on AWS, each account's documents go to S3 under the documents key with its context.
    documentsKeyId: `alias/${documentsName(LOCAL_STAGE)}`,
    usagePlanId: plan.id,
    logLevel: options.logLevel ?? 'info',
    // One line per request at 'info' would drown the start banner and the warnings.
    accessLogLevel: 'debug',
    endpoints: {
      dynamodb: dynamo.endpoint,
      s3: s3.endpoint,
      sqs: sqs.endpoint,
      sesv2: mailbox.endpoint,
      sns: mailbox.endpoint,
      apigateway: control.endpoint,
      kms: kms.endpoint,
      ...(options.stripeKeys ? { secretsmanager: options.stripeKeys.secretsManagerEndpoint } : {}),
    },
    credentials: LOCAL_CREDENTIALS,
    secrets: { kind: 'local', key: localSecretsKey(where.dataDir, !where.memory) },
    fetch: options.productionFetch
      ? { allowHttp: false, allowLoopback: false }
      : { allowHttp: true, allowLoopback: true },
    ...(options.webhookRetryScale !== undefined ? { webhookRetryScale: options.webhookRetryScale } : {}),
    mail: { from: DEFAULT_MAIL_FROM, configurationSet: `esign-${LOCAL_STAGE}` },
    // How long signed-copy links work: the stage's setting, as the stack passes it on AWS.
    copyLinkDays: stage.copyLinkDays,
    ...(options.notificationRetryScale !== undefined
      ? { notificationRetryScale: options.notificationRetryScale }
      : {}),
    // The seal: a key in the KMS stand-in, its chain (local root → seal certificate) in the data folder.
    seal: {
      kind: 'kms',
      keyId: sealKeyAlias(LOCAL_SEAL_NAME),
      name: LOCAL_SEAL_NAME,
      chains: { kind: 'local', dir: paths.sealChains },
    },
    timestamps: { tsas: [{ url: tsa.url }] },
    // Payments: the local provider and its test checkout page, a fresh webhook secret per run.
    payments: options.stripeKeys
      ? { kind: 'stripe', secretId: options.stripeKeys.secretId }
      : { kind: 'local', webhookSecret: `whsec_local_${randomBytes(24).toString('hex')}` },
    ...(options.documentRetryScale !== undefined ? { documentRetryScale: options.documentRetryScale } : {}),
    // Bulk sends keep to the pace of the key's throttle, as the stack sets it on AWS.
    bulkRowsPerSecond: bulkRowsPerSecond(options.limits?.rateLimit ?? stage.rateLimits.throttleRatePerSecond),
  };
}
