// Where the operator's commands run: the local data folder (through the running `npm start`,
// or a dynalite of our own on the same folder), or a deployed stack with the caller's AWS
// credentials. Either way the commands get the same stores.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createUsageKeyRegistry } from '#shared/adapters/apigateway/usage-keys';
import {
  createApiGatewayClient,
  createDocumentClient,
  createKmsClient,
  createS3Client,
} from '#shared/adapters/aws/clients';
import { createSecretsManagerClient } from '#shared/adapters/aws/secrets-manager-client';
import { createAccountSettingsStore } from '#shared/adapters/dynamodb/account-settings-store';
import { createAccountStore } from '#shared/adapters/dynamodb/account-store';
import { createApiKeyStore } from '#shared/adapters/dynamodb/api-key-store';
import { createBulkStore } from '#shared/adapters/dynamodb/bulk-store';
import { createBundleStore } from '#shared/adapters/dynamodb/bundle-store';
import { createConsoleStore } from '#shared/adapters/dynamodb/console-store';
import { ensureTable } from '#shared/adapters/dynamodb/create-table';
import { createPersonStore } from '#shared/adapters/dynamodb/person-store';
import { createSsoStore } from '#shared/adapters/dynamodb/sso-store';
import { createDocumentsKeyAdmin, documentsName } from '#shared/adapters/kms/documents-keys';
import { createKmsCipher } from '#shared/adapters/kms/kms-cipher';
import { createIssuerGuard } from '#shared/adapters/oidc/issuer-guard';
import { createLocalPaymentProvider } from '#shared/adapters/payments/local-payment-provider';
import { createPaymentProviderSource } from '#shared/adapters/payments/payment-provider';
import { createBlobEraser } from '#shared/adapters/s3/blob-eraser';
import { createLocalSealChains } from '#shared/adapters/sealing/local-seal-chains';
import { createSecretsManagerSealChains } from '#shared/adapters/sealing/secrets-manager-seal-chains';
import { createLocalCipher } from '#shared/adapters/secrets/local-cipher';
import { randomIds, systemClock } from '#shared/adapters/system';
import { exportDeps } from '#shared/composition/account-export';
import type { TConfig } from '#shared/config';
import type { TBlobEraser } from '#shared/domain/ports/files';
import { startDynalite } from '../local/dynamo';
import {
  dataPaths,
  LOCAL_BUCKET_NAME,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  LOCAL_SEAL_NAME,
  LOCAL_STAGE,
  LOCAL_TABLE_NAME,
  localTableConfig,
  type TRuntimeFile,
} from '../local/layout';
import { localSecretsKey } from '../local/local-config';
import { ensureLocalTable } from '../local/migrate-table';
import type { TAdminDeps } from './commands';
import type { TSealAdmin } from './seal-commands';
import { createItemUpgrades } from './upgrades/item-upgrades';

export interface TTarget {
  deps: TAdminDeps;
  close(): Promise<void>;
}

/** The data folder is open in another process that did not leave a usable runtime.json. */
export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
}

function stores(db: DynamoDBDocumentClient, table: string): Omit<TAdminDeps, 'usageKeys' | 'payments'> {
  return {
    accounts: createAccountStore(db, table),
    keys: createApiKeyStore(db, table),
    persons: createPersonStore(db, table),
    bundles: createBundleStore(db, table),
    securityLog: createConsoleStore(db, table),
    bulk: createBulkStore(db, table),
    settings: createAccountSettingsStore(db, table),
    upgrades: createItemUpgrades(db, table),
    clock: systemClock,
    ids: randomIds,
  };
}

/**
 * The local runtime's payments move no money, so a refund needs no Stripe and no webhook: the
 * provider answers it succeeded (its webhook secret only signs checkout events, unused here).
 */
const localPayments = () => {
  const provider = createLocalPaymentProvider({ webhookSecret: 'whsec_admin_unused', baseUrl: () => '' });
  return async () => provider;
};

/**
 * The local seal's KMS and chains: the running runtime's KMS stand-in when `kmsEndpoint` is
 * given, else one of our own on the data folder's key file (stopped with the target).
 */
function localSeal(dataDir: string, kmsEndpoint: string | undefined) {
  let made: Promise<TSealAdmin> | undefined;
  let stopOwn: (() => Promise<void>) | undefined;
  let client: KMSClient | undefined;
  const open = async (): Promise<TSealAdmin> => {
    let endpoint = kmsEndpoint;
    if (!endpoint) {
      const { startKmsStandin } = await import('../local/kms-standin');
      const own = await startKmsStandin({ region: LOCAL_REGION, file: dataPaths(dataDir).kms });
      stopOwn = own.stop;
      endpoint = own.endpoint;
    }
    client = new KMSClient({ region: LOCAL_REGION, endpoint, credentials: LOCAL_CREDENTIALS });
    return {
      kms: client,
      chains: createLocalSealChains(dataPaths(dataDir).sealChains, LOCAL_SEAL_NAME),
      name: LOCAL_SEAL_NAME,
    };
  };
  return {
    seal: () => {
      made ??= open();
      return made;
    },
    async close() {
      client?.destroy();
      await stopOwn?.();
    },
  };
}

/**
 * The documents bucket's S3 endpoint: the running runtime's stand-in when `s3Endpoint` is given,
 * else one of our own on the data folder, started on first use and stopped with the target.
 */
function localDocumentsS3(dataDir: string, s3Endpoint: string | undefined) {
  let started: Promise<{ endpoint: string; stop: () => Promise<void> }> | undefined;
  return {
    async client() {
      let endpoint = s3Endpoint;
      if (!endpoint) {
        started ??= import('../local/s3').then(({ startS3rver }) =>
          startS3rver({ port: 0, host: '127.0.0.1', dir: dataPaths(dataDir).s3, bucket: LOCAL_BUCKET_NAME }),
        );
        endpoint = (await started).endpoint;
      }
      return createS3Client({ ...localTableConfig('', ''), endpoints: { s3: endpoint } });
    },
    close: async () => (started ? (await started).stop() : undefined),
  };
}

/**
 * The documents bucket's eraser, and what export-account and import-account use: the same
 * code as on AWS runs against the local S3, keyed as the runtime keys documents.
 */
function localDocuments(db: DynamoDBDocumentClient, tableName: string, dataDir: string, s3Endpoint?: string) {
  const s3 = localDocumentsS3(dataDir, s3Endpoint);
  let eraser: Promise<TBlobEraser> | undefined;
  let exporting: Promise<ReturnType<typeof exportDeps>> | undefined;
  return {
    eraser: () => {
      eraser ??= s3.client().then((client) => createBlobEraser(client, LOCAL_BUCKET_NAME));
      return eraser;
    },
    exporting: () => {
      exporting ??= s3.client().then((client) =>
        exportDeps({
          db,
          tableName,
          s3: client,
          bucketName: LOCAL_BUCKET_NAME,
          documentsKeyId: `alias/${documentsName(LOCAL_STAGE)}`,
        }),
      );
      return exporting;
    },
    close: s3.close,
  };
}

/** The local CA of the data folder (its revocations are read again by the running responder). */
async function localCaOf(dataDir: string) {
  const { loadLocalCa } = await import('../local/local-ca');
  return loadLocalCa(dataPaths(dataDir).ca);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** runtime.json of an `npm start` that is still running, if any (a crash leaves the file behind). */
function runningRuntime(dataDir: string): TRuntimeFile | undefined {
  const file = dataPaths(dataDir).runtime;
  if (!existsSync(file)) return undefined;
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as TRuntimeFile;
    return Number.isInteger(info.pid) && isAlive(info.pid) ? info : undefined;
  } catch {
    return undefined;
  }
}

/** A client of a local dynalite that tries once: an admin command says at once when it does not answer. */
const localDynamoClient = (endpoint: string) =>
  new DynamoDBClient({ region: LOCAL_REGION, endpoint, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });

/** Connects to the running runtime's dynalite; undefined if it does not answer (a reused pid). */
async function connectToRuntime(info: TRuntimeFile, dataDir: string): Promise<TTarget | undefined> {
  const probe = localDynamoClient(info.dynamodbEndpoint);
  try {
    await ensureTable(probe, info.tableName);
  } catch {
    return undefined;
  } finally {
    probe.destroy();
  }
  return localTarget(dataDir, info.dynamodbEndpoint, info.tableName, {
    kms: info.kmsEndpoint,
    s3: info.s3Endpoint,
  });
}

/**
 * The admin's stores on a local dynalite, its seal, CA and documents (the running runtime's
 * stand-ins, where `running` names them); `stop` runs last when it closes.
 */
function localTarget(
  dataDir: string,
  endpoint: string,
  tableName: string,
  running: { kms?: string; s3?: string },
  stop?: () => Promise<void>,
): TTarget {
  const db = createDocumentClient(localTableConfig(endpoint, tableName));
  const seal = localSeal(dataDir, running.kms);
  const documents = localDocuments(db, tableName, dataDir, running.s3);
  return {
    deps: {
      ...stores(db, tableName),
      payments: localPayments(),
      seal: seal.seal,
      // The seal's KMS (the runtime's stand-in, or our own on its key file) holds these keys too.
      documentsKeys: async () =>
        createDocumentsKeyAdmin((await seal.seal()).kms, documentsName(LOCAL_STAGE), LOCAL_REGION),
      eraser: documents.eraser,
      exporting: documents.exporting,
      localCa: () => localCaOf(dataDir),
      // The data folder's secrets key, as the running service seals with; local issuers may be http.
      sso: async () => ({
        sso: createSsoStore(db, tableName),
        cipher: createLocalCipher(Buffer.from(localSecretsKey(dataDir, true), 'base64')),
        issuerGuard: createIssuerGuard({ allowHttp: true, allowLoopback: true }),
      }),
    },
    async close() {
      db.destroy();
      await seal.close();
      await documents.close();
      await stop?.();
    },
  };
}

const isLevelDbFailure = (err: unknown) =>
  (err as { code?: string }).code?.startsWith('LEVEL_') ||
  /^Database is (closed|not open)/.test(String((err as Error)?.message));

/**
 * dynalite opens LevelDB lazily and, when another process holds its lock, throws from its
 * request handler: an uncaught exception that would end this process with a stack trace. We
 * catch it for the first request only; once that succeeded, the folder is ours.
 */
async function firstRequest(work: Promise<void>, dataDir: string): Promise<void> {
  let listener: ((err: Error) => void) | undefined;
  const failed = new Promise<never>((_, reject) => {
    listener = (err: Error) =>
      reject(
        isLevelDbFailure(err)
          ? new DataDirBusyError(
              `The data folder ${dataDir} is in use by another process (another admin command, or an ` +
                '`npm start` that left no runtime.json). Try again when it has finished.',
            )
          : err,
      );
    process.on('uncaughtException', listener);
  });
  try {
    await Promise.race([work, failed]);
  } finally {
    if (listener) process.off('uncaughtException', listener);
  }
}

async function openOwnDynalite(dataDir: string): Promise<TTarget> {
  mkdirSync(dataDir, { recursive: true });
  const dynamo = await startDynalite({
    port: 0,
    host: '127.0.0.1',
    dir: dataPaths(dataDir).dynamodb,
  });
  const raw = localDynamoClient(dynamo.endpoint);
  try {
    // A fresh folder has no table yet; the runtime would create the same one on start.
    await firstRequest(
      ensureLocalTable(raw, LOCAL_TABLE_NAME).then(() => undefined),
      dataDir,
    );
  } catch (err) {
    // A dynalite whose database never opened may not finish closing; do not wait for it long.
    await Promise.race([dynamo.stop(), new Promise((r) => setTimeout(r, 500).unref())]);
    throw err;
  } finally {
    raw.destroy();
  }
  // Closing the server also closes LevelDB, which flushes it and releases the lock.
  return localTarget(dataDir, dynamo.endpoint, LOCAL_TABLE_NAME, {}, () => dynamo.stop());
}

/**
 * LevelDB admits one process per folder. While `npm start` runs it owns the folder and names
 * its dynalite in runtime.json, so we talk to that; otherwise we open the folder ourselves.
 */
export async function openLocalTarget(dataDir: string): Promise<TTarget> {
  const dir = resolve(dataDir);
  const running = runningRuntime(dir);
  if (running) {
    const target = await connectToRuntime(running, dir);
    if (target) return target;
  }
  return openOwnDynalite(dir);
}

export interface TAwsTargetOptions {
  tableName: string;
  region: string;
  /** Needed only by the commands that issue or revoke keys. */
  usagePlanId?: string;
  /** The Stripe keys' secret, needed only by refund-payment. */
  stripeSecretId?: string;
  /** The seal's name (stack output SealName), needed only by the seal-* commands. */
  sealName?: string;
  /** The secrets key (stack output SecretsKeyId), needed only by set-sso. */
  secretsKeyId?: string;
  /** The documents' name (stack output DocumentsName), needed only by the account-key-* commands. */
  documentsName?: string;
  /** The documents bucket (stack output BucketName), for run-retention, export-account and import-account. */
  bucketName?: string;
}

/** A deployed stack (its outputs TableName, UsagePlanId, Region), with the SDK's default credentials. */
export function openAwsTarget(opts: TAwsTargetOptions): TTarget {
  const config: TConfig = {
    stage: 'aws',
    region: opts.region,
    tableName: opts.tableName,
    bucketName: '',
    usagePlanId: opts.usagePlanId ?? '',
    logLevel: 'silent',
    endpoints: {},
  };
  const db = createDocumentClient(config);
  const apigateway = opts.usagePlanId ? createApiGatewayClient(config) : undefined;
  const payments = opts.stripeSecretId
    ? createPaymentProviderSource({ ...config, payments: { kind: 'stripe', secretId: opts.stripeSecretId } })
    : undefined;
  const kms = opts.sealName || opts.secretsKeyId || opts.documentsName ? createKmsClient(config) : undefined;
  const documents = opts.documentsName;
  const secretsKeyId = opts.secretsKeyId;
  const bucketName = opts.bucketName;
  const exporting = bucketName
    ? exportDeps({
        db,
        tableName: opts.tableName,
        s3: createS3Client(config),
        bucketName,
        ...(documents ? { documentsKeyId: `alias/${documents}` } : {}),
      })
    : undefined;
  const secrets = opts.sealName ? createSecretsManagerClient(config) : undefined;
  const seal: TSealAdmin | undefined =
    kms && secrets && opts.sealName
      ? { kms, chains: createSecretsManagerSealChains(secrets, opts.sealName), name: opts.sealName }
      : undefined;
  return {
    deps: {
      ...stores(db, opts.tableName),
      ...(seal ? { seal: async () => seal } : {}),
      ...(kms && documents
        ? { documentsKeys: async () => createDocumentsKeyAdmin(kms, documents, opts.region) }
        : {}),
      ...(bucketName ? { eraser: async () => createBlobEraser(createS3Client(config), bucketName) } : {}),
      ...(exporting ? { exporting: async () => exporting } : {}),
      // Production's rules: an issuer on https and a public address only.
      sso: async () => {
        if (!kms || !secretsKeyId) throw new Error('Give --secrets-key: the stack output SecretsKeyId.');
        return {
          sso: createSsoStore(db, opts.tableName),
          cipher: createKmsCipher(kms, secretsKeyId),
          issuerGuard: createIssuerGuard({ allowHttp: false, allowLoopback: false }),
        };
      },
      ...(payments ? { payments: () => payments.get() } : {}),
      ...(apigateway && opts.usagePlanId
        ? { usageKeys: createUsageKeyRegistry(apigateway, opts.usagePlanId) }
        : {}),
    },
    async close() {
      db.destroy();
      apigateway?.destroy();
      kms?.destroy();
      secrets?.destroy();
    },
  };
}
