// The whole service in one process (`npm start`, and every HTTP test): the stand-ins for AWS's
// services, the functions' configuration, the workers, and the API on the service's own port.
// Each concern has its file: stand-ins.ts, local-config.ts, workers.ts, service-api.ts, and the
// options are in runtime-options.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { useWebFonts } from '#functions/public-pages/web-fonts';
import { createDocumentClient } from '#shared/adapters/aws/clients';
import { createLogger } from '#shared/adapters/telemetry/logger';
import { localTelemetry, type TTelemetry } from '#shared/adapters/telemetry/telemetry';
import type { TConfig } from '#shared/config';
import type { TLogger } from '#shared/logger';
import { stageConfig, type TStageConfig } from '../stage-config';
import { repositoryWebFonts } from '../web-fonts';
import { demoAccount } from './demo-account';
import { configureDemoSso } from './demo-sso';
import { localIamCheck } from './iam/local-check';
import { dataPaths, LOCAL_CREDENTIALS, LOCAL_REGION, LOCAL_STAGE, type TRuntimeFile } from './layout';
import type { TLocalCa } from './local-ca';
import { localConfig } from './local-config';
import type { TPkiStandin } from './pki-standin';
import type { TLocalDeps, TRuntimeOptions } from './runtime-options';
import type { TStoredEncryption } from './s3';
import { seedAccount, type TSeededAccount } from './seed-account';
import { startServiceApi } from './service-api';
import { prepareStandIns, startStandIns, type TStandIns, type TStops } from './stand-ins';
import type { TTsaStandin } from './tsa-standin';
import { LocalUsagePlan } from './usage-plan';
import { startWorkers, type TLocalWorkers } from './workers';

export type { TLocalDeps, TRuntimeOptions } from './runtime-options';
export type { TLocalWorkers } from './workers';

export interface TRuntime {
  /** How the S3 stand-in saw an object encrypted (key, account context), as HeadObject says on AWS. */
  storedEncryption: (key: string) => TStoredEncryption | undefined;
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
    'api' | 'dynamodb' | 's3' | 'sqs' | 'mailbox' | 'apigateway' | 'tsa' | 'pki' | 'kms' | 'oidc',
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
  await configureDemoSso(standIns.oidc, deps, demo.accountId, baseUrl);
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
      oidc: standIns.oidc.bound,
    },
    storedEncryption: standIns.s3.encryptionOf,
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
    s3Endpoint: standIns.s3.endpoint,
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
  // Every client the functions make goes through config.traceClient (as X-Ray's does on AWS):
  // there the permission check joins each one (infra/local/iam/).
  if (options.iamCheck !== false) {
    const iam = localIamCheck(config, options.iamPolicies);
    config.traceClient = (client) => iam.attach(client);
    iam.attach(sqs);
  }
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
