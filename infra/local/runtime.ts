import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { buildAccountHandler } from '../../functions/account/app';
import { buildAuthorizer } from '../../functions/authorizer/app';
import { buildBulkWorker } from '../../functions/bulk-worker/app';
import { buildBundlesHandler } from '../../functions/bundles/app';
import { buildDocumentWorker } from '../../functions/document-worker/app';
import { buildEnvelopeTemplatesHandler } from '../../functions/envelope-templates/app';
import { buildMcpHandler } from '../../functions/mcp/app';
import { buildNotificationsWorker } from '../../functions/notifications-worker/app';
import { buildOutboxSweeper } from '../../functions/outbox-sweeper/app';
import { buildPacketsHandler } from '../../functions/packets/app';
import { buildPersonsHandler } from '../../functions/persons/app';
import { buildPublicPagesHandler } from '../../functions/public-pages/app';
import { useWebFonts } from '../../functions/public-pages/web-fonts';
import { buildScheduler } from '../../functions/scheduler/app';
import { buildTemplatesHandler } from '../../functions/templates/app';
import { buildWebhookDispatcher } from '../../functions/webhook-dispatcher/app';
import { buildWebhooksHandler } from '../../functions/webhooks/app';
import { createDocumentClient } from '../../shared/adapters/aws/clients';
import { createAccountStore } from '../../shared/adapters/dynamodb/account-store';
import { createLocalSealChains } from '../../shared/adapters/sealing/local-seal-chains';
import { sealKeyAlias } from '../../shared/adapters/sealing/seal-names';
import { LOCAL_SECRETS_KEY_BYTES } from '../../shared/adapters/secrets/local-cipher';
import { createLogger } from '../../shared/adapters/telemetry/logger';
import type { TEmf } from '../../shared/adapters/telemetry/metrics';
import { localTelemetry, type TTelemetry } from '../../shared/adapters/telemetry/telemetry';
import type { TConfig } from '../../shared/config';
import { bulkRowsPerSecond } from '../../shared/domain/bulk/bulk-batch';
import type { TPortalLimits } from '../../shared/domain/envelope-templates/start-portal-signing';
import { DEFAULT_MAIL_FROM } from '../../shared/domain/notifications/notification';
import type { TDueWorkRun } from '../../shared/domain/scheduler/run-due-work';
import type { TLogger, TLogLevel } from '../../shared/logger';
import { stageConfig } from '../stage-config';
import { repositoryWebFonts } from '../web-fonts';
import { startApiGateway } from './api-gateway';
import { startApiGatewayControl } from './apigateway-control';
import { startDynalite } from './dynamo';
import { ensureQueues } from './ensure-queues';
import { homePages } from './home-page';
import { invoke } from './invocation';
import { startKmsStandin } from './kms-standin';
import {
  dataPaths,
  LOCAL_BUCKET_NAME,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  LOCAL_SEAL_NAME,
  LOCAL_STAGE,
  LOCAL_TABLE_NAME,
  type TRuntimeFile,
} from './layout';
import { loadLocalCa, type TLocalCa } from './local-ca';
import { ensureLocalSeal } from './local-seal';
import { snsEventOf, startMailboxServer } from './mailbox';
import { mailboxPages } from './mailbox-pages';
import { ensureLocalTable } from './migrate-table';
import { startPkiStandin, type TPkiStandin } from './pki-standin';
import { PublicPathLimiter } from './public-path-limiter';
import { createQueueConsumer, type TQueueConsumer } from './queue-consumer';
import { startS3rver } from './s3';
import { seedAccount, type TSeededAccount } from './seed-account';
import { startLocalSqs } from './sqs';
import { startTsaStandin, type TTsaStandin } from './tsa-standin';
import { LocalUsagePlan, type TUsagePlanSettings } from './usage-plan';

/**
 * Where every stand-in listens, whatever `host` says: they check no credentials (dynalite, the
 * SQS, SES/SNS and API Gateway stand-ins) or only the well-known local ones (s3rver), so on a
 * network anyone could mint keys or read documents. Only the service's own port follows `host`.
 */
const STAND_IN_HOST = '127.0.0.1';

export interface TRuntimeOptions {
  port?: number;
  /** The interface the service's own port (API and pages) listens on; the stand-ins stay on loopback. */
  host?: string;
  /** Where data lives between restarts; ignored with `memory`. */
  dataDir?: string;
  /** A throwaway run: nothing is written to disk that outlives stop(). */
  memory?: boolean;
  logLevel?: TLogLevel;
  /** The usage plan's numbers; absent ones are the stage's (`--rate-limit` sets the throttle). */
  limits?: Partial<TUsagePlanSettings>;
  /**
   * Requests per client address and window on the public token paths (the stack's WAF rules);
   * default the stage's. Tests, which open many sessions from one address, raise or lower it.
   */
  publicPathLimit?: number;
  authorizerTtlSeconds?: number;
  /**
   * How long an API function may run (ms) before the gateway answers 500 for it, as a Lambda's
   * timeout does; default 29 s, API Gateway's limit. Tests of slow requests lower it.
   */
  functionTimeoutMs?: number;
  /** Fetch file_url documents by the production rules (https, public addresses only), as on AWS. */
  productionFetch?: boolean;
  /** Wraps the DynamoDB client the functions use (the benchmark counts requests with it). */
  instrumentDb?: (db: DynamoDBDocumentClient) => void /**
   * Multiplies the webhook retry delays (4, 12, 36, 108, 324 minutes), for tests and demos that
   * cannot wait: 1/240 makes them 1, 3, 9, 27 and 81 seconds. Default 1, as on AWS.
   */;
  webhookRetryScale?: number;
  /** How often the outbox sweeper runs (ms); AWS runs it every minute. */
  sweepIntervalMs?: number;
  /** Multiplies the notification retry delays (30 s, 2, 10, 30 min), for tests. Default 1. */
  notificationRetryScale?: number;
  /** How often the scheduler (reminders, expiry) runs (ms); AWS runs it every five minutes. */
  schedulerIntervalMs?: number;
  /** Multiplies the document job retry delays (30 s, 2, 10, 30 min), for tests. Default 1. */
  documentRetryScale?: number;
  /**
   * Payments as on AWS: Stripe's adapter, its keys read from this Secrets Manager (a stand-in's
   * endpoint) and secret, instead of the local provider. For tests of the operator's setup.
   */
  stripeKeys?: { secretsManagerEndpoint: string; secretId: string };
  /** Smaller smart link limits (bundles and page loads per address, per template), for tests. */
  portalLimits?: TPortalLimits;
  /**
   * Metrics are off locally unless a collector is given: then every function records them as on
   * Lambda (Powertools' EMF, flushed per invocation) and each EMF object comes here.
   */
  metrics?: (emf: TEmf) => void;
}

/** The workers AWS runs from queues and schedules, run here in-process. */
export interface TLocalWorkers {
  /** The webhook dispatcher, fed from the webhook-deliveries queue (stop and start it at will). */
  webhooks: TQueueConsumer;
  /** The notifications worker, fed from the notifications queue (emails and texts to people). */
  notifications: TQueueConsumer;
  /** The document worker, fed from the document-jobs queue (final documents, certificates, interim files). */
  documents: TQueueConsumer;
  /** The bulk worker, fed from the bulk-jobs queue (the rows of bulk sends, a chunk at a time). */
  bulk: TQueueConsumer;
  /** One run of the outbox sweeper, as the schedule would; answers how many bundles it published. */
  sweepOutboxes(): Promise<{ published: number }>;
  /** One run of the scheduler (reminders, expiry), at `now` (default: the clock). */
  runScheduler(now?: Date): Promise<TDueWorkRun>;
}

export interface TRuntime {
  /** http://host:port/api/v2/ */
  apiUrl: string;
  baseUrl: string;
  demo: TSeededAccount;
  config: TConfig;
  db: DynamoDBDocumentClient;
  dataDir: string;
  workers: TLocalWorkers;
  /**
   * Where each server of the runtime listens, as the OS reports it: the service's own port
   * (`api`, which follows `host`) and each stand-in's.
   */
  bound: Record<
    'api' | 'dynamodb' | 's3' | 'sqs' | 'mailbox' | 'apigateway' | 'tsa' | 'pki' | 'kms',
    AddressInfo
  >;
  /** The local timestamp authority (tests make it misbehave). */
  tsa: TTsaStandin;
  /** The local CA: the root of the local seal and timestamp certificates (tests issue more and revoke). */
  ca: TLocalCa;
  /** Where the local CA publishes its root, CRL and OCSP answers. */
  pki: TPkiStandin;
  /** Another account with its own key, for tests and demos. */
  seedAccount(name: string, email: string): Promise<TSeededAccount>;
  stop(): Promise<void>;
}

/** The demo account survives restarts: its key is kept in the data folder, in plain text, locally only. */
type TPages = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

/** The local pages outside the API, tried in turn until one answers. */
const firstOf =
  (...pages: TPages[]): TPages =>
  async (req, res, url) => {
    for (const p of pages) if (await p(req, res, url)) return true;
    return false;
  };

async function demoAccount(db: DynamoDBDocumentClient, table: string, dir: string, persist: boolean) {
  const file = dataPaths(dir).demoAccount;
  if (persist) {
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as TSeededAccount;
      if (await createAccountStore(db, table).getAccount(saved.accountId)) return saved;
    } catch {
      // no saved demo account yet
    }
  }
  const seeded = await seedAccount(db, table, { name: 'Demo Account', email: 'demo@example.com' });
  if (persist) writeFileSync(file, `${JSON.stringify(seeded, null, 2)}\n`, { mode: 0o600 });
  return seeded;
}

/**
 * The key that seals webhook secrets locally, as KMS does on AWS: created on first start and kept
 * in the data folder (mode 0600), so stored secrets open after a restart; in memory for `memory`.
 * Losing the file makes the stored secrets unreadable: delete their items or the data folder.
 */
function localSecretsKey(dir: string, persist: boolean): string {
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

export async function startLocalRuntime(options: TRuntimeOptions = {}): Promise<TRuntime> {
  const host = options.host ?? '127.0.0.1';
  const memory = options.memory ?? false;
  const dataDir = memory ? mkdtempSync(join(tmpdir(), 'esign-')) : resolve(options.dataDir ?? '.data');
  mkdirSync(dataDir, { recursive: true });
  const log = createLogger(options.logLevel ?? 'info', { service: 'local', base: { runtime: 'local' } });
  const stage = stageConfig('dev');
  const stops: (() => Promise<void>)[] = [];

  try {
    const paths = dataPaths(dataDir);
    const dynamo = await startDynalite({
      port: 0,
      host: STAND_IN_HOST,
      dir: memory ? undefined : paths.dynamodb,
    });
    stops.push(dynamo.stop);
    const s3 = await startS3rver({
      port: 0,
      host: STAND_IN_HOST,
      dir: paths.s3,
      bucket: LOCAL_BUCKET_NAME,
    });
    stops.push(s3.stop);
    const sqs = await startLocalSqs({
      port: 0,
      host: STAND_IN_HOST,
      ...(memory ? {} : { dataFile: paths.sqs }),
    });
    stops.push(sqs.stop);
    const mailboxDir = paths.mailbox;
    // SES's simulated bounce and complaint reports go to the notifications worker (set below),
    // as SES → SNS → Lambda on AWS.
    let mailEvents: ((notification: string) => Promise<void>) | undefined;
    const mailbox = await startMailboxServer({
      port: 0,
      host: STAND_IN_HOST,
      dir: mailboxDir,
      onSesEvent: (notification) =>
        mailEvents ? mailEvents(notification) : Promise.reject(new Error('not started yet')),
    });
    stops.push(mailbox.stop);
    const plan = new LocalUsagePlan('local-usage-plan', {
      quotaLimit: stage.rateLimits.quotaPerDay,
      quotaPeriod: 'DAY',
      rateLimit: stage.rateLimits.throttleRatePerSecond,
      burstLimit: stage.rateLimits.throttleBurst,
      ...options.limits,
    });
    const control = await startApiGatewayControl({ host: STAND_IN_HOST, plan });
    stops.push(control.stop);
    // The local CA publishes its root, CRL and OCSP answers (pki-standin.ts), and the timestamp
    // authority every seal is stamped by has a certificate under it.
    const caDir = memory ? undefined : paths.ca;
    const pki = await startPkiStandin({ ...(caDir ? { dir: caDir } : {}) });
    stops.push(pki.stop);
    const ca = await loadLocalCa(caDir, { pkiUrl: pki.url });
    pki.serve(ca);
    const tsa = await startTsaStandin({ ca });
    stops.push(tsa.stop);
    // KMS, where the seal key lives (in memory for `memory`).
    const kms = await startKmsStandin({ region: LOCAL_REGION, ...(memory ? {} : { file: paths.kms }) });
    stops.push(kms.stop);

    // The pages' web fonts, made from the repository's fonts when first asked for (infra/web-fonts.ts).
    useWebFonts(repositoryWebFonts());
    const config: TConfig = {
      stage: LOCAL_STAGE,
      region: LOCAL_REGION,
      tableName: LOCAL_TABLE_NAME,
      bucketName: LOCAL_BUCKET_NAME,
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
      secrets: { kind: 'local', key: localSecretsKey(dataDir, !memory) },
      fetch: options.productionFetch
        ? { allowHttp: false, allowLoopback: false }
        : { allowHttp: true, allowLoopback: true },
      ...(options.webhookRetryScale !== undefined ? { webhookRetryScale: options.webhookRetryScale } : {}),
      mail: { from: DEFAULT_MAIL_FROM, configurationSet: `esign-${LOCAL_STAGE}` },
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
      bulkRowsPerSecond: bulkRowsPerSecond(
        options.limits?.rateLimit ?? stage.rateLimits.throttleRatePerSecond,
      ),
    };

    // On first start, as an operator on AWS: key, request, certificate from the local CA, chain.
    const kmsClient = new KMSClient({
      region: LOCAL_REGION,
      endpoint: kms.endpoint,
      credentials: LOCAL_CREDENTIALS,
    });
    await ensureLocalSeal({
      kms: kmsClient,
      ca,
      chains: createLocalSealChains(paths.sealChains, LOCAL_SEAL_NAME),
      name: LOCAL_SEAL_NAME,
    }).finally(() => kmsClient.destroy());

    const added = await ensureLocalTable(
      new DynamoDBClient({
        region: config.region,
        endpoint: dynamo.endpoint,
        credentials: LOCAL_CREDENTIALS,
      }),
      config.tableName,
    );
    if (added.length > 0) log.info('local table rebuilt with new indexes, data kept', { added });
    const sqsClient = new SQSClient({
      region: config.region,
      endpoint: sqs.endpoint,
      credentials: LOCAL_CREDENTIALS,
    });
    config.queues = await ensureQueues(sqsClient, LOCAL_STAGE);
    const db = createDocumentClient(config);
    options.instrumentDb?.(db);
    const fnLog = (fn: string): TLogger => log.child({ fn });
    // Each function's logger and, with a collector, its metrics (the service dimension is its name).
    const telemetry = (fn: string): TTelemetry =>
      localTelemetry({
        log: fnLog(fn),
        service: fn,
        stage: LOCAL_STAGE,
        ...(options.metrics ? { sink: options.metrics } : {}),
      });
    const demo = await demoAccount(db, config.tableName, dataDir, !memory);

    // The workers stop together: each waits out its last long poll (up to a second) so that what
    // the poll still gets is released, and one after another those waits added up to seconds.
    const consumers: TQueueConsumer[] = [];
    stops.push(async () => {
      await Promise.all(consumers.map((w) => w.stop()));
    });
    /** A queue's worker, polling from now on and stopped with the runtime. */
    const consume = (
      queueUrl: string | undefined,
      fn: string,
      handler: Parameters<typeof createQueueConsumer>[0]['handler'],
      tuning: { batchSize?: number; concurrency?: number } = {},
    ): TQueueConsumer => {
      if (!queueUrl) throw new Error(`no queue for ${fn}`);
      const worker = createQueueConsumer({
        sqs: sqsClient,
        queueUrl,
        handler: (event) => invoke(fn, () => handler(event)),
        log: fnLog(fn),
        ...tuning,
      });
      worker.start();
      consumers.push(worker);
      return worker;
    };
    /** A schedule: `run` every `intervalMs`, failures logged, cleared with the runtime. */
    const every = (intervalMs: number, fn: string, what: string, run: () => Promise<unknown>) => {
      const timer = setInterval(() => {
        invoke(fn, run).catch((err: Error) => log.error(`${what} failed`, { error: err.message }));
      }, intervalMs);
      timer.unref();
      stops.push(async () => clearInterval(timer));
    };

    const webhookWorker = consume(
      config.queues.webhookDeliveries,
      'webhook-dispatcher',
      buildWebhookDispatcher({ config, db, sqs: sqsClient, telemetry: telemetry('webhook-dispatcher') }),
    );
    const notify = buildNotificationsWorker({
      config,
      db,
      sqs: sqsClient,
      telemetry: telemetry('notifications-worker'),
    });
    const notificationsWorker = consume(config.queues.notifications, 'notifications-worker', notify);
    // One job at a time per loop, two loops: each job holds whole PDFs in memory, as the Lambda
    // (batch size 1) does.
    const documentsWorker = consume(
      config.queues.documentJobs,
      'document-worker',
      buildDocumentWorker({ config, db, sqs: sqsClient, telemetry: telemetry('document-worker') }),
      { batchSize: 1, concurrency: 2 },
    );
    const bulkWorker = consume(
      config.queues.bulkJobs,
      'bulk-worker',
      buildBulkWorker({ config, db, sqs: sqsClient, telemetry: telemetry('bulk-worker') }),
      { batchSize: 1, concurrency: 1 },
    );
    mailEvents = async (notification) => {
      await invoke('notifications-worker', () => notify(snsEventOf(notification)));
    };
    const sweep = buildOutboxSweeper({ config, db, telemetry: telemetry('outbox-sweeper') });
    every(options.sweepIntervalMs ?? 60_000, 'outbox-sweeper', 'outbox sweep', () => sweep(undefined));
    const runScheduler = buildScheduler({ config, db, telemetry: telemetry('scheduler') });
    every(options.schedulerIntervalMs ?? 60_000, 'scheduler', 'scheduler run', () => runScheduler(undefined));

    const gateway = await startApiGateway({
      host,
      port: options.port ?? 3000,
      stage: LOCAL_STAGE,
      plan,
      authorizerTtlMs: (options.authorizerTtlSeconds ?? stage.authorizerCacheTtlSeconds) * 1000,
      ...(options.functionTimeoutMs !== undefined ? { functionTimeoutMs: options.functionTimeoutMs } : {}),
      maxBodyBytes: 10 * 1024 * 1024,
      log,
      authorizer: buildAuthorizer({ config, db, telemetry: telemetry('authorizer') }),
      functions: {
        persons: buildPersonsHandler({ config, db, telemetry: telemetry('persons') }),
        account: buildAccountHandler({ config, telemetry: telemetry('account') }),
        bundles: buildBundlesHandler({ config, db, telemetry: telemetry('bundles') }),
        packets: buildPacketsHandler({ config, db, telemetry: telemetry('packets') }),
        templates: buildTemplatesHandler({ config, db, telemetry: telemetry('templates') }),
        webhooks: buildWebhooksHandler({ config, db, telemetry: telemetry('webhooks') }),
        'public-pages': buildPublicPagesHandler({
          config,
          db,
          telemetry: telemetry('public-pages'),
          ...(options.portalLimits ? { portalLimits: options.portalLimits } : {}),
        }),
        'envelope-templates': buildEnvelopeTemplatesHandler({
          config,
          db,
          telemetry: telemetry('envelope-templates'),
        }),
        mcp: buildMcpHandler({ config, telemetry: telemetry('mcp') }),
      },
      publicPaths: new PublicPathLimiter({
        ...stage.publicPathLimits,
        ...(options.publicPathLimit !== undefined ? { requestsPerWindow: options.publicPathLimit } : {}),
      }),
      pages: firstOf(
        homePages(() => `${config.publicBaseUrl}/api/v2/`),
        mailboxPages(mailboxDir),
      ),
    });
    stops.push(gateway.stop);

    const baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${gateway.port}`;
    // Known only once the gateway listens (port 0 picks one); handlers read it per request.
    config.publicBaseUrl = baseUrl;
    if (!memory) {
      const file: TRuntimeFile = {
        pid: process.pid,
        dynamodbEndpoint: dynamo.endpoint,
        kmsEndpoint: kms.endpoint,
        tableName: config.tableName,
        apiUrl: `${baseUrl}/api/v2/`,
      };
      writeFileSync(paths.runtime, `${JSON.stringify(file, null, 2)}\n`);
    }

    let stopped = false;
    return {
      apiUrl: `${baseUrl}/api/v2/`,
      baseUrl,
      demo,
      config,
      db,
      dataDir,
      workers: {
        webhooks: webhookWorker,
        notifications: notificationsWorker,
        documents: documentsWorker,
        bulk: bulkWorker,
        sweepOutboxes: () => invoke('outbox-sweeper', () => sweep(undefined)),
        runScheduler: (now?: Date) => invoke('scheduler', () => runScheduler(now)),
      },
      tsa,
      ca,
      pki,
      bound: {
        api: gateway.bound,
        dynamodb: dynamo.bound,
        s3: s3.bound,
        sqs: sqs.bound,
        mailbox: mailbox.bound,
        apigateway: control.bound,
        tsa: tsa.bound,
        pki: pki.bound,
        kms: kms.bound,
      },
      seedAccount: (name, email) => seedAccount(db, config.tableName, { name, email }),
      async stop() {
        if (stopped) return;
        stopped = true;
        // Stop taking requests first, then the stand-ins underneath.
        for (const stop of stops.reverse()) await stop().catch(() => undefined);
        if (memory) rmSync(dataDir, { recursive: true, force: true });
        else rmSync(dataPaths(dataDir).runtime, { force: true });
      },
    };
  } catch (err) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (memory) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
