// The whole service in one process (`npm start`, and every HTTP test): the stand-ins for AWS's
// services, the functions' configuration, the workers, and the API on the service's own port.
// Each concern has its file: stand-ins.ts, local-config.ts, workers.ts, service-api.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { useWebFonts } from '../../functions/public-pages/web-fonts';
import { createDocumentClient } from '../../shared/adapters/aws/clients';
import { createLogger } from '../../shared/adapters/telemetry/logger';
import type { TEmf } from '../../shared/adapters/telemetry/metrics';
import { localTelemetry, type TTelemetry } from '../../shared/adapters/telemetry/telemetry';
import type { TConfig } from '../../shared/config';
import type { TPortalLimits } from '../../shared/domain/envelope-templates/start-portal-signing';
import type { TLogger, TLogLevel } from '../../shared/logger';
import { stageConfig, type TStageConfig } from '../stage-config';
import { repositoryWebFonts } from '../web-fonts';
import { demoAccount } from './demo-account';
import { dataPaths, LOCAL_CREDENTIALS, LOCAL_REGION, LOCAL_STAGE, type TRuntimeFile } from './layout';
import type { TLocalCa } from './local-ca';
import { localConfig } from './local-config';
import type { TPkiStandin } from './pki-standin';
import { seedAccount, type TSeededAccount } from './seed-account';
import { startServiceApi } from './service-api';
import { prepareStandIns, startStandIns, type TStandIns, type TStops } from './stand-ins';
import type { TTsaStandin } from './tsa-standin';
import { LocalUsagePlan, type TUsagePlanSettings } from './usage-plan';
import { startWorkers, type TLocalWorkers } from './workers';

export type { TLocalWorkers } from './workers';

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

/** What every local function is built with. */
export interface TLocalDeps {
  config: TConfig;
  db: DynamoDBDocumentClient;
  sqs: SQSClient;
  log: TLogger;
  /** A function's logger and, with a collector, its metrics (the service dimension is its name). */
  telemetry: (fn: string) => TTelemetry;
}

export async function startLocalRuntime(options: TRuntimeOptions = {}): Promise<TRuntime> {
  const memory = options.memory ?? false;
  const dataDir = memory ? mkdtempSync(join(tmpdir(), 'esign-')) : resolve(options.dataDir ?? '.data');
  mkdirSync(dataDir, { recursive: true });
  const stops: TStops = [];
  try {
    return await startIn(dataDir, memory, options, stops);
  } catch (err) {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (memory) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

async function startIn(
  dataDir: string,
  memory: boolean,
  options: TRuntimeOptions,
  stops: TStops,
): Promise<TRuntime> {
  const log = createLogger(options.logLevel ?? 'info', { service: 'local', base: { runtime: 'local' } });
  const stage = stageConfig('dev');
  const plan = localUsagePlan(stage, options);
  const standIns = await startStandIns({ dataDir, memory, plan }, stops);
  // The pages' web fonts, made from the repository's fonts when first asked for (infra/web-fonts.ts).
  useWebFonts(repositoryWebFonts());
  const deps = await functionDeps(standIns, plan, stage, { dataDir, memory }, options, log);
  const { config, db } = deps;
  const demo = await demoAccount(db, config.tableName, dataDir, !memory);
  const workers = startWorkers(deps, standIns, options, stops);
  const gateway = await startServiceApi(deps, plan, stage, standIns.mailboxDir, options);
  stops.push(gateway.stop);

  const host = options.host ?? '127.0.0.1';
  const baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${gateway.port}`;
  // Known only once the gateway listens (port 0 picks one); handlers read it per request.
  config.publicBaseUrl = baseUrl;
  if (!memory) writeRuntimeFile(dataDir, standIns, config, baseUrl);
  const { tsa, ca, pki } = standIns;
  return {
    apiUrl: `${baseUrl}/api/v2/`,
    baseUrl,
    demo,
    config,
    db,
    dataDir,
    workers,
    tsa,
    ca,
    pki,
    bound: {
      api: gateway.bound,
      dynamodb: standIns.dynamo.bound,
      s3: standIns.s3.bound,
      sqs: standIns.sqs.bound,
      mailbox: standIns.mailbox.bound,
      apigateway: standIns.control.bound,
      tsa: tsa.bound,
      pki: pki.bound,
      kms: standIns.kms.bound,
    },
    seedAccount: (name, email) => seedAccount(db, config.tableName, { name, email }),
    stop: stopOnce(dataDir, memory, stops),
  };
}

/** runtime.json: how other processes (the operator command) reach this instance while it runs. */
function writeRuntimeFile(dataDir: string, standIns: TStandIns, config: TConfig, baseUrl: string): void {
  const file: TRuntimeFile = {
    pid: process.pid,
    dynamodbEndpoint: standIns.dynamo.endpoint,
    kmsEndpoint: standIns.kms.endpoint,
    tableName: config.tableName,
    apiUrl: `${baseUrl}/api/v2/`,
  };
  writeFileSync(dataPaths(dataDir).runtime, `${JSON.stringify(file, null, 2)}\n`);
}

function stopOnce(dataDir: string, memory: boolean, stops: TStops): () => Promise<void> {
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    // Stop taking requests first, then the stand-ins underneath.
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (memory) rmSync(dataDir, { recursive: true, force: true });
    else rmSync(dataPaths(dataDir).runtime, { force: true });
  };
}

/** The stage's usage plan, with the options' numbers where given. */
function localUsagePlan(stage: TStageConfig, options: TRuntimeOptions): LocalUsagePlan {
  return new LocalUsagePlan('local-usage-plan', {
    quotaLimit: stage.rateLimits.quotaPerDay,
    quotaPeriod: 'DAY',
    rateLimit: stage.rateLimits.throttleRatePerSecond,
    burstLimit: stage.rateLimits.throttleBurst,
    ...options.limits,
  });
}

/** The functions' configuration, clients and telemetry, once the stand-ins are set up. */
async function functionDeps(
  standIns: TStandIns,
  plan: LocalUsagePlan,
  stage: TStageConfig,
  where: { dataDir: string; memory: boolean },
  options: TRuntimeOptions,
  log: TLogger,
): Promise<TLocalDeps> {
  const config = localConfig(standIns, plan, stage, where, options);
  const sqs = new SQSClient({
    region: LOCAL_REGION,
    endpoint: standIns.sqs.endpoint,
    credentials: LOCAL_CREDENTIALS,
  });
  config.queues = await prepareStandIns(standIns, where.dataDir, sqs, log);
  const db = createDocumentClient(config);
  options.instrumentDb?.(db);
  const telemetry = (fn: string): TTelemetry =>
    localTelemetry({
      log: log.child({ fn }),
      service: fn,
      stage: LOCAL_STAGE,
      ...(options.metrics ? { sink: options.metrics } : {}),
    });
  return { config, db, sqs, log, telemetry };
}
